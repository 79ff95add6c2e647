#!/usr/bin/env node
// HNSW recall against exact search on real index vectors, per efSearch.
//
//   node apps/demo/scripts/hnsw-recall.mjs --faiss A.faiss[,B.faiss…] --questions Q.json[,R.json…] \
//        [--k 30] [--ef 16,32,64,128,256] [--factory HNSW16_SQfp16] [--min 250000]
//
// The vectors of every --faiss file (any layout readFaissStoredVectors reads) are put together in
// one set (so several corpora can make a kind of ≥ --min vectors); the queries are the questions of
// every --questions file (GraphRAG-Bench JSON: [{ question }]) encoded with the embedded encoder,
// as the pipeline encodes a question. For each efSearch it prints recall@k: the share of the exact
// top k (faiss SQfp16, exhaustive) that the HNSW index returns, and the CPU ms per query.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createEmbeddedEncoder } from '@mosaic/encoders';
import { rm } from 'node:fs/promises';
import { createFaissVectorIndex, loadFaissVectorIndex, readFaissStoredVectors } from '@mosaic/vector-index';

const { values } = parseArgs({
  options: {
    faiss: { type: 'string' },
    questions: { type: 'string' },
    k: { type: 'string', default: '30' },
    ef: { type: 'string', default: '16,32,64,128,256' },
    factory: { type: 'string', default: 'HNSW16_SQfp16' },
    exact: { type: 'string', default: 'SQfp16' },
    min: { type: 'string', default: '0' },
  },
});
if (!values.faiss || !values.questions) {
  console.error('usage: hnsw-recall.mjs --faiss A.faiss[,B.faiss] --questions Q.json[,R.json] [--k 30] [--ef 16,32,…]');
  process.exit(2);
}
const k = Number(values.k);
const vectors = [];
let dimension = 0;
for (const path of values.faiss.split(',')) {
  const stored = readFaissStoredVectors(await readFile(path), path);
  dimension = stored.dimension;
  for (let row = 0; row < stored.count; row++) vectors.push(stored.matrix.subarray(row * dimension, (row + 1) * dimension));
}
if (vectors.length < Number(values.min)) {
  console.error(`only ${vectors.length} vectors, fewer than --min ${values.min}`);
  process.exit(1);
}
const texts = [];
for (const path of values.questions.split(',')) for (const entry of JSON.parse(await readFile(path, 'utf8'))) texts.push(entry.question);
const encoder = await createEmbeddedEncoder();
const queries = await encoder.encode(texts);

const cpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const exact = createFaissVectorIndex({ dimension, factory: values.exact });
await exact.add(vectors);
let start = cpu();
const truth = [];
const best = [];
for (const query of queries) {
  const hits = await exact.search(query, k);
  truth.push(new Set(hits.map((hit) => hit.label)));
  best.push(hits[0]?.label);
}
console.log(
  `${vectors.length} vectors × ${dimension}, ${queries.length} questions, k ${k}; exact ${values.exact}: ${((cpu() - start) / queries.length).toFixed(2)} ms CPU/query`,
);
const built = cpu();
const hnsw = createFaissVectorIndex({ dimension, factory: values.factory, searchParameters: { efSearch: 16 } });
await hnsw.add(vectors);
console.log(`${values.factory} built in ${((cpu() - built) / 1000).toFixed(1)} s CPU`);
// One graph for every efSearch: saved once, loaded with each setting.
const path = `/tmp/hnsw-recall-${process.pid}.faiss`;
await hnsw.save(path);
for (const ef of values.ef.split(',').map(Number)) {
  const loaded = await loadFaissVectorIndex({ path, searchParameters: { efSearch: ef } });
  start = cpu();
  let found = 0;
  let top1 = 0;
  for (let q = 0; q < queries.length; q++) {
    const hits = await loaded.search(queries[q], k);
    for (const hit of hits) if (truth[q].has(hit.label)) found++;
    if (hits[0]?.label === best[q]) top1++;
  }
  const ms = (cpu() - start) / queries.length;
  console.log(
    `efSearch ${ef}: recall@${k} ${((100 * found) / (k * queries.length)).toFixed(2)} %, top-1 agreement ${((100 * top1) / queries.length).toFixed(1)} %, ${ms.toFixed(2)} ms CPU/query`,
  );
}
await rm(path, { force: true });
