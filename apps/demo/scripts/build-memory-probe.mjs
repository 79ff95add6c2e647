#!/usr/bin/env node
/**
 * Live heap per build stage: builds an index with the offline stack and, at every stage change,
 * forces a full garbage collection and prints the live heap, external memory and RSS. Run with
 * --expose-gc. Peak RSS of the whole process is printed at the end.
 *
 *   node --expose-gc apps/demo/scripts/build-memory-probe.mjs --corpus DIR --out DIR [--lexical-workers N]
 */
import { parseArgs } from 'node:util';
import { createEmbeddedEncoder } from '@mosaic/encoders';
import { buildIndex, createOfflineExtractor } from '@mosaic/indexing';

const { values } = parseArgs({ options: { corpus: { type: 'string' }, out: { type: 'string' }, 'lexical-workers': { type: 'string' } } });
if (!values.corpus || !values.out) throw new Error('usage: --corpus DIR --out DIR');
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const mb = (n) => (n / 1048576).toFixed(0);
const t0 = performance.now();
let last = '';
const report = (stage) => {
  globalThis.gc();
  const m = process.memoryUsage();
  const peak = process.resourceUsage().maxRSS * 1024;
  console.log(
    `${((performance.now() - t0) / 1000).toFixed(1).padStart(7)} s  ${stage.padEnd(22)} heap ${mb(m.heapUsed).padStart(6)} MB  external ${mb(m.external).padStart(6)} MB  arrayBuffers ${mb(m.arrayBuffers).padStart(6)} MB  rss ${mb(m.rss).padStart(6)} MB  peak ${mb(peak).padStart(6)} MB`,
  );
};
const encoder = await createEmbeddedEncoder();
const result = await buildIndex({
  corpusPath: values.corpus,
  outDir: values.out,
  encoder,
  extractor: createOfflineExtractor(),
  ...(values['lexical-workers'] !== undefined ? { lexicalWorkers: Number(values['lexical-workers']) } : {}),
  onProgress: (event) => {
    if (event.stage !== last) {
      report(`${event.stage} start`);
      last = event.stage;
    }
  },
});
report('done');
console.log(JSON.stringify({ timings: result.trace.timings, counts: result.manifest.counts }));
