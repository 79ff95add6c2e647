import { buildIndex } from '../build/build-index.js';
import { createOfflineExtractor } from '../extraction/offline-extractor.js';
import { fixtureDocuments } from './fixture-documents.js';
import type { HashingTestEncoder } from './hashing-test-encoder.js';

/** Build the fixture documents' index into `outDir` (offline extractor, windows of 200 characters every 100, chunks of 150): what the load tests read. */
export async function buildFixtureIndex(outDir: string, encoder: HashingTestEncoder): Promise<void> {
  await buildIndex({
    documents: fixtureDocuments(),
    outDir,
    encoder,
    extractor: createOfflineExtractor(),
    window: { size: 200, stride: 100 },
    chunkSize: 150,
  });
}
