import { InputError } from '@mosaic/spec';

/** The raw vectors held by a serialized faiss index, as one row-major matrix. */
export interface FaissStoredVectors {
  dimension: number;
  count: number;
  /** `count * dimension` floats, row after row (a copy, aligned; independent of the buffer). */
  matrix: Float32Array;
}

/**
 * The vectors stored in a faiss index file written by `FaissVectorIndex.save` (faiss
 * `write_index`), read without faiss: a flat index (`IxFI` inner product, `IxF2` L2) holds them
 * after its header; an HNSW index over a flat storage (`IHNf`) holds them in that storage after
 * the graph. So an index directory needs no second copy of its vectors. Other layouts (IVF, PQ,
 * SQ: the vectors are not stored exactly) → InputError naming `source`.
 */
export function readFaissStoredVectors(buffer: Uint8Array, source = 'faiss index'): FaissStoredVectors {
  const reader = new FaissReader(buffer, source);
  return reader.index();
}

class FaissReader {
  #offset = 0;
  readonly #view: DataView;
  constructor(
    readonly bytes: Uint8Array,
    readonly source: string,
  ) {
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  index(): FaissStoredVectors {
    const fourcc = this.#fourcc();
    const header = this.#header();
    if (fourcc === 'IxFI' || fourcc === 'IxF2') {
      const floats = this.#u64();
      if (floats !== header.count * header.dimension) this.#fail(`flat index holds ${floats} floats, expected ${header.count} × ${header.dimension}`);
      return { ...header, matrix: this.#floats(floats) };
    }
    if (fourcc === 'IHNf') {
      this.#skipVector(8); // assign_probas (double)
      this.#skipVector(4); // cum_nneighbor_per_level (int)
      this.#skipVector(4); // levels (int)
      this.#skipVector(8); // offsets (size_t)
      this.#skipVector(4); // neighbors (storage_idx_t)
      this.#skip(5 * 4); // entry_point, max_level, efConstruction, efSearch, upper_beam
      const storage = this.index();
      if (storage.count !== header.count || storage.dimension !== header.dimension) this.#fail('HNSW storage disagrees with the HNSW header');
      return storage;
    }
    return this.#fail(`index type '${fourcc}' does not store its vectors exactly (only Flat and HNSW<M> indexes do)`);
  }

  #header(): { dimension: number; count: number } {
    const dimension = this.#i32();
    const count = this.#u64();
    this.#skip(8 + 8 + 1); // two dummies, is_trained
    const metric = this.#i32();
    if (metric > 1) this.#skip(4); // metric_arg
    return { dimension, count };
  }

  #fourcc(): string {
    this.#need(4);
    const text = String.fromCharCode(...this.bytes.subarray(this.#offset, this.#offset + 4));
    this.#offset += 4;
    return text;
  }

  #i32(): number {
    this.#need(4);
    const value = this.#view.getInt32(this.#offset, true);
    this.#offset += 4;
    return value;
  }

  #u64(): number {
    this.#need(8);
    const value = this.#view.getBigUint64(this.#offset, true);
    this.#offset += 8;
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) this.#fail(`size ${value} is out of range`);
    return Number(value);
  }

  #skipVector(elementBytes: number): void {
    this.#skip(this.#u64() * elementBytes);
  }

  #skip(bytes: number): void {
    this.#need(bytes);
    this.#offset += bytes;
  }

  #floats(count: number): Float32Array {
    this.#need(count * 4);
    const matrix = new Float32Array(count);
    new Uint8Array(matrix.buffer).set(this.bytes.subarray(this.#offset, this.#offset + count * 4));
    this.#offset += count * 4;
    return matrix;
  }

  #need(bytes: number): void {
    if (this.#offset + bytes > this.bytes.byteLength) this.#fail(`truncated at byte ${this.#offset} (needs ${bytes} more)`);
  }

  #fail(message: string): never {
    throw new InputError({ source: this.source, message: `cannot read the vectors of the faiss index: ${message}` });
  }
}
