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
 * the number of workers. An abort terminates the workers.
 */
export async function extractInWorkers(options: ExtractInWorkersOptions): Promise<ExtractionLog> {
  const { chunks, abortSignal } = options;
  if (!Number.isInteger(options.workers) || options.workers < 1) {
    throw new InvalidArgumentError({ argument: 'extractWorkers', message: `must be a positive integer, got ${options.workers}` });
  }
  const batch = options.batch ?? 256;
  const blocks: ExtractionLogBlock[] = new Array(Math.ceil(chunks.length / batch));
  const count = Math.max(1, Math.min(options.workers, Math.ceil(chunks.length / batch)));
  const workers = Array.from({ length: count }, () => startWorker({ options: options.extractorOptions }));
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
      let running = 0;
      const fail = (error: unknown) => {
        if (finished) return;
        finished = true;
        abortSignal?.removeEventListener('abort', onAbort);
        reject(error);
      };
      const onAbort = () => fail(new AbortedError({ stage: 'extract' }));
      abortSignal?.addEventListener('abort', onAbort, { once: true });
      const send = (worker: Worker) => {
        if (finished) return;
        if (next >= chunks.length) {
          if (running === 0) {
            finished = true;
            abortSignal?.removeEventListener('abort', onAbort);
            resolve();
          }
          return;
        }
        const start = next;
        next = Math.min(chunks.length, next + batch);
        running += 1;
        worker.postMessage({ id: start, chunks: chunks.slice(start, next) });
      };
      const retire = (worker: Worker) => {
        worker.removeAllListeners('exit');
        void worker.terminate();
      };
      function listen(worker: Worker): Worker {
        worker.on('message', (message: { id: number; count?: number; gzip?: Uint8Array; error?: { name: string; message: string } }) => {
          // Whatever throws here (the caller's onProgress, a worker that cannot be started) rejects
          // the extraction: thrown from a worker's event it would be uncaught, and the extraction
          // would wait forever.
          try {
            running -= 1;
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
            const slot = workers.indexOf(worker);
            retire(worker);
            if (next < chunks.length && !finished) {
              workers[slot] = listen(startWorker({ options: options.extractorOptions }));
              send(workers[slot]!);
            } else send(worker);
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
