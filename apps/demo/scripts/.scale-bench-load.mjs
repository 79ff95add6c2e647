import { loadIndex } from '@mosaic/indexing';
import { createEmbeddedEncoder } from '@mosaic/encoders';
const encoder = await createEmbeddedEncoder();
const t = performance.now();
await loadIndex({ dir: '/tmp/scale31/bench/index-1mb/docs-1mb', encoder });
console.log(((performance.now() - t) / 1000).toFixed(2));
