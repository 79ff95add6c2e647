import { getHeapStatistics } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import { InvalidArgumentError } from '@mosaic/spec';
import { Bm25Index } from '@mosaic/vector-index';
import { startWorker } from './extract-in-workers.js';
import { stopWorkers } from './worker-module.js';

/** Builds BM25 indexes in worker threads (in order within a thread) while the calling thread goes on. */
export interface Bm25WorkerBuilder {
  /**
   * The index `createBm25Index({ documents })` gives (default tokenizer, k1 1.2, b 0.75), built in
   * the worker: the same postings, weight for weight (it comes back as its lossless binary layout).
   * The documents are copied to the worker when this is called.
   */
  build(documents: readonly string[]): Promise<Bm25Index>;
  /** Stop the worker (pending builds are rejected). */
  close(): Promise<void>;
}

export interface Bm25WorkerBuilderOptions {
  /** Worker threads (≥ 1, default 1); each build goes to the one with the fewest builds pending. */
  workers?: number;
}

/** Start BM25 worker threads; their heaps may grow as large as this thread's. */
export function createBm25WorkerBuilder(options: Bm25WorkerBuilderOptions = {}): Bm25WorkerBuilder {
  const count = options.workers ?? 1;
  if (!Number.isInteger(count) || count < 1) throw new InvalidArgumentError({ argument: 'workers', message: `must be a positive integer, got ${count}` });
  const heapMb = Math.ceil(getHeapStatistics().heap_size_limit / 2 ** 20);
  const pending = new Map<number, { slot: number; resolve: (index: Bm25Index) => void; reject: (error: unknown) => void }>();
  const load = new Array<number>(count).fill(0);
  let next = 0;
  let closed = false;
  const failAll = (error: unknown) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
    load.fill(0);
  };
  const workers: Worker[] = Array.from({ length: count }, () => {
    const worker = startWorker({}, 'bm25-worker', { resourceLimits: { maxOldGenerationSizeMb: heapMb } });
    worker.on('message', (message: { id: number; bytes?: Uint8Array; error?: { name: string; message: string } }) => {
      const request = pending.get(message.id);
      if (!request) return;
      pending.delete(message.id);
      load[request.slot] -= 1;
      if (message.error || !message.bytes) {
        request.reject(new InvalidArgumentError({ argument: 'documents', message: `BM25 build failed in a worker: ${message.error?.message ?? 'no result'}` }));
        return;
      }
      try {
        request.resolve(Bm25Index.fromBinary(message.bytes, { source: 'BM25 worker' }));
      } catch (error) {
        request.reject(error);
      }
    });
    worker.on('error', (error) => failAll(new InvalidArgumentError({ argument: 'documents', message: `BM25 worker failed: ${error.message}`, cause: error })));
    worker.on('exit', (code) => {
      if (!closed) failAll(new InvalidArgumentError({ argument: 'documents', message: `a BM25 worker exited with code ${code}` }));
    });
    return worker;
  });
  return {
    build(documents) {
      if (closed) return Promise.reject(new InvalidArgumentError({ argument: 'documents', message: 'the BM25 worker is closed' }));
      const id = next++;
      const slot = load.indexOf(Math.min(...load));
      load[slot] += 1;
      return new Promise<Bm25Index>((resolve, reject) => {
        pending.set(id, { slot, resolve, reject });
        workers[slot].postMessage({ id, documents });
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      failAll(new InvalidArgumentError({ argument: 'documents', message: 'the BM25 worker was closed before the build finished' }));
      await stopWorkers(workers);
    },
  };
}
