/**
 * SurrealDB benchmark: migrates a file index (default: the Medical index under .mosaic/indexes)
 * into embedded SurrealDB, then runs the pipeline over both and prints build time, retrieval
 * p50/p95 per question, database round trips per question against the depth reached, and window
 * agreement. The last line is the summary other tools read:
 *   surreal p50=<ms> memory p50=<ms> ratio=<surreal/memory> round_trips_p95=<n> depth_p95=<n> identical=<k>/<n>
 *
 *   pnpm bench [--dir <index dir>] [--questions <file>] [--limit 40] [--url mem://]
 *              [--search hnsw|exact] [--ef 64] [--cache all|windows|none] [--cache-records 100000]
 *
 * `--questions` defaults to $MOSAIC_DATASETS_DIR/medical_questions.dev.json, else
 * ../shared/datasets/graphrag-bench/medical_questions.dev.json from the repository root; `--dir` to
 * .mosaic/indexes/medical of the repository root.
 *
 * Needs the built dist of the workspace packages, the embedded model, and an index directory
 * (`mosaic index` / buildCorpusIndexes of @mosaic/indexing).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEmbeddedEncoder } from '@mosaic/encoders';
import { loadIndex, readIndexContents, readIndexManifest } from '@mosaic/indexing';
import { createMosaic } from '@mosaic/pipeline';
import type { StageTimings } from '@mosaic/spec';
import { datasetPath, findRepositoryRoot } from '@mosaic/testing';
import { connectSurreal, loadSurrealIndex, piecesFromCorpusIndex, writeIndexToSurreal } from '../src/index.js';

const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: join(findRepositoryRoot(), '.mosaic', 'indexes', 'medical') },
    questions: { type: 'string', default: datasetPath('medical_questions.dev.json') },
    limit: { type: 'string', default: '40' },
    url: { type: 'string', default: 'mem://' },
    search: { type: 'string', default: 'hnsw' },
    ef: { type: 'string', default: '64' },
    cache: { type: 'string', default: 'all' },
    'cache-records': { type: 'string', default: '100000' },
  },
});
const limit = Number(values.limit);
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

const encoder = await createEmbeddedEncoder();
const dir = values.dir!;
let t = performance.now();
const fileIndex = await loadIndex({ dir, encoder });
const contents = await readIndexContents(dir, await readIndexManifest(dir));
const fileLoadMs = performance.now() - t;
console.log(`file index ${dir}: ${JSON.stringify(fileIndex.manifest.counts)} (load ${ms(fileLoadMs)})`);

t = performance.now();
const { pieces } = await piecesFromCorpusIndex({
  index: fileIndex,
  vectors: { entities: contents.vectors.entities.vectors, relations: contents.vectors.relations.vectors, windows: contents.vectors.windows.vectors },
});
const connection = await connectSurreal({ url: values.url!, database: 'bench' });
const written = await writeIndexToSurreal({ connection, pieces, batchSize: 1000 });
const buildMs = performance.now() - t;
console.log(
  `write into ${values.url}: ${ms(buildMs)} (graph ${ms(written.timings.graphMs)}, chunks+windows ${ms(written.timings.chunksMs)}, ` +
    `vectors+HNSW ${ms(written.timings.vectorsMs)}), ${written.roundTrips} requests`,
);
t = performance.now();
const surreal = await loadSurrealIndex({
  connection,
  encoder,
  search: values.search as 'hnsw' | 'exact',
  efSearch: Number(values.ef),
  cacheVectors: values.cache === 'all' ? true : values.cache === 'windows' ? { windows: true } : false,
  cacheRecords: Number(values['cache-records']),
});
console.log(`load from SurrealDB (cacheVectors ${values.cache}): ${ms(performance.now() - t)}`);

const all = JSON.parse(await readFile(values.questions!, 'utf8')) as Array<{ id: string; question: string }>;
const questions = all.slice(0, limit);
const memoryMosaic = createMosaic({ index: fileIndex });
const surrealMosaic = createMosaic({ index: surreal });
// Warm-up (JIT) on one question that is not measured, the same for both.
const warmUp = all[limit] ?? all[all.length - 1];
await memoryMosaic.retrieve({ question: warmUp.question });
await surrealMosaic.retrieve({ question: warmUp.question });

const memoryTimes: number[] = [];
const surrealTimes: number[] = [];
const trips: number[] = [];
const stages = ['seeds', 'traverse', 'evidence', 'rerank'] as const;
const stageTimes = { memory: new Map<string, number[]>(), surreal: new Map<string, number[]>() };
const recordStages = (target: Map<string, number[]>, timings: StageTimings) => {
  for (const stage of stages) target.set(stage, [...(target.get(stage) ?? []), timings[stage] ?? 0]);
};
const depthTrips: number[] = [];
const depths: number[] = [];
let sameWindows = 0;
let overlap = 0;
for (const q of questions) {
  let start = performance.now();
  const expected = await memoryMosaic.retrieve({ question: { id: q.id, text: q.question } });
  memoryTimes.push(performance.now() - start);
  start = performance.now();
  const actual = await surrealMosaic.retrieve({ question: { id: q.id, text: q.question } });
  surrealTimes.push(performance.now() - start);
  // Requests the question sent, as the pipeline traces them per stage (the index counts its requests).
  trips.push(actual.trace.roundTrips?.total ?? 0);
  recordStages(stageTimes.memory, expected.trace.timings);
  recordStages(stageTimes.surreal, actual.trace.timings);
  depthTrips.push(actual.trace.traversal.roundTrips);
  depths.push(actual.trace.traversal.depths.length);
  const want = expected.windows.map((w) => w.id);
  const got = actual.windows.map((w) => w.id);
  if (JSON.stringify(want) === JSON.stringify(got)) sameWindows += 1;
  overlap += got.filter((id) => want.includes(id)).length / Math.max(1, want.length);
}
console.log(`${questions.length} questions`);
console.log(`  in memory (faiss + graphology): p50 ${ms(quantile(memoryTimes, 0.5))}  p95 ${ms(quantile(memoryTimes, 0.95))}`);
console.log(`  SurrealDB ${values.url} (${values.search}): p50 ${ms(quantile(surrealTimes, 0.5))}  p95 ${ms(quantile(surrealTimes, 0.95))}`);
console.log(
  `  round trips per question: p50 ${quantile(trips, 0.5)}  p95 ${quantile(trips, 0.95)}  max ${Math.max(...trips)} ` +
    `(neighbour batches: p50 ${quantile(depthTrips, 0.5)}, max ${Math.max(...depthTrips)})`,
);
for (const [name, times] of Object.entries(stageTimes)) {
  console.log(`  stage p50 ${name.padEnd(7)}: ${stages.map((stage) => `${stage} ${ms(quantile(times.get(stage)!, 0.5))}`).join(', ')}`);
}
console.log(`  identical top windows: ${sameWindows}/${questions.length}, mean overlap ${((overlap / questions.length) * 100).toFixed(1)}%`);
const over = trips.filter((n, i) => n > depths[i] + 2).length;
console.log(`  questions over their own D + 2 round trips: ${over}/${questions.length}; worker record cache ${surreal.graph.stats.cache.size} records`);
const surrealP50 = quantile(surrealTimes, 0.5);
const memoryP50 = quantile(memoryTimes, 0.5);
console.log(
  `surreal p50=${surrealP50.toFixed(1)} memory p50=${memoryP50.toFixed(1)} ratio=${(surrealP50 / memoryP50).toFixed(2)} ` +
    `round_trips_p95=${quantile(trips, 0.95)} depth_p95=${quantile(depths, 0.95)} identical=${sameWindows}/${questions.length}`,
);
await connection.close();
process.exit(0);
