import { readFile } from 'node:fs/promises';
import { IndexMismatchError, InputError, InvalidArgumentError } from '@mosaic/spec';
import type { VectorHit, VectorIndex } from '@mosaic/spec';
import { checkDimension, checkK, checkVector, checkVectors, compareHits } from './vector-checks.js';
import { writeFileAtomic } from './write-file-atomic.js';

export interface InMemoryVectorIndexOptions {
  /** Length of every vector. */
  dimension: number;
}

export interface LoadInMemoryVectorIndexOptions {
  /** File written by `InMemoryVectorIndex.save`. */
  path: string;
  /** Expected dimension; IndexMismatchError when the stored index differs. */
  dimension?: number;
}

/** File layout: 8-byte magic, u32 version, u32 dimension, u32 count, u32 reserved, then count×dimension float32, all little-endian. */
const MAGIC = 'MOSAICVI';
const FORMAT_VERSION = 1;
const HEADER_BYTES = 24;

/** Exact brute-force inner-product search in TypeScript over Float32Array storage. */
export class InMemoryVectorIndex implements VectorIndex {
  readonly specificationVersion = 'v1' as const;
  readonly dimension: number;
  #data: Float32Array;
  #size = 0;

  private constructor(dimension: number, data: Float32Array, size: number) {
    this.dimension = dimension;
    this.#data = data;
    this.#size = size;
  }

  /** @internal Use createInMemoryVectorIndex / loadInMemoryVectorIndex. */
  static fromData(options: { dimension: number; data: Float32Array; size: number }): InMemoryVectorIndex {
    return new InMemoryVectorIndex(options.dimension, options.data, options.size);
  }

  get size(): number {
    return this.#size;
  }

  async add(vectors: readonly Float32Array[]): Promise<void> {
    checkVectors(vectors, this.dimension);
    if (vectors.length === 0) return;
    const needed = (this.#size + vectors.length) * this.dimension;
    if (needed > this.#data.length) {
      const grown = new Float32Array(Math.max(needed, this.#data.length * 2));
      grown.set(this.#data.subarray(0, this.#size * this.dimension));
      this.#data = grown;
    }
    vectors.forEach((vector, row) => {
      this.#data.set(vector, (this.#size + row) * this.dimension);
    });
    this.#size += vectors.length;
  }

  async search(query: Float32Array, k: number): Promise<VectorHit[]> {
    checkVector(query, this.dimension, { argument: 'query', what: 'Query vector' });
    checkK(k);
    const count = Math.min(k, this.#size);
    if (count === 0) return [];
    const dimension = this.dimension;
    const data = this.#data;
    const hits: VectorHit[] = new Array(this.#size);
    for (let label = 0; label < this.#size; label++) {
      const offset = label * dimension;
      let score = 0;
      for (let i = 0; i < dimension; i++) score += data[offset + i] * query[i];
      hits[label] = { label, score: Math.fround(score) };
    }
    return hits.sort(compareHits).slice(0, count);
  }

  async save(path: string): Promise<void> {
    if (typeof path !== 'string' || path.length === 0) {
      throw new InvalidArgumentError({ argument: 'path', message: 'must be a non-empty string' });
    }
    const values = this.#size * this.dimension;
    const bytes = new Uint8Array(HEADER_BYTES + values * 4);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < MAGIC.length; i++) bytes[i] = MAGIC.charCodeAt(i);
    view.setUint32(8, FORMAT_VERSION, true);
    view.setUint32(12, this.dimension, true);
    view.setUint32(16, this.#size, true);
    view.setUint32(20, 0, true);
    for (let i = 0; i < values; i++) view.setFloat32(HEADER_BYTES + i * 4, this.#data[i], true);
    await writeFileAtomic(path, bytes);
  }
}

/** Create an empty exact in-memory index. */
export function createInMemoryVectorIndex(options: InMemoryVectorIndexOptions): InMemoryVectorIndex {
  checkDimension(options.dimension);
  return InMemoryVectorIndex.fromData({ dimension: options.dimension, data: new Float32Array(0), size: 0 });
}

/** Load an index written by `InMemoryVectorIndex.save`. */
export async function loadInMemoryVectorIndex(options: LoadInMemoryVectorIndexOptions): Promise<InMemoryVectorIndex> {
  if (options.dimension !== undefined) checkDimension(options.dimension);
  let bytes: Buffer;
  try {
    bytes = await readFile(options.path);
  } catch (error) {
    throw new InputError({ source: options.path, message: `cannot read vector index: ${(error as Error).message}`, cause: error });
  }
  if (bytes.length < HEADER_BYTES || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) {
    throw new InputError({ source: options.path, message: 'not an in-memory vector index file' });
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== FORMAT_VERSION) {
    throw new IndexMismatchError({ path: options.path, field: 'formatVersion', expected: FORMAT_VERSION, actual: version });
  }
  const dimension = view.getUint32(12, true);
  const size = view.getUint32(16, true);
  if (dimension < 1 || bytes.length !== HEADER_BYTES + size * dimension * 4) {
    throw new InputError({
      source: options.path,
      message: `truncated or corrupt: ${size}×${dimension} vectors need ${HEADER_BYTES + size * dimension * 4} bytes, file has ${bytes.length}`,
    });
  }
  if (options.dimension !== undefined && dimension !== options.dimension) {
    throw new IndexMismatchError({ path: options.path, field: 'dimension', expected: options.dimension, actual: dimension });
  }
  const data = new Float32Array(size * dimension);
  for (let i = 0; i < data.length; i++) data[i] = view.getFloat32(HEADER_BYTES + i * 4, true);
  return InMemoryVectorIndex.fromData({ dimension, data, size });
}
