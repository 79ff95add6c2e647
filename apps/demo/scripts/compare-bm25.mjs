#!/usr/bin/env node
/**
 * Compare the BM25 states of two indexes of the same corpus, one of formatVersion 2 (wink-bm25's
 * exportJSON, `lexical/<kind>.bm25.json.gz`) and one of formatVersion 3 (the binary layout,
 * `lexical/<kind>.bm25.gz`): for every question, `scoreAll` must give the same labels and the same
 * Float64 scores (Object.is) and `search(q, 100)` the same hits. Prints the read time of each state.
 *
 *   node apps/demo/scripts/compare-bm25.mjs <format-2 index dir> <format-3 index dir> <questions.json>
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Bm25Index } from '@mosaic/vector-index';
const [oldDir, newDir, questionsFile] = process.argv.slice(2);
const questions = JSON.parse(readFileSync(questionsFile, 'utf8')).map((q) => q.question);
let compared = 0,
  hits = 0;
for (const kind of ['entities', 'relations', 'windows']) {
  let t = performance.now();
  const old = Bm25Index.fromJSON(gunzipSync(readFileSync(`${oldDir}/lexical/${kind}.bm25.json.gz`)).toString('utf8'));
  const tOld = performance.now() - t;
  t = performance.now();
  const neu = Bm25Index.fromBinary(gunzipSync(readFileSync(`${newDir}/lexical/${kind}.bm25.gz`)));
  const tNew = performance.now() - t;
  for (const q of questions) {
    const a = old.scoreAll(q),
      b = neu.scoreAll(q);
    if (a.count !== b.count) throw new Error(`${kind} ${q}: count ${a.count} vs ${b.count}`);
    for (let i = 0; i < a.count; i++) if (a.labels[i] !== b.labels[i] || !Object.is(a.scores[i], b.scores[i])) throw new Error(`${kind} ${q}: differs at ${i}`);
    const x = JSON.stringify(old.search(q, 100)),
      y = JSON.stringify(neu.search(q, 100));
    if (x !== y) throw new Error(`${kind} ${q}: search differs`);
    compared++;
    hits += a.count;
  }
  console.log(`${kind}: size ${old.size}; load wink-JSON ${tOld.toFixed(0)} ms, binary ${tNew.toFixed(0)} ms`);
}
console.log(`identical: ${compared} (question, kind) pairs, ${hits} scored documents, bit for bit`);
