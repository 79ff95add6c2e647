import { closeSync, openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { IndexMismatchError, InputError, InvalidArgumentError } from '@mosaic/spec';
import type { VectorHit, VectorIndex } from '@mosaic/spec';
import { loadFaissNode } from './load-faiss-node.js';
import type { FaissNativeIndex, FaissNodeModule } from './load-faiss-node.js';
import { matrixWithHeaderRoom, readFaissStoredVectors, type FaissStoredVectors } from './faiss-stored-vectors.js';
import { checkDimension, checkK, checkVector, checkVectors, compareHits } from './vector-checks.js';
import { writeAtomically } from './write-file-atomic.js';

export interface FaissVectorIndexOptions {
  /** Length of every vector. */
  dimension: number;
  /**
   * faiss `index_factory` descriptor, e.g. 'Flat' (exact), 'HNSW32', 'IVF64,Flat'.
   * The metric is always inner product. Default 'Flat'.
   */
  factory?: string;
  /**
   * faiss ParameterSpace settings applied after creation or load, e.g. `{ nprobe: 8 }` for IVF or
   * `{ efSearch: 64 }` for HNSW. Stored in the saved index by faiss. Default: none (faiss defaults,
   * e.g. nprobe 1, efSearch 16).
   */
  searchParameters?: Readonly<Record<string, number>>;
  /**
   * OpenMP threads faiss uses to `add` (training keeps faiss's default). Default 1: the same vectors
   * give the same index, byte for byte. With more, an HNSW add is faster (about 1.9× with 2 threads
   * on a 2-core machine) but threads insert vertices in racing order, so two builds of the same
   * vectors differ (and so may their search results). 0: faiss's own default (every core). Needs an
   * addon built by @mosaic/offline-setup (`setThreads`); another adds with faiss's default.
   */
  addThreads?: number;
  /**
   * OpenMP threads faiss uses to `search`. Default 1: a search asks one query, and faiss spreads
   * the queries of a call over its threads, so one thread does the work whatever the count. More
   * threads only add a parallel region whose end waits for every thread to arrive; when another
   * thread holds a core (V8's collector or compiler on a 2-core machine) that wait is milliseconds.
   * At 100 MB of documentation a question's faiss searches took 18.6 ms with every core against
   * 10.2 ms with one (docs/results/issue-31.md, session 18). 0: faiss's own default (every core).
   * Needs an addon built by @mosaic/offline-setup (`setThreads`); another searches with faiss's default.
   */
  searchThreads?: number;
}

export interface LoadFaissVectorIndexOptions {
  /** File written by `FaissVectorIndex.save`. */
  path: string;
  /** The file's bytes when the caller has read them already (e.g. to take the stored vectors too). */
  buffer?: Buffer;
  /** Expected dimension; IndexMismatchError when the stored index differs. */
  dimension?: number;
  /** As in FaissVectorIndexOptions; applied after loading. */
  searchParameters?: Readonly<Record<string, number>>;
  /** As in FaissVectorIndexOptions, for what is added to the loaded index. Default 1. */
  addThreads?: number;
  /** As in FaissVectorIndexOptions. Default 1. */
  searchThreads?: number;
  /**
   * A flat scalar-quantised file (`SQfp16`, `SQ8`) is searched through an exact float32 `Flat`
   * index of its decoded vectors: the same vectors and labels, about 4× less CPU per query (faiss
   * 1.7.3 as built by Debian scans float16 codes without SIMD: 47 against 12.6 ms per query over
   * 250,000 100-dimensional vectors), at 4 bytes a dimension in memory instead of 2. The file is
   * not changed, but `save` then writes a `Flat` file, so leave this off to append to the file.
   * Other layouts (Flat, HNSW) load as stored. Default false.
   */
  decodeToFlat?: boolean;
  /**
   * The vectors `readFaissStoredVectors(buffer)` gave, when the caller has read them already:
   * `decodeToFlat` then builds its Flat index from them instead of decoding the file again.
   * They must be the vectors of `buffer` (same dimension and count, checked).
   */
  stored?: FaissStoredVectors;
}

const DEFAULT_FACTORY = 'Flat';
/** Vectors per faiss-node `add` call (the addon copies a JS array of numbers). */
const ADD_SLICE = 8192;
/** Training sample bound for factories that train (IVF): evenly spread over the first batch. */
const MAX_TRAINING_VECTORS = 65_536;
const METRIC_INNER_PRODUCT = 0;
/** Where faiss's index header keeps the metric type: after fourcc, d, ntotal, two unused fields and is_trained. */
const FAISS_HEADER_METRIC_OFFSET = 33;

/** A VectorIndex on a faiss index (inner product) through faiss-node. */
export class FaissVectorIndex implements VectorIndex {
  readonly specificationVersion = 'v1' as const;
  readonly dimension: number;
  /** The factory descriptor, or undefined for an index loaded from a file. */
  readonly factory: string | undefined;
  readonly #native: FaissNativeIndex;
  readonly #addThreads: number;
  readonly #searchThreads: number;
  /** Searches running on the thread pool (`searchAsync`), which an add or a train waits for. */
  readonly #searching = new Set<Promise<unknown>>();

  private constructor(options: WrapOptions) {
    this.#native = options.native;
    this.dimension = options.dimension;
    this.factory = options.factory;
    this.#addThreads = options.addThreads ?? 1;
    this.#searchThreads = options.searchThreads ?? 1;
  }

  /** @internal Use createFaissVectorIndex / loadFaissVectorIndex. */
  static wrap(options: WrapOptions): FaissVectorIndex {
    return new FaissVectorIndex(options);
  }

  get size(): number {
    return this.#native.ntotal();
  }

  /** Whether the index is trained (false only for IVF/PQ-style factories before the first add). */
  get isTrained(): boolean {
    return this.#native.isTrained();
  }

  async add(vectors: readonly Float32Array[]): Promise<void> {
    checkVectors(vectors, this.dimension);
    if (vectors.length === 0) return;
    await this.#searchesSettled();
    this.#trainOn(vectors);
    withThreads(this.#native, this.#addThreads, () => {
      // faiss-node copies a JS number array: add in slices so a million vectors never become one array.
      for (let start = 0; start < vectors.length; start += ADD_SLICE) {
        const flat = flatten(vectors.slice(start, start + ADD_SLICE), this.dimension);
        try {
          this.#native.add(flat);
        } catch (error) {
          throw new InvalidArgumentError({ argument: 'vectors', message: `faiss rejected the vectors: ${messageOf(error)}`, cause: error });
        }
      }
    });
  }

  /**
   * The `k` best hits for `query`. With an addon built by @mosaic/offline-setup (`searchAsync`) faiss
   * searches on libuv's thread pool, so the JS thread goes on meanwhile (a caller that starts several
   * searches and other work before awaiting them has them run side by side on the machine's cores);
   * else on the JS thread. The same hits either way.
   */
  async search(query: Float32Array, k: number): Promise<VectorHit[]> {
    checkVector(query, this.dimension, { argument: 'query', what: 'Query vector' });
    checkK(k);
    const size = this.size;
    const count = Math.min(k, size);
    if (count === 0) return [];
    const result = this.#native.searchAsync
      ? await this.#searchOffThread(this.#native.searchAsync(query, count, this.#searchThreads))
      : withThreads(this.#native, this.#searchThreads, () => this.#native.search(Array.from(query), count));
    const hits: VectorHit[] = [];
    for (let i = 0; i < result.labels.length; i++) {
      const label = result.labels[i];
      if (label >= 0) hits.push({ label, score: result.distances[i] });
    }
    return sortHits(hits);
  }

  /** `search`'s result, the search held in `#searching` until it settles. */
  async #searchOffThread<T>(search: Promise<T>): Promise<T> {
    this.#searching.add(search);
    try {
      return await search;
    } finally {
      this.#searching.delete(search);
    }
  }

  /** Until the searches running on the thread pool settle: the index must not change under them. */
  async #searchesSettled(): Promise<void> {
    while (this.#searching.size > 0) await Promise.allSettled([...this.#searching]);
  }

  async save(path: string): Promise<void> {
    if (typeof path !== 'string' || path.length === 0) {
      throw new InvalidArgumentError({ argument: 'path', message: 'must be a non-empty string' });
    }
    // faiss writes the file itself (via a temporary sibling and a rename): `toBuffer` would hold the
    // serialisation twice more in memory (faiss's growing vector, then a JavaScript copy), about
    // 1.2 GB more for the 603 MB relations index of 100 MB of text.
    try {
      await writeAtomically(path, (temporary) => this.#native.write(temporary));
    } catch (error) {
      throw new InputError({ source: path, message: `cannot write faiss index: ${messageOf(error)}`, cause: error });
    }
  }

  /**
   * Train an untrained index as `add(vectors)` would (on the same bounded, evenly spread sample),
   * without adding them: then adding `vectors` in several calls builds what one call would. Does
   * nothing to a trained index.
   */
  async train(vectors: readonly Float32Array[]): Promise<void> {
    checkVectors(vectors, this.dimension);
    await this.#searchesSettled();
    if (vectors.length > 0) this.#trainOn(vectors);
  }

  #trainOn(vectors: readonly Float32Array[]): void {
    if (this.#native.isTrained()) return;
    // Trained on (a bounded sample of) the first batch; faiss-node takes plain arrays.
    const sample = vectors.length > MAX_TRAINING_VECTORS ? evenSample(vectors, MAX_TRAINING_VECTORS) : vectors;
    this.#train(flatten(sample, this.dimension), sample.length);
  }

  #train(flat: number[], count: number): void {
    const needed = minimumTrainingVectors(this.factory);
    if (count < needed) {
      throw new InvalidArgumentError({
        argument: 'vectors',
        message: `factory '${this.factory}' is trained on the first add and needs at least ${needed} vectors, got ${count}`,
      });
    }
    try {
      this.#native.train(flat);
    } catch (error) {
      throw new InvalidArgumentError({
        argument: 'vectors',
        message: `training factory '${this.factory ?? '(loaded)'}' on ${count} vectors failed: ${messageOf(error)}`,
        cause: error,
      });
    }
  }
}

/** Create an empty faiss index (exact inner product by default). */
export function createFaissVectorIndex(options: FaissVectorIndexOptions): FaissVectorIndex {
  checkDimension(options.dimension);
  const addThreads = checkThreads(options.addThreads, 'addThreads');
  const searchThreads = checkThreads(options.searchThreads, 'searchThreads');
  const factory = options.factory ?? DEFAULT_FACTORY;
  if (typeof factory !== 'string' || factory.trim().length === 0) {
    throw new InvalidArgumentError({ argument: 'factory', message: 'must be a non-empty faiss factory string' });
  }
  const faiss = loadFaissNode();
  let native: FaissNativeIndex;
  try {
    native = faiss.Index.fromFactory(options.dimension, factory, faiss.MetricType.METRIC_INNER_PRODUCT);
  } catch (error) {
    throw new InvalidArgumentError({ argument: 'factory', message: `faiss cannot build '${factory}': ${messageOf(error)}`, cause: error });
  }
  applySearchParameters(native, options.searchParameters);
  return FaissVectorIndex.wrap({ native, dimension: options.dimension, factory, addThreads, searchThreads });
}

/** Load an index written by `FaissVectorIndex.save`. */
export async function loadFaissVectorIndex(options: LoadFaissVectorIndexOptions): Promise<FaissVectorIndex> {
  if (options.dimension !== undefined) checkDimension(options.dimension);
  const addThreads = checkThreads(options.addThreads, 'addThreads');
  const searchThreads = checkThreads(options.searchThreads, 'searchThreads');
  const faiss = loadFaissNode();
  let native: FaissNativeIndex;
  // A flat scalar-quantised file decoded to Flat is told by its header, read once.
  const head = !options.buffer && options.decodeToFlat ? headOf(options.path, FLAT_SQ_HEADER_BYTES) : undefined;
  if (options.buffer) {
    native = fromBytes(faiss, options.buffer, options);
  } else if (head && isFlatScalarQuantized(head)) {
    // With the stored vectors given, the header is all that is read (the dimension, count and metric).
    native = fromBytes(faiss, options.stored ? head : await readIndexFile(options.path), options);
  } else {
    // faiss reads the file itself: no copy of it passes through JS (faiss-node's fromBuffer copies
    // the bytes twice more, and keeps one of those copies for good). On libuv's thread pool when the
    // addon offers it (a 1.75-million-vector HNSW file takes seconds): the JS thread is free meanwhile.
    try {
      native = typeof faiss.Index.readAsync === 'function' ? await faiss.Index.readAsync(options.path) : faiss.Index.read(options.path);
    } catch (error) {
      throw new InputError({ source: options.path, message: `not a faiss index: ${messageOf(error)}`, cause: error });
    }
  }
  const dimension = native.getDimension();
  if (options.dimension !== undefined && dimension !== options.dimension) {
    throw new IndexMismatchError({ path: options.path, field: 'dimension', expected: options.dimension, actual: dimension });
  }
  const metric = native.metricType?.();
  if (metric !== undefined && metric !== METRIC_INNER_PRODUCT) {
    throw new IndexMismatchError({ path: options.path, field: 'metric', expected: METRIC_INNER_PRODUCT, actual: metric });
  }
  applySearchParameters(native, options.searchParameters);
  return FaissVectorIndex.wrap({ native, dimension, factory: undefined, addThreads, searchThreads });
}

function fromBytes(faiss: FaissNodeModule, buffer: Buffer, options: LoadFaissVectorIndexOptions): FaissNativeIndex {
  if (options.decodeToFlat && isFlatScalarQuantized(buffer)) return decodedFlat(faiss, buffer, options.path, options.stored);
  try {
    return faiss.Index.fromBuffer(buffer);
  } catch (error) {
    throw new InputError({ source: options.path, message: `not a faiss index: ${messageOf(error)}`, cause: error });
  }
}

async function readIndexFile(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    throw new InputError({ source: path, message: `cannot read faiss index: ${messageOf(error)}`, cause: error });
  }
}

/**
 * Whether `loadFaissVectorIndex({ path, decodeToFlat: true })` leaves the file at `path` to faiss: any
 * index but a flat scalar-quantised one, which it decodes into a Flat index (from `stored` when given).
 * Such a file needs no stored vectors, so its load can start before they are read. Told by the file's
 * first bytes; InputError when they cannot be read.
 */
export function faissReadsItself(path: string): boolean {
  return !isFlatScalarQuantized(headOf(path, FLAT_SQ_HEADER_BYTES));
}

/** The index header of a flat scalar-quantised file: fourcc, d, ntotal, two unused fields, is_trained, metric. */
const FLAT_SQ_HEADER_BYTES = 4 + 4 + 8 + 8 + 8 + 1 + 4;

/** The first `length` bytes of a file (fewer when it is shorter); InputError when it cannot be read. */
function headOf(path: string, length: number): Buffer {
  try {
    const fd = openSync(path, 'r');
    try {
      const bytes = Buffer.alloc(length);
      return bytes.subarray(0, readSync(fd, bytes, 0, length, 0));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new InputError({ source: path, message: `cannot read faiss index: ${messageOf(error)}`, cause: error });
  }
}

function isFlatScalarQuantized(buffer: Uint8Array): boolean {
  return buffer.byteLength >= 4 && String.fromCharCode(buffer[0], buffer[1], buffer[2], buffer[3]) === 'IxSQ';
}

/**
 * An exact inner-product Flat index holding the decoded vectors of a flat scalar-quantised file,
 * read from the file's bytes alone (faiss never parses the float16 index that would be thrown away).
 */
function decodedFlat(faiss: FaissNodeModule, buffer: Buffer, path: string, stored?: FaissStoredVectors): FaissNativeIndex {
  if (buffer.length < FLAT_SQ_HEADER_BYTES) throw new InputError({ source: path, message: 'not a faiss index: truncated header' });
  if (stored && (stored.dimension !== buffer.readInt32LE(4) || stored.count !== Number(buffer.readBigInt64LE(8)))) {
    throw new InvalidArgumentError({ argument: 'stored', message: `holds ${stored.count} × ${stored.dimension} vectors, the file at ${path} others` });
  }
  const { dimension, count, matrix } = stored ?? readFaissStoredVectors(buffer, path);
  const metric = buffer.readInt32LE(FAISS_HEADER_METRIC_OFFSET);
  if (metric !== METRIC_INNER_PRODUCT) throw new IndexMismatchError({ path, field: 'metric', expected: METRIC_INNER_PRODUCT, actual: metric });
  // Read as a serialized Flat index (one copy of the floats) rather than added through faiss-node's
  // `add`, which takes a JS array of numbers: 25 M numbers boxed and collected on a 12 MB corpus.
  return faiss.Index.fromBuffer(flatIndexBytes(dimension, count, matrix));
}

/**
 * The bytes faiss 1.7 `write_index` gives an exact inner-product Flat index (`IxFI`) holding
 * `matrix` (`count` rows of `dimension` floats): the index header (fourcc, d, ntotal, two unused
 * 64-bit fields of 2^20, is_trained, metric type 0), then the floats as a size-prefixed vector.
 */
export function flatIndexBytes(dimension: number, count: number, matrix: Float32Array): Buffer {
  if (matrix.length !== dimension * count)
    throw new InvalidArgumentError({ argument: 'matrix', message: `holds ${matrix.length} floats, expected ${count} × ${dimension}` });
  const header = 4 + 4 + 8 + 8 + 8 + 1 + 4 + 8;
  // A matrix read by readFaissStoredVectors has room for the header before it: no copy.
  const room = matrixWithHeaderRoom(matrix, header);
  const bytes = room ?? Buffer.alloc(header + matrix.byteLength);
  bytes.write('IxFI', 0, 'latin1');
  bytes.writeInt32LE(dimension, 4);
  bytes.writeBigInt64LE(BigInt(count), 8);
  bytes.writeBigInt64LE(1n << 20n, 16);
  bytes.writeBigInt64LE(1n << 20n, 24);
  bytes.writeUInt8(1, 32);
  bytes.writeInt32LE(METRIC_INNER_PRODUCT, FAISS_HEADER_METRIC_OFFSET);
  bytes.writeBigUInt64LE(BigInt(matrix.length), 37);
  if (!room) Buffer.from(matrix.buffer, matrix.byteOffset, matrix.byteLength).copy(bytes, header);
  return bytes;
}

function applySearchParameters(native: FaissNativeIndex, parameters: Readonly<Record<string, number>> | undefined): void {
  if (!parameters) return;
  for (const [name, value] of Object.entries(parameters)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new InvalidArgumentError({ argument: `searchParameters.${name}`, message: 'must be a finite number' });
    }
    if (!native.setParameter) {
      throw new InvalidArgumentError({
        argument: 'searchParameters',
        message: 'this faiss-node addon has no setParameter; build it with `npx mosaic-offline-setup`',
      });
    }
    try {
      native.setParameter(name, value);
    } catch (error) {
      throw new InvalidArgumentError({ argument: `searchParameters.${name}`, message: messageOf(error), cause: error });
    }
  }
}

interface WrapOptions {
  native: FaissNativeIndex;
  dimension: number;
  factory: string | undefined;
  addThreads?: number;
  searchThreads?: number;
}

/** A thread count option (`addThreads`, `searchThreads`) checked: an integer ≥ 0, default 1. */
function checkThreads(threads: number | undefined, argument: 'addThreads' | 'searchThreads'): number {
  if (threads === undefined) return 1;
  if (!Number.isInteger(threads) || threads < 0) {
    throw new InvalidArgumentError({ argument, message: `must be an integer ≥ 0, got ${threads}` });
  }
  return threads;
}

/** `work`'s result, with faiss's OpenMP threads of the calling thread set to `threads` (0: left as they are), restored after. */
function withThreads<T>(native: FaissNativeIndex, threads: number, work: () => T): T {
  const previous = threads > 0 ? native.setThreads?.(threads) : undefined;
  try {
    return work();
  } finally {
    if (previous !== undefined && previous !== threads) native.setThreads?.(previous);
  }
}

/** Vectors faiss needs to train a factory, where it can be read off the descriptor (IVF<nlist>). */
function minimumTrainingVectors(factory: string | undefined): number {
  const nlist = factory?.match(/IVF(\d+)/)?.[1];
  return nlist ? Number(nlist) : 1;
}

/**
 * `hits.sort(compareHits)`, cheaply for what faiss returns: hits already best first, where only
 * runs of equal scores may need ordering by label. Anything else gets the full sort.
 */
function sortHits(hits: VectorHit[]): VectorHit[] {
  let runStart = 0;
  for (let i = 1; i <= hits.length; i++) {
    if (i < hits.length) {
      const previous = hits[i - 1].score;
      const score = hits[i].score;
      if (!(score <= previous)) return hits.sort(compareHits); // out of order or NaN
      if (score === previous) continue;
    }
    if (i - runStart > 1) {
      const run = hits.slice(runStart, i).sort(compareHits);
      for (let j = 0; j < run.length; j++) hits[runStart + j] = run[j];
    }
    runStart = i;
  }
  return hits;
}

function evenSample(vectors: readonly Float32Array[], count: number): Float32Array[] {
  const step = vectors.length / count;
  return Array.from({ length: count }, (_, i) => vectors[Math.floor(i * step)]);
}

function flatten(vectors: readonly Float32Array[], dimension: number): number[] {
  const flat = new Array<number>(vectors.length * dimension);
  vectors.forEach((vector, row) => {
    const offset = row * dimension;
    for (let i = 0; i < dimension; i++) flat[offset + i] = vector[i];
  });
  return flat;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
