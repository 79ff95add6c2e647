#!/usr/bin/env node
/**
 * Where a question's time goes on one index: loads it once (the CLI's way: embedded encoder, offline
 * analyzer, fusion reranker), runs the questions in order and prints, per question and as medians /
 * 95th percentiles, the wall milliseconds of each pipeline stage (from the pipeline's stage hooks)
 * and of the grounding after reranking (`timings.ground`).
 * The first `--warm` questions are run first and left out of the figures.
 *
 *   node apps/demo/scripts/latency-probe.mjs --index <index dir> --questions <file> [--limit N] [--warm N] [--json]
 *
 * Questions: a GraphRAG-Bench question file (JSON array of {id, question}) as scale-bench writes them.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createCachedAnalyzer, createOfflineAnalyzer } from '@mosaic/analyzer';
import { createEmbeddedEncoder } from '@mosaic/encoders';
import { loadIndex } from '@mosaic/indexing';
import { createMosaic } from '@mosaic/pipeline';

const { values } = parseArgs({
  options: { index: { type: 'string' }, questions: { type: 'string' }, limit: { type: 'string' }, warm: { type: 'string' }, json: { type: 'boolean' } },
});
if (!values.index || !values.questions) {
  console.error('usage: latency-probe.mjs --index <index dir> --questions <file> [--limit N] [--warm N] [--json]');
  process.exit(2);
}
const limit = values.limit === undefined ? Number.POSITIVE_INFINITY : Number(values.limit);
const warm = values.warm === undefined ? 2 : Number(values.warm);
const questions = JSON.parse(readFileSync(values.questions, 'utf8')).slice(0, limit + warm);
const encoder = await createEmbeddedEncoder();
let t = performance.now();
const index = await loadIndex({ dir: values.index, encoder });
console.error(`loaded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
let stages = {};
const mosaic = createMosaic({
  index,
  analyzer: createCachedAnalyzer({ analyzer: createOfflineAnalyzer() }),
  hooks: { onStageEnd: ({ stage, durationMs }) => (stages[stage] = (stages[stage] ?? 0) + durationMs) },
});
const rows = [];
for (const [i, q] of questions.entries()) {
  stages = {};
  t = performance.now();
  const { timings } = await mosaic.retrieve({ question: { id: q.id, text: q.question } });
  const total = performance.now() - t;
  if (i < warm) continue;
  const row = { id: q.id, total, ...stages, ground: timings.ground };
  rows.push(row);
  if (!values.json)
    console.log(
      `${q.id}\t${Object.entries(row)
        .slice(1)
        .map(([k, v]) => `${k} ${typeof v === 'number' ? v.toFixed(0) : v}`)
        .join('  ')}`,
    );
}
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const keys = ['total', 'analyze', 'encode', 'seeds', 'traverse', 'evidence', 'rerank', 'ground'];
const summary = Object.fromEntries(
  keys.map((k) => [
    k,
    {
      p50: pct(
        rows.map((r) => r[k] ?? 0),
        50,
      ),
      p95: pct(
        rows.map((r) => r[k] ?? 0),
        95,
      ),
    },
  ]),
);
if (values.json) console.log(JSON.stringify({ rows, summary }));
else {
  console.log(
    `\n${rows.length} questions, load avg ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  for (const k of keys) console.log(`${k.padEnd(9)} p50 ${summary[k].p50.toFixed(1).padStart(8)} ms   p95 ${summary[k].p95.toFixed(1).padStart(8)} ms`);
}
