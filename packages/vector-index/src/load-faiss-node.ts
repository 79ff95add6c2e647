import { createRequire } from 'node:module';
import { FaissUnavailableError } from './faiss-unavailable-error.js';

/** The part of a faiss-node `Index` this package uses. */
export interface FaissNativeIndex {
  ntotal(): number;
  getDimension(): number;
  isTrained(): boolean;
  add(x: number[]): void;
  train(x: number[]): void;
  search(x: number[], k: number): { distances: number[]; labels: number[] };
  toBuffer(): Buffer;
  /** faiss::write_index to a file path. */
  write(path: string): void;
  /** Added by @mosaic/offline-setup's build: faiss::ParameterSpace::set_index_parameter. */
  setParameter?(name: string, value: number): void;
  /** Added by @mosaic/offline-setup's build: the faiss::MetricType as a number. */
  metricType?(): number;
  /** Added by @mosaic/offline-setup's build: omp_set_num_threads for the calling thread; returns the count before. */
  setThreads?(threads: number): number;
  /**
   * Added by @mosaic/offline-setup's build: one query searched on libuv's thread pool, off the JS
   * thread. No add may run until it settles. `kernel` says what searched: 'hnsw-fp16' for an HNSW
   * index over float16 vectors with the inner product (the addon's own code, faiss's hits and
   * distances to the bit), 'faiss' for any other (with `threads` OpenMP threads, 0: faiss's default).
   */
  searchAsync?(query: Float32Array, k: number, threads: number): Promise<{ distances: Float32Array; labels: Float64Array; kernel?: 'hnsw-fp16' | 'faiss' }>;
}

/** The part of the faiss-node module this package uses. */
export interface FaissNodeModule {
  Index: {
    fromFactory(dimension: number, descriptor: string, metric?: number): FaissNativeIndex;
    fromBuffer(buffer: Buffer): FaissNativeIndex;
    /** faiss::read_index on a file path. */
    read(path: string): FaissNativeIndex;
    /**
     * Added by @mosaic/offline-setup's build: `read` on libuv's thread pool, off the JS thread (which
     * goes on with other work meanwhile); rejects with faiss's message when the file cannot be read.
     */
    readAsync?(path: string): Promise<FaissNativeIndex>;
  };
  MetricType: { METRIC_INNER_PRODUCT: number; METRIC_L2: number };
}

let cached: FaissNodeModule | undefined;

/** Load faiss-node on first use, so the pure-TS indexes work without the native addon. */
export function loadFaissNode(): FaissNodeModule {
  if (cached) return cached;
  try {
    cached = createRequire(import.meta.url)('faiss-node') as FaissNodeModule;
  } catch (error) {
    throw new FaissUnavailableError({ cause: error });
  }
  return cached;
}
