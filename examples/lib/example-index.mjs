// The index the stage examples run on: examples/corpus indexed with the offline defaults (the
// embedded encoder, the offline extractor, faiss), built on first use into .mosaic/indexes/.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmbeddedEncoder } from '@mosaic/encoders';
import { buildIndex, createOfflineExtractor, loadIndex } from '@mosaic/indexing';

/** @returns {Promise<{ index: import('@mosaic/indexing').LoadedCorpusIndex, release: () => Promise<void> }>} */
export async function openExampleIndex() {
  const dir = '.mosaic/indexes/example-corpus';
  const encoder = await createEmbeddedEncoder();
  if (!existsSync(join(dir, 'manifest.json'))) {
    const corpusPath = fileURLToPath(new URL('../corpus/', import.meta.url));
    await buildIndex({ corpusPath, corpus: 'example', outDir: dir, encoder, extractor: createOfflineExtractor() });
  }
  return { index: await loadIndex({ dir, encoder }), release: () => encoder.release() };
}
