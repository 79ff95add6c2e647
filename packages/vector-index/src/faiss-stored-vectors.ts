import { InputError } from '@mosaic/spec';

/** The raw vectors held by a serialized faiss index, as one row-major matrix. */
export interface FaissStoredVectors {
  dimension: number;
  count: number;
  /** `count * dimension` floats, row after row (a copy, aligned; independent of the buffer). */
  matrix: Float32Array;
}

/**
 * The vectors stored in a faiss index file written by `FaissVectorIndex.save` (faiss 1.7
 * `write_index`), read without faiss: a flat index (`IxFI` inner product, `IxF2` L2) holds them
 * after its header; a scalar-quantised index (`IxSQ`: `SQfp16`, `SQ8`) holds their
 * codes, decoded here exactly as faiss decodes them for search (so a stored float16 vector comes
 * back as the float32 value faiss scores with); an HNSW index (`IHNf` over flat storage, `IHNs`
 * over scalar-quantised storage) holds them in its storage after the graph. So an index directory
 * needs no second copy of its vectors. Other layouts (IVF, PQ, 4- and 6-bit SQ) → InputError
 * naming `source`.
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
      this.#need(floats * 4);
      const matrix = storedMatrix(floats);
      new Uint8Array(matrix.buffer, matrix.byteOffset, matrix.byteLength).set(this.bytes.subarray(this.#offset, this.#offset + floats * 4));
      this.#offset += floats * 4;
      return { ...header, matrix };
    }
    if (fourcc === 'IxSQ') return { ...header, matrix: this.#scalarQuantized(header) };
    if (fourcc === 'IHNf' || fourcc === 'IHNs') {
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
    return this.#fail(`index type '${fourcc}' does not store its vectors exactly (only Flat, SQfp16, SQ8 and HNSW over them do)`);
  }

  /** faiss `write_ScalarQuantizer` then the codes, decoded row after row. */
  #scalarQuantized(header: { dimension: number; count: number }): Float32Array {
    const qtype = this.#i32();
    this.#skip(4 + 4); // rangestat, rangestat_arg
    const d = this.#u64();
    const codeSize = this.#u64();
    const trained = this.#floats(this.#u64());
    const codeBytes = this.#u64();
    if (d !== header.dimension) this.#fail(`scalar quantizer of dimension ${d} in an index of dimension ${header.dimension}`);
    if (codeBytes !== header.count * codeSize) this.#fail(`scalar quantizer holds ${codeBytes} code bytes, expected ${header.count} × ${codeSize}`);
    this.#need(codeBytes);
    const codes = this.bytes.subarray(this.#offset, this.#offset + codeBytes);
    this.#offset += codeBytes;
    const decoder = scalarDecoder(qtype, d, codeSize, trained);
    if (typeof decoder === 'string') return this.#fail(decoder);
    const matrix = storedMatrix(header.count * d);
    if (qtype === QT_FP16) {
      // Every code is a float16 (2 bytes a dimension, rows back to back): one pass over them all.
      const aligned = codes.byteOffset % 2 === 0 ? codes : Uint8Array.prototype.slice.call(codes);
      const halves = new Uint16Array(aligned.buffer, aligned.byteOffset, codeBytes / 2);
      const table = halfTable();
      for (let i = 0; i < halves.length; i++) matrix[i] = table[halves[i]!]!;
      return matrix;
    }
    for (let row = 0; row < header.count; row++) decoder(codes, row * codeSize, matrix, row * d);
    return matrix;
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

/**
 * Bytes kept free before every matrix this reader returns, so that `flatIndexBytes` can write a
 * faiss Flat header there and hand faiss the matrix without copying it (see `flatIndexView`).
 */
export const FLAT_HEADER_ROOM = 48;
const withRoom = new WeakSet<ArrayBufferLike>();

/** A zeroed matrix of `length` floats with FLAT_HEADER_ROOM free bytes before it in its own buffer. */
function storedMatrix(length: number): Float32Array {
  const buffer = new ArrayBuffer(FLAT_HEADER_ROOM + length * 4);
  withRoom.add(buffer);
  return new Float32Array(buffer, FLAT_HEADER_ROOM, length);
}

/**
 * When `matrix` was returned by readFaissStoredVectors (its buffer holds the room before it and
 * nothing after), the bytes of its buffer from `FLAT_HEADER_ROOM - headerBytes` on, for the
 * caller to write a header of `headerBytes` into; otherwise undefined.
 */
export function matrixWithHeaderRoom(matrix: Float32Array, headerBytes: number): Buffer | undefined {
  if (headerBytes > FLAT_HEADER_ROOM || !withRoom.has(matrix.buffer)) return undefined;
  if (matrix.byteOffset !== FLAT_HEADER_ROOM || matrix.buffer.byteLength !== FLAT_HEADER_ROOM + matrix.byteLength) return undefined;
  return Buffer.from(matrix.buffer, FLAT_HEADER_ROOM - headerBytes, headerBytes + matrix.byteLength);
}

/** faiss 1.7 `ScalarQuantizer::QuantizerType` values this reader decodes. */
const QT_8BIT = 0;
const QT_FP16 = 4;

type RowDecoder = (codes: Uint8Array, codeOffset: number, out: Float32Array, outOffset: number) => void;

/** A row decoder for a scalar quantizer, or why there is none. Same arithmetic as faiss' (float32). */
function scalarDecoder(qtype: number, d: number, codeSize: number, trained: Float32Array): RowDecoder | string {
  if (qtype === QT_FP16) {
    if (codeSize !== 2 * d) return `float16 codes of ${codeSize} bytes for ${d} dimensions`;
    const table = halfTable();
    return (codes, codeOffset, out, outOffset) => {
      for (let i = 0; i < d; i++) out[outOffset + i] = table[codes[codeOffset + 2 * i] | (codes[codeOffset + 2 * i + 1] << 8)];
    };
  }
  if (qtype === QT_8BIT) {
    if (codeSize !== d) return `8-bit codes of ${codeSize} bytes for ${d} dimensions`;
    if (trained.length !== 2 * d) return `8-bit quantizer trained with ${trained.length} values`;
    // faiss: x = vmin + ((code + 0.5) / 255) * vdiff, all in float32 (per dimension vmin, then vdiff).
    const vmin = trained.subarray(0, d);
    const vdiff = trained.subarray(d, 2 * d);
    return (codes, codeOffset, out, outOffset) => {
      for (let i = 0; i < d; i++) {
        const unit = Math.fround(Math.fround(codes[codeOffset + i] + 0.5) / 255);
        out[outOffset + i] = Math.fround(vmin[i] + Math.fround(vdiff[i] * unit));
      }
    };
  }
  return `scalar quantizer type ${qtype} is not decoded (only SQfp16 and SQ8 are)`;
}

let halves: Float32Array | undefined;

/** Every float16 bit pattern decoded (256 KB, built on first use). */
function halfTable(): Float32Array {
  if (!halves) {
    halves = new Float32Array(65536);
    for (let bits = 0; bits < 65536; bits++) halves[bits] = halfToFloat(bits);
  }
  return halves;
}

/** IEEE 754 binary16 bits → number (exact: every float16 is a float32). */
export function halfToFloat(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction === 0 ? sign * Number.POSITIVE_INFINITY : Number.NaN;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}
