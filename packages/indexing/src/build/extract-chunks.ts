import { availableParallelism } from 'node:os';
import type { ChunkExtraction } from '@mosaic/graph';
import { InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type { Chunk, Extractor } from '@mosaic/spec';
import { OfflineExtractor } from '../extraction/offline-extractor.js';
import { extractInWorkers } from './extract-in-workers.js';

/** Below this many chunks the default extracts in the calling thread (starting workers costs more). */
export const MIN_CHUNKS_FOR_WORKERS = 256;

/** Worker threads used by default: one per core, at most 4 (0 on one core: extract in-process). */
export function defaultExtractWorkers(): number {
  const cores = availableParallelism();
  return cores >= 2 ? Math.min(cores, 4) : 0;
}

export interface ExtractChunksOptions {
  chunks: readonly Chunk[];
  extractor: Extractor;
  /** Chunks in flight at once (for network extractors). Default 4. */
  concurrency?: number;
  abortSignal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /**
   * Worker threads for the offline extractor (other extractors run in-process with
   * `concurrency`). 0 extracts in the calling thread. Default: one per core, at most 4, when there
   * are at least MIN_CHUNKS_FOR_WORKERS chunks. The output is the same whatever the number.
   */
  workers?: number;
}

/**
 * Run the extractor over chunks with bounded concurrency; results keep chunk order. Yields to
 * the event loop between chunks so that an abort (e.g. from a signal handler) is seen promptly.
 */
export async function extractChunks(options: ExtractChunksOptions): Promise<ChunkExtraction[]> {
  const { chunks, extractor, abortSignal } = options;
  if (options.workers !== undefined && (!Number.isInteger(options.workers) || options.workers < 0)) {
    throw new InvalidArgumentError({ argument: 'extractWorkers', message: `must be a non-negative integer, got ${options.workers}` });
  }
  const workers = options.workers ?? (chunks.length >= MIN_CHUNKS_FOR_WORKERS ? defaultExtractWorkers() : 0);
  if (workers > 0 && extractor instanceof OfflineExtractor) {
    return extractInWorkers({ chunks, extractorOptions: extractor.options, workers, abortSignal, onProgress: options.onProgress });
  }
  const results: ChunkExtraction[] = new Array(chunks.length);
  const concurrency = Math.max(1, Math.min(options.concurrency ?? 4, chunks.length || 1));
  let next = 0;
  let done = 0;
  options.onProgress?.(0, chunks.length);
  const worker = async () => {
    for (;;) {
      throwIfAborted(abortSignal, 'extract');
      const i = next++;
      if (i >= chunks.length) return;
      const chunk = chunks[i];
      const extraction = await extractor.extract({ chunk, abortSignal });
      results[i] = { chunkId: chunk.id, extraction };
      done++;
      options.onProgress?.(done, chunks.length);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  throwIfAborted(abortSignal, 'extract');
  return results;
}
