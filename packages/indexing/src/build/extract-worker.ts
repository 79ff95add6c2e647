/**
 * The extraction worker thread: answers `{ id, chunks }` messages (one block of chunks) with
 * `{ id, extractions }` (same order), or `{ id, error }`, reading every block with a fresh offline
 * extractor made from `workerData.options` (see EXTRACTION_BLOCK: no state crosses blocks).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Chunk } from '@mosaic/spec';
import { createOfflineExtractor, type OfflineExtractorOptions } from '../extraction/offline-extractor.js';

const options = (workerData as { options?: OfflineExtractorOptions } | undefined)?.options ?? {};

parentPort?.on('message', async (message: { id: number; chunks: Chunk[] }) => {
  try {
    const extractor = createOfflineExtractor(options);
    const extractions = [];
    for (const chunk of message.chunks) extractions.push(await extractor.extract({ chunk }));
    parentPort?.postMessage({ id: message.id, extractions });
  } catch (error) {
    const { name, message: text, stack } = error instanceof Error ? error : new Error(String(error));
    parentPort?.postMessage({ id: message.id, error: { name, message: text, stack } });
  }
});
