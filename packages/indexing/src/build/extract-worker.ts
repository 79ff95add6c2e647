/**
 * The extraction worker thread: makes the offline extractor from `workerData.options` and answers
 * `{ id, chunks }` messages with `{ id, extractions }` (same order), or `{ id, error }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Chunk } from '@mosaic/spec';
import { createOfflineExtractor, type OfflineExtractorOptions } from '../extraction/offline-extractor.js';

const extractor = createOfflineExtractor((workerData as { options?: OfflineExtractorOptions } | undefined)?.options ?? {});

parentPort?.on('message', async (message: { id: number; chunks: Chunk[] }) => {
  try {
    const extractions = [];
    for (const chunk of message.chunks) extractions.push(await extractor.extract({ chunk }));
    parentPort?.postMessage({ id: message.id, extractions });
  } catch (error) {
    const { name, message: text, stack } = error instanceof Error ? error : new Error(String(error));
    parentPort?.postMessage({ id: message.id, error: { name, message: text, stack } });
  }
});
