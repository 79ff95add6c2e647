import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { AbortedError, InvalidArgumentError, MosaicError, throwIfAborted } from '@mosaic/spec';
import type { Chunk } from '@mosaic/spec';
import type { OfflineExtractorOptions } from '../extraction/offline-extractor.js';
import { ExtractionLog, type ExtractionLogBlock } from './extraction-log.js';
import { stopWorkers, workerModule, type WorkerModuleName } from './worker-module.js';

export interface ExtractInWorkersOptions {
  chunks: readonly Chunk[];
  /** Options of the offline extractor each worker makes. */
  extractorOptions: OfflineExtractorOptions;
  /** Worker threads (≥ 1). */
  workers: number;
  /** Chunks per message to a worker (each message is read with a fresh extractor). Default 256. */
  batch?: number;
  abortSignal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /**
   * Milliseconds a worker may go without a sign of life (it sends one per chunk done) before its block
   * is given to a fresh worker (once; a second time fails the extraction). Default EXTRACT_STALL_MS.
   */
  stallMs?: number;
  /** Starts a worker with the extraction module (default `startWorker`); tests pass one that can stall. */
  startWorker?: (workerData: unknown) => Worker;
}

/**
 * How long a worker may stay silent by default before its block goes to a fresh worker: two minutes.
 * A worker says it is alive after every chunk, which takes milliseconds; its first sign of life comes
 * after its model's load, about 0.4 s of CPU (docs/results/issue-31.md, session 3): some 12 s of wall
 * time for a worker given a thirtieth of a core, as a build was at load 36.
 */
export const EXTRACT_STALL_MS = 120_000;

/** The longest delay a timer takes (about 24.8 days); node runs a longer one after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** What one worker is reading: the block at `start`, its attempt (1 or 2), the timer that gives up on it. */
interface InFlight {
  start: number;
  attempt: number;
  timer: NodeJS.Timeout;
}

/**
 * A worker running one of this package's worker modules (`extract-worker`, `bm25-worker`, `load-worker`):
 * a built file (see `workerModule`), or the TypeScript one, loaded through tsx's loader.
 */
export function startWorker(workerData: unknown, module: WorkerModuleName = 'extract-worker', options: WorkerOptions = {}): Worker {
  const { url, loader } = workerModule(module, import.meta.url);
  if (loader === 'none') return new Worker(url, { ...options, workerData });
  // tsx's ESM entry (require.resolve gives its CommonJS twin, which cannot register in a worker).
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const code = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(code, { ...options, eval: true, workerData });
}

/**
 * Extract chunks with the offline extractor in `workers` worker threads. Chunks go out in batches
 * to whichever worker is free; each worker sends back its batch compressed (one block of the
 * extraction log), stored at the batch's position, so the log is the same, byte for byte, whatever
 * the number of workers. A worker silent for `stallMs` (no chunk done) is replaced by a fresh one,
 * which reads its block again (a worker that never started, or stalled, would otherwise hold the
 * build forever); a block whose second worker stalls too fails the extraction. An abort terminates
 * the workers.
 */
export async function extractInWorkers(options: ExtractInWorkersOptions): Promise<ExtractionLog> {
  const { chunks, abortSignal } = options;
  if (!Number.isInteger(options.workers) || options.workers < 1) {
    throw new InvalidArgumentError({ argument: 'extractWorkers', message: `must be a positive integer, got ${options.workers}` });
  }
  const batch = options.batch ?? 256;
  const timeout = options.stallMs ?? EXTRACT_STALL_MS;
  if (!(timeout > 0) || !Number.isFinite(timeout)) {
    throw new InvalidArgumentError({ argument: 'extractStallMs', message: `must be a positive number of milliseconds, got ${timeout}` });
  }
  const start = options.startWorker ?? ((workerData: unknown) => startWorker(workerData));
  const blocks: ExtractionLogBlock[] = new Array(Math.ceil(chunks.length / batch));
  const count = Math.max(1, Math.min(options.workers, Math.ceil(chunks.length / batch)));
  const workers = Array.from({ length: count }, () => start({ options: options.extractorOptions }));
  let next = 0;
  let done = 0;
  /** What the caller's onProgress threw: passed on as it is. */
  let callbackError: { error: unknown } | undefined;
  const progress = (done: number) => {
    try {
      options.onProgress?.(done, chunks.length);
    } catch (error) {
      callbackError = { error };
      throw error;
    }
  };
  try {
    progress(0);
    await new Promise<void>((resolve, reject) => {
      let finished = false;
      /** The block each worker is reading (its size: the blocks running). */
      const inFlight = new Map<Worker, InFlight>();
      const settle = () => {
        finished = true;
        abortSignal?.removeEventListener('abort', onAbort);
        for (const job of inFlight.values()) clearTimeout(job.timer);
        inFlight.clear();
      };
      const fail = (error: unknown) => {
        if (finished) return;
        settle();
        reject(error);
      };
      const onAbort = () => fail(new AbortedError({ stage: 'extract' }));
      abortSignal?.addEventListener('abort', onAbort, { once: true });
      // Decided after the messages already waiting are read (setImmediate): a sign of life or an
      // answer that arrived while this thread was busy is taken, not given up on (a sign of life sets
      // a new timer, and a timer no longer the worker's decides nothing).
      const watch = (worker: Worker): NodeJS.Timeout => {
        const timer: NodeJS.Timeout = setTimeout(() => setImmediate(() => late(worker, timer)), Math.min(timeout, MAX_TIMER_MS));
        return timer;
      };
      const post = (worker: Worker, from: number, attempt: number) => {
        inFlight.set(worker, { start: from, attempt, timer: watch(worker) });
        worker.postMessage({ id: from, chunks: chunks.slice(from, Math.min(chunks.length, from + batch)) });
      };
      const send = (worker: Worker) => {
        if (finished) return;
        if (next >= chunks.length) {
          if (inFlight.size === 0) {
            settle();
            resolve();
          }
          return;
        }
        const from = next;
        next = Math.min(chunks.length, next + batch);
        post(worker, from, 1);
      };
      // A worker done with (its block answered or given up on) is not listened to any more (an error
      // it reports later is dropped), and cannot keep the process alive if terminating it never completes.
      const retire = (worker: Worker) => {
        worker.removeAllListeners();
        worker.on('error', () => undefined);
        void worker.terminate().catch(() => undefined);
        worker.unref();
      };
      /** `worker` retired, and a fresh one listened to in its place. */
      const replace = (worker: Worker): Worker => {
        const slot = workers.indexOf(worker);
        retire(worker);
        workers[slot] = listen(start({ options: options.extractorOptions }));
        return workers[slot]!;
      };
      /** A worker silent for `timeout` (`timer` still its timer): its block goes to a fresh worker, once. */
      function late(worker: Worker, timer: NodeJS.Timeout) {
        try {
          const job = inFlight.get(worker);
          if (finished || !job || job.timer !== timer) return;
          inFlight.delete(worker);
          const range = `chunks ${job.start}–${Math.min(chunks.length, job.start + batch) - 1}`;
          if (job.attempt >= 2) {
            fail(
              new InvalidArgumentError({
                argument: 'extractWorkers',
                message: `${range}: two extraction workers in turn went ${timeout} ms without extracting a chunk (a worker that did not start, or stalled); on a machine too busy for that, allow more with extractStallMs (mosaic index: --extract-stall SECONDS)`,
              }),
            );
            return;
          }
          post(replace(worker), job.start, job.attempt + 1);
        } catch (error) {
          fail(error);
        }
      }
      function listen(worker: Worker): Worker {
        worker.on('message', (message: { id: number; done?: number; count?: number; gzip?: Uint8Array; error?: { name: string; message: string } }) => {
          // Whatever throws here (the caller's onProgress, a worker that cannot be started) rejects
          // the extraction: thrown from a worker's event it would be uncaught, and the extraction
          // would wait forever.
          try {
            const job = inFlight.get(worker);
            // An answer to a block given up on (the worker was replaced) is not waited for any more.
            if (finished || !job || (message.id !== job.start && message.id !== -1)) return;
            clearTimeout(job.timer);
            if (message.done !== undefined && !message.error && !message.gzip) {
              job.timer = watch(worker); // a chunk done: silent from now on
              return;
            }
            inFlight.delete(worker);
            const expected = Math.min(batch, chunks.length - message.id);
            if (message.error || !message.gzip || message.count !== expected) {
              fail(new InvalidArgumentError({ argument: 'chunks', message: `extraction failed in a worker: ${message.error?.message ?? 'no result'}` }));
              return;
            }
            blocks[message.id / batch] = { count: message.count, gzip: message.gzip };
            done += message.count;
            progress(done);
            // A fresh worker (a fresh wink-nlp model) per block: wink's model state grows with every
            // extractor made in one thread (RangeError: Invalid string length after a few dozen).
            if (next < chunks.length && !finished) send(replace(worker));
            else {
              retire(worker);
              send(worker);
            }
          } catch (error) {
            fail(error);
          }
        });
        worker.on('messageerror', (error) =>
          fail(new InvalidArgumentError({ argument: 'chunks', message: `an extraction worker's answer could not be read: ${error.message}`, cause: error })),
        );
        worker.on('error', fail);
        worker.on('exit', (code) => {
          if (!finished) fail(new InvalidArgumentError({ argument: 'extractWorkers', message: `an extraction worker exited with code ${code}` }));
        });
        return worker;
      }
      for (const worker of workers) listen(worker);
      if (abortSignal?.aborted) return onAbort();
      for (const worker of workers) send(worker);
      if (chunks.length === 0) send(workers[0]!);
    });
  } catch (error) {
    if (MosaicError.isInstance(error) || (callbackError && error === callbackError.error)) throw error;
    throw new InvalidArgumentError({ argument: 'extractWorkers', message: `extraction worker failed: ${(error as Error).message}`, cause: error });
  } finally {
    await stopWorkers(workers);
  }
  throwIfAborted(abortSignal, 'extract');
  const log = new ExtractionLog();
  for (const block of blocks) log.appendBlock(block);
  return log;
}
