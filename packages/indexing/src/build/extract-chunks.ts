import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { ChunkExtraction } from '@mosaic/graph';
import { InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type { Chunk, Extractor } from '@mosaic/spec';
import { OfflineExtractor } from '../extraction/offline-extractor.js';
import { extractInWorkers } from './extract-in-workers.js';
import { ExtractionLog } from './extraction-log.js';

/**
 * The offline extractor reads chunks in blocks of this many, each block with a fresh extractor.
 * wink-nlp's state grows with what an instance has read (its lexicon learns words), and a few
 * chunks come out differently after a long history (measured: 181 of 9,640 chunks of the Python
 * documentation). Fresh state at fixed chunk positions makes the extractions depend on the corpus
 * only, never on the number of workers or on what the extractor object read before.
 */
export const EXTRACTION_BLOCK = 1024;

/**
 * The default uses workers only for more than one block (one block runs in one thread anyway). A
 * corpus of one block (GraphRAG-Bench Medical: 925 chunks) is extracted exactly as before blocks.
 */
export const MIN_CHUNKS_FOR_WORKERS = EXTRACTION_BLOCK + 1;

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
  /** Chunks per fresh offline extractor. Default EXTRACTION_BLOCK; another value gives other extractions (tests). */
  block?: number;
  /**
   * Milliseconds an extraction worker may go without extracting a chunk before its block goes to a
   * fresh worker (once; the second stalling too, the extraction fails). Default EXTRACT_STALL_MS (2 minutes).
   */
  stallMs?: number;
  /** Starts an extraction worker (default: this package's extraction module); for tests. */
  startWorker?: (workerData: unknown) => Worker;
}

/**
 * Run the extractor over chunks with bounded concurrency; results keep chunk order, in an
 * ExtractionLog (compressed in blocks of `block` chunks as soon as a block is complete, so the
 * objects of at most a few blocks are held at once). Yields to the event loop between chunks so
 * that an abort (e.g. from a signal handler) is seen promptly.
 */
export async function extractChunks(options: ExtractChunksOptions): Promise<ExtractionLog> {
  const { chunks, extractor, abortSignal } = options;
  if (options.workers !== undefined && (!Number.isInteger(options.workers) || options.workers < 0)) {
    throw new InvalidArgumentError({ argument: 'extractWorkers', message: `must be a non-negative integer, got ${options.workers}` });
  }
  const workers = options.workers ?? (chunks.length >= MIN_CHUNKS_FOR_WORKERS ? defaultExtractWorkers() : 0);
  const block = options.block ?? EXTRACTION_BLOCK;
  if (!Number.isInteger(block) || block < 1) throw new InvalidArgumentError({ argument: 'extractBlock', message: `must be a positive integer, got ${block}` });
  if (extractor instanceof OfflineExtractor) {
    // More than one block always goes through worker threads (one at least): a fresh thread per
    // block is the only fresh wink-nlp model (its state grows with every instance in a thread).
    if (workers > 0 || chunks.length > block) {
      return extractInWorkers({
        chunks,
        extractorOptions: extractor.options,
        workers: Math.max(1, workers),
        batch: block,
        abortSignal,
        onProgress: options.onProgress,
        stallMs: options.stallMs,
        startWorker: options.startWorker,
      });
    }
    // One block, no workers: the extractor given reads it (as before blocks existed).
    return extractInBlocks(chunks, extractor, options);
  }
  const results: (ChunkExtraction | undefined)[] = new Array(chunks.length);
  const log = new ExtractionLog();
  // Chunks before `flushed` are in the log; a complete block of results is compressed at once.
  let flushed = 0;
  const flush = (all: boolean) => {
    while (flushed < chunks.length) {
      const end = Math.min(chunks.length, flushed + block);
      if (end - flushed < block && !all) return;
      for (let i = flushed; i < end; i++) if (results[i] === undefined) return;
      log.append(results.slice(flushed, end) as ChunkExtraction[]);
      results.fill(undefined, flushed, end);
      flushed = end;
    }
  };
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
      flush(false);
      done++;
      options.onProgress?.(done, chunks.length);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  throwIfAborted(abortSignal, 'extract');
  flush(true);
  return log;
}

/** The offline extractor in the calling thread, over one block (at most `block` chunks). */
async function extractInBlocks(chunks: readonly Chunk[], extractor: OfflineExtractor, options: ExtractChunksOptions): Promise<ExtractionLog> {
  const results: ChunkExtraction[] = [];
  options.onProgress?.(0, chunks.length);
  for (const chunk of chunks) {
    throwIfAborted(options.abortSignal, 'extract');
    results.push({ chunkId: chunk.id, extraction: await extractor.extract({ chunk, abortSignal: options.abortSignal }) });
    options.onProgress?.(results.length, chunks.length);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return ExtractionLog.from(results, results.length || 1);
}
