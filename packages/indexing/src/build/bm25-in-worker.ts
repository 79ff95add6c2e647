import { getHeapStatistics } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import { InvalidArgumentError } from '@mosaic/spec';
import { Bm25Index } from '@mosaic/vector-index';
import { startWorker } from './extract-in-workers.js';
import { stopWorkers } from './worker-module.js';

/** Builds BM25 indexes in worker threads while the calling thread goes on. */
export interface Bm25WorkerBuilder {
  /**
   * The index `createBm25Index({ documents })` gives (default tokenizer, k1 1.2, b 0.75), built in
   * a worker: the same postings, weight for weight (it comes back as its lossless binary layout).
   * The documents are copied to the worker when its build starts.
   */
  build(documents: readonly string[]): Promise<Bm25Index>;
  /** Stop the workers (pending builds are rejected). */
  close(): Promise<void>;
}

export interface Bm25WorkerBuilderOptions {
  /** Builds run at once, each in a worker thread of its own (≥ 1, default 1); the others wait their turn, in call order. */
  workers?: number;
}

interface Bm25Build {
  documents: readonly string[] | undefined;
  resolve: (index: Bm25Index) => void;
  reject: (error: unknown) => void;
  worker?: Worker;
}

/**
 * Start BM25 builds in worker threads, whose heaps may grow as large as this thread's. Each build
 * has a worker of its own, which ends once it has posted its index (and is stopped here when the
 * index comes back, if it has not): a worker's heap (its copy of the documents, the tokens, the
 * postings being made: about a gigabyte for the 1.75 million relations of a 100 MB corpus) is given
 * back to the system then, not when its collector gets round to it while the build's next stages
 * make their own peak.
 */
export function createBm25WorkerBuilder(options: Bm25WorkerBuilderOptions = {}): Bm25WorkerBuilder {
  const count = options.workers ?? 1;
  if (!Number.isInteger(count) || count < 1) throw new InvalidArgumentError({ argument: 'workers', message: `must be a positive integer, got ${count}` });
  const heapMb = Math.ceil(getHeapStatistics().heap_size_limit / 2 ** 20);
  const waiting: Bm25Build[] = [];
  const running = new Set<Bm25Build>();
  const stopping = new Set<Promise<void>>();
  let closed = false;

  const stop = (worker: Worker) => {
    const stopped = stopWorkers([worker]).finally(() => stopping.delete(stopped));
    stopping.add(stopped);
  };
  const finish = (build: Bm25Build, outcome: { index: Bm25Index } | { error: unknown }) => {
    if (!running.delete(build)) return;
    if (build.worker) stop(build.worker);
    build.worker = undefined;
    if ('index' in outcome) build.resolve(outcome.index);
    else build.reject(outcome.error);
    startWaiting();
  };
  const run = (build: Bm25Build) => {
    running.add(build);
    const worker = startWorker({}, 'bm25-worker', { resourceLimits: { maxOldGenerationSizeMb: heapMb } });
    build.worker = worker;
    worker.on('message', (message: { bytes?: Uint8Array; error?: { name: string; message: string } }) => {
      if (message.error || !message.bytes) {
        finish(build, {
          error: new InvalidArgumentError({ argument: 'documents', message: `BM25 build failed in a worker: ${message.error?.message ?? 'no result'}` }),
        });
        return;
      }
      try {
        finish(build, { index: Bm25Index.fromBinary(message.bytes, { source: 'BM25 worker' }) });
      } catch (error) {
        finish(build, { error });
      }
    });
    worker.on('error', (error) =>
      finish(build, { error: new InvalidArgumentError({ argument: 'documents', message: `BM25 worker failed: ${error.message}`, cause: error }) }),
    );
    worker.on('exit', (code) =>
      finish(build, { error: new InvalidArgumentError({ argument: 'documents', message: `a BM25 worker exited with code ${code}` }) }),
    );
    worker.postMessage({ documents: build.documents });
    build.documents = undefined; // the worker has its copy
  };
  const startWaiting = () => {
    while (!closed && running.size < count && waiting.length > 0) run(waiting.shift()!);
  };

  return {
    build(documents) {
      if (closed) return Promise.reject(new InvalidArgumentError({ argument: 'documents', message: 'the BM25 worker is closed' }));
      return new Promise<Bm25Index>((resolve, reject) => {
        waiting.push({ documents, resolve, reject });
        startWaiting();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      const error = () => new InvalidArgumentError({ argument: 'documents', message: 'the BM25 worker was closed before the build finished' });
      for (const build of waiting.splice(0)) build.reject(error());
      for (const build of [...running]) finish(build, { error: error() });
      await Promise.all([...stopping]);
    },
  };
}
