import type { ChunkExtraction } from '@mosaic/graph';
import { throwIfAborted } from '@mosaic/spec';
import type { Chunk, Extractor } from '@mosaic/spec';

export interface ExtractChunksOptions {
  chunks: readonly Chunk[];
  extractor: Extractor;
  /** Chunks in flight at once (for network extractors). Default 4. */
  concurrency?: number;
  abortSignal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Run the extractor over chunks with bounded concurrency; results keep chunk order. Yields to
 * the event loop between chunks so that an abort (e.g. from a signal handler) is seen promptly.
 */
export async function extractChunks(options: ExtractChunksOptions): Promise<ChunkExtraction[]> {
  const { chunks, extractor, abortSignal } = options;
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
