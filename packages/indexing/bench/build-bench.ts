/**
 * Build benchmark: indexes the GraphRAG-Bench Medical and Novel corpora with the embedded
 * encoder and the offline extractor into a temporary directory and prints figures.
 *
 *   npx tsx bench/build-bench.ts [--dataset medical|novel|all] [--data <dir>] [--keep] [--progress]
 *
 * `--data` defaults to $MOSAIC_DATASETS_DIR, else ../shared/datasets/graphrag-bench from the
 * repository root.
 *
 * Needs the embedded model (`node scripts/build-embedded-model.mjs` from the repository root)
 * and the built dist of @mosaic/graph, @mosaic/vector-index and @mosaic/encoders.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEmbeddedEncoder } from '@mosaic/encoders';
import { datasetsDirectory } from '@mosaic/testing';
import { buildCorpusIndexes, createOfflineExtractor, type ProgressEvent } from '../src/index.js';

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'all' },
    data: { type: 'string', default: datasetsDirectory() },
    keep: { type: 'boolean', default: false },
    progress: { type: 'boolean', default: false },
  },
});
const datasets = values.dataset === 'all' ? ['medical', 'novel'] : [values.dataset!];
const peakRssMb = () => process.resourceUsage().maxRSS / 1024;

const encoder = await createEmbeddedEncoder();
const extractor = createOfflineExtractor();
const outRoot = await mkdtemp(join(tmpdir(), 'mosaic-build-bench-'));
const rows: Record<string, string | number>[] = [];
try {
  for (const dataset of datasets) {
    const started = performance.now();
    const { indexes } = await buildCorpusIndexes({
      corpusPath: join(values.data!, `${dataset}.json`),
      outDir: join(outRoot, dataset),
      encoder,
      extractor,
      onProgress: values.progress ? (event: ProgressEvent) => console.error(`${dataset} ${event.stage} ${event.done}/${event.total}`) : undefined,
    });
    const seconds = (performance.now() - started) / 1000;
    const sum = (f: (i: (typeof indexes)[number]) => number) => indexes.reduce((s, i) => s + f(i), 0);
    const entities = sum((i) => i.manifest.counts.entities);
    const relations = sum((i) => i.manifest.counts.relations);
    for (const index of indexes) {
      const t = index.trace.timings;
      console.log(
        `${index.corpus.padEnd(12)} chunks ${index.manifest.counts.chunks} windows ${index.manifest.counts.windows} ` +
          `entities ${index.manifest.counts.entities} relations ${index.manifest.counts.relations} ` +
          `meanDegree ${index.trace.graphStats.meanDegree.toFixed(2)} hubShare ${(index.trace.graphStats.hubShare * 100).toFixed(1)}% ` +
          `largestComponent ${(index.trace.graphStats.largestComponentShare * 100).toFixed(1)}% ` +
          `build ${(index.manifest.buildTimeMs / 1000).toFixed(1)} s (extract ${t.extract} ms, merge ${t.merge} ms, ` +
          `encode ${t['encode-entities'] + t['encode-relations'] + t['encode-windows']} ms, lexical ${t.lexical} ms, write ${t.write} ms)`,
      );
    }
    rows.push({
      dataset,
      indexes: indexes.length,
      chunks: sum((i) => i.manifest.counts.chunks),
      windows: sum((i) => i.manifest.counts.windows),
      entities,
      relations,
      // Mean degree over all nodes of all indexes = 2·relations / entities.
      meanDegree: ((2 * relations) / Math.max(1, entities)).toFixed(2),
      hubShare: `${((sum((i) => i.trace.graphStats.hubShare * i.manifest.counts.entities) / Math.max(1, entities)) * 100).toFixed(1)}%`,
      buildSeconds: seconds.toFixed(1),
      peakRssMb: peakRssMb().toFixed(0),
    });
  }
  console.log(`\nencoder ${encoder.id} (${encoder.dimension}d), extractor ${extractor.id}, node ${process.version}`);
  console.table(rows);
  if (values.keep) console.log(`indexes kept in ${outRoot}`);
} finally {
  if (!values.keep) await rm(outRoot, { recursive: true, force: true });
}
