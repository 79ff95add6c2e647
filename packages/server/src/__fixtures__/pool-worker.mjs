// A worker process of the pool tests: loads the index at data.dir and serves a local engine.
import { createEmbeddedEncoder } from '@mosaic/encoders';
import { loadIndex } from '@mosaic/indexing';
import { createMosaic } from '@mosaic/pipeline';
import { createLocalEngine, serveEngineInWorker } from '@mosaic/server';
import { createHashingEncoder } from '@mosaic/testing/hand-built-index';

serveEngineInWorker(async (data) => {
  if (data.fail) throw new Error('cannot open the index on purpose');
  const encoder = data.encoder === 'embedded' ? await createEmbeddedEncoder() : createHashingEncoder();
  const index = await loadIndex({ dir: data.dir, encoder });
  return createLocalEngine({ mosaic: createMosaic({ index }), index });
});
