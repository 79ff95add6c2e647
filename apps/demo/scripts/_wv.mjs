import { setFlagsFromString } from 'node:v8'; setFlagsFromString('--no-allocation-site-pretenuring');
import { readFileSync } from 'node:fs';
import { createCachedAnalyzer, createOfflineAnalyzer } from '@mosaic/analyzer';
import { createEmbeddedEncoder } from '@mosaic/encoders';
import { loadIndex } from '@mosaic/indexing';
import { createMosaic } from '@mosaic/pipeline';
const [dir, qf, mode] = process.argv.slice(2);
const qs = JSON.parse(readFileSync(qf, 'utf8')).slice(0, 40);
const index = await loadIndex({ dir, encoder: await createEmbeddedEncoder() });
const mosaic = createMosaic({ index, analyzer: createCachedAnalyzer({ analyzer: createOfflineAnalyzer() }) });
if (mode === 'prepare') for (const k of ['entities', 'relations', 'windows']) index.lexical[k]?.prepare?.();
if (mode === 'wide') await mosaic.warmUp();
if (mode === 'widegc') { await mosaic.warmUp(); setFlagsFromString('--expose-gc'); const gc = (await import('node:vm')).runInNewContext('gc'); const t = performance.now(); gc(); console.error('gc ms', (performance.now() - t).toFixed(0)); }
if (mode === 'analyzed') { for (const k of ['entities', 'relations', 'windows']) index.lexical[k]?.prepare?.(); const id = index.windowIds[0]; const text = index.chunks.getWindow(id).text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu).slice(0, 24).join(' '); await mosaic.retrieve({ question: { id: 'w', text } }); }
if (mode === 'medium') await mosaic.warmUp({ policy: 'medium' });
if (mode === 'adaptive') await mosaic.warmUp({ policy: undefined });
const lat = [];
for (const q of qs) { const t = performance.now(); await mosaic.retrieve({ question: { id: q.id, text: q.question } }); lat.push(performance.now() - t); }
const s = [...lat].sort((a, b) => a - b); const p = (q) => { const k = (s.length - 1) * q, f = Math.floor(k), c = Math.ceil(k); return s[f] + (s[c] - s[f]) * (k - f); };
const m = process.memoryUsage();
console.log(`${mode}: p50 ${p(0.5).toFixed(1)} p95 ${p(0.95).toFixed(1)} first ${lat[0].toFixed(0)} heap ${(m.heapUsed / 1e6).toFixed(0)}`);
