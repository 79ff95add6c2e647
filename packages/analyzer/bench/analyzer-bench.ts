/**
 * Offline analyzer benchmark: analyses every Medical (and Novel) dev question and prints the
 * latency per question (p50 / p95 / max, ms) with the policy distribution.
 *
 *   pnpm --filter @mosaic/analyzer bench [--data <dir>] [--dataset medical|novel|all]
 *
 * `--data` defaults to $MOSAIC_DATASETS_DIR, else ../shared/datasets/graphrag-bench from the
 * repository root. Needs the built dist of @mosaic/spec and @mosaic/policy-schema.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { datasetsDirectory } from '@mosaic/testing';
import { createOfflineAnalyzer, summarizePolicies } from '../src/index.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: datasetsDirectory() },
    dataset: { type: 'string', default: 'all' },
  },
});
const datasets = values.dataset === 'all' ? ['medical', 'novel'] : [values.dataset!];
const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

for (const dataset of datasets) {
  const questions = JSON.parse(await readFile(join(values.data!, `${dataset}_questions.dev.json`), 'utf8')) as { id: string; question: string }[];
  const analyzer = createOfflineAnalyzer();
  const analyses = [];
  for (const q of questions) analyses.push(await analyzer.analyze({ question: { id: q.id, text: q.question } }));
  const latencies = analyses.map((analysis) => analysis.latencyMs).sort((a, b) => a - b);
  const summary = summarizePolicies(analyses);
  console.log(
    `${dataset}: ${questions.length} questions, latency p50 ${quantile(latencies, 0.5).toFixed(3)} ms, p95 ${quantile(latencies, 0.95).toFixed(3)} ms, ` +
      `max ${latencies[latencies.length - 1].toFixed(3)} ms; ${summary.uniquePolicies} distinct policies`,
  );
}
