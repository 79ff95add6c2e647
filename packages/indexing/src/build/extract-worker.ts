/**
 * The extraction worker thread: answers `{ id, chunks }` messages (one block of chunks) with
 * `{ id, done }` after each chunk (how many of the block are done: a sign of life), then `{ id, count, gzip }`: the block's extractions as JSON Lines (`{ chunkId, extraction }`, same
 * order), compressed as one gzip member of the extraction log; or `{ id, error }`. Every block is
 * read with a fresh offline extractor made from `workerData.options` (see EXTRACTION_BLOCK: no
 * state crosses blocks). Compressing here keeps the objects out of the building thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ChunkExtraction } from '@mosaic/graph';
import type { Chunk } from '@mosaic/spec';
import { createOfflineExtractor, type OfflineExtractorOptions } from '../extraction/offline-extractor.js';
import { encodeExtractionBlock } from './extraction-log.js';

const options = (workerData as { options?: OfflineExtractorOptions } | undefined)?.options ?? {};

// A block that cannot be read here is answered as an error (else the building thread would wait for it).
parentPort?.on('messageerror', (error) => {
  parentPort?.postMessage({ id: -1, error: { name: error.name, message: `a block could not be read in the worker: ${error.message}` } });
});

parentPort?.on('message', async (message: { id: number; chunks: Chunk[] }) => {
  try {
    const extractor = createOfflineExtractor(options);
    const extractions: ChunkExtraction[] = [];
    for (const chunk of message.chunks) {
      extractions.push({ chunkId: chunk.id, extraction: await extractor.extract({ chunk }) });
      // A sign of life per chunk: the building thread gives up on a worker only when it goes silent.
      parentPort?.postMessage({ id: message.id, done: extractions.length });
    }
    const gzip = encodeExtractionBlock(extractions);
    // The bytes move to the building thread (no copy).
    const bytes = gzip.byteOffset === 0 && gzip.byteLength === gzip.buffer.byteLength ? gzip : new Uint8Array(gzip);
    parentPort?.postMessage({ id: message.id, count: extractions.length, gzip: bytes }, [bytes.buffer as ArrayBuffer]);
  } catch (error) {
    const { name, message: text, stack } = error instanceof Error ? error : new Error(String(error));
    parentPort?.postMessage({ id: message.id, error: { name, message: text, stack } });
  }
});
