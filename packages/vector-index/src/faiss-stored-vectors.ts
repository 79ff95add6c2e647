import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { InputError } from '@mosaic/spec';

/** The raw vectors held by a serialized faiss index, as one row-major matrix. */
export interface FaissStoredVectors {
  dimension: number;
  count: number;
  /** `count * dimension` floats, row after row (a copy, aligned; independent of the buffer). */
  matrix: Float32Array;
}

/**
 * The float16 vectors of a scalar-quantised (`SQfp16`) faiss index, kept as their codes: half the
 * memory of the float32 matrix, and nothing decoded at load. `float16Row` decodes a row to the
 * exact float32 values faiss scores with.
 */
export interface FaissFloat16Vectors {
  dimension: number;
  count: number;
  /** `count * dimension` IEEE 754 binary16 bit patterns, row after row. */
  float16: Uint16Array;
}

/** How a faiss file holds its vectors: a flat index, a flat scalar-quantised one, or an HNSW graph over either. */
export type FaissLayout = 'flat' | 'scalar-quantized' | 'hnsw';

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
  const reader = new FaissReader(bufferSource(buffer), source, false);
  return reader.index() as FaissStoredVectors;
}

/**
 * `readFaissStoredVectors` on a file, read in place: only the header fields and the stored vectors
 * are read (an HNSW graph is skipped over, not read), so loading costs the vectors' bytes alone.
 * With `keepFloat16`, float16 codes are returned as they are (`FaissFloat16Vectors`), not decoded.
 * InputError naming the path when the file cannot be read or holds another layout.
 */
export function readFaissStoredVectorsFile(
  path: string,
  options: { keepFloat16?: boolean } = {},
): (FaissStoredVectors | FaissFloat16Vectors) & { layout: FaissLayout } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new InputError({ source: path, message: `cannot read faiss index: ${(error as Error).message}`, cause: error });
  }
  try {
    const reader = new FaissReader(fileSource(fd, path), path, options.keepFloat16 ?? false);
    const vectors = reader.index();
    return { ...vectors, layout: reader.layout! };
  } finally {
    closeSync(fd);
  }
}

/** Row `row` of float16 vectors, decoded into `out` (default a new array): the float32 values faiss scores with. */
export function float16Row(vectors: FaissFloat16Vectors, row: number, out: Float32Array = new Float32Array(vectors.dimension)): Float32Array {
  const table = halfTable();
  const { float16, dimension } = vectors;
  const base = row * dimension;
  for (let i = 0; i < dimension; i++) out[i] = table[float16[base + i]!]!;
  return out;
}

/** Every row of float16 vectors decoded, as the matrix `readFaissStoredVectors` returns (room for a Flat header before it). */
export function float16Matrix(vectors: FaissFloat16Vectors): FaissStoredVectors {
  const matrix = storedMatrix(vectors.float16.length);
  const table = halfTable();
  const { float16 } = vectors;
  for (let i = 0; i < float16.length; i++) matrix[i] = table[float16[i]!]!;
  return { dimension: vectors.dimension, count: vectors.count, matrix };
}

/** The first stored value that is NaN or infinite (its row and value), if any; float16 codes are checked without decoding. */
export function firstNonFiniteVector(vectors: FaissStoredVectors | FaissFloat16Vectors): { row: number; value: number } | undefined {
  if ('float16' in vectors) {
    const { float16, dimension } = vectors;
    // Exponent bits all set: infinity or NaN.
    for (let i = 0; i < float16.length; i++) {
      if ((float16[i]! & 0x7c00) === 0x7c00) return { row: Math.floor(i / dimension), value: halfToFloat(float16[i]!) };
    }
    return undefined;
  }
  const { matrix, dimension } = vectors;
  for (let i = 0; i < matrix.length; i++) {
    if (!Number.isFinite(matrix[i])) return { row: Math.floor(i / dimension), value: matrix[i]! };
  }
  return undefined;
}

/** Bytes of a faiss file by position: a buffer in memory, or a file read piece by piece. */
interface ByteSource {
  readonly size: number;
  /** Whether `bytes` returns the source's own memory (a buffer) rather than a fresh copy (a file). */
  readonly shared: boolean;
  /** `length` bytes from `offset` (the caller has checked they exist); may share memory with the source. */
  bytes(offset: number, length: number): Uint8Array;
  /** Fills `target` with the bytes from `offset`. */
  into(offset: number, target: Uint8Array): void;
}

function bufferSource(buffer: Uint8Array): ByteSource {
  return {
    size: buffer.byteLength,
    shared: true,
    bytes: (offset, length) => buffer.subarray(offset, offset + length),
    into: (offset, target) => target.set(buffer.subarray(offset, offset + target.byteLength)),
  };
}

function fileSource(fd: number, path: string): ByteSource {
  const into = (offset: number, target: Uint8Array) => {
    for (let done = 0; done < target.byteLength; ) {
      const read = readSync(fd, target, done, target.byteLength - done, offset + done);
      if (read === 0) throw new InputError({ source: path, message: `cannot read the vectors of the faiss index: truncated at byte ${offset + done}` });
      done += read;
    }
  };
  return {
    size: fstatSync(fd).size,
    shared: false,
    bytes: (offset, length) => {
      const out = new Uint8Array(length);
      into(offset, out);
      return out;
    },
    into,
  };
}

class FaissReader {
  #offset = 0;
  /** The layout of the outermost index read. */
  layout: FaissLayout | undefined;
  constructor(
    readonly source: ByteSource,
    readonly name: string,
    readonly keepFloat16: boolean,
  ) {}

  index(): FaissStoredVectors | FaissFloat16Vectors {
    const fourcc = this.#fourcc();
    const header = this.#header();
    if (fourcc === 'IxFI' || fourcc === 'IxF2') {
      this.layout ??= 'flat';
      const floats = this.#u64();
      if (floats !== header.count * header.dimension) this.#fail(`flat index holds ${floats} floats, expected ${header.count} × ${header.dimension}`);
      this.#need(floats * 4);
      const matrix = storedMatrix(floats);
      this.source.into(this.#offset, new Uint8Array(matrix.buffer, matrix.byteOffset, matrix.byteLength));
      this.#offset += floats * 4;
      return { ...header, matrix };
    }
    if (fourcc === 'IxSQ') {
      this.layout ??= 'scalar-quantized';
      return this.#scalarQuantized(header);
    }
    if (fourcc === 'IHNf' || fourcc === 'IHNs') {
      this.layout ??= 'hnsw';
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

  /** faiss `write_ScalarQuantizer` then the codes, decoded row after row (float16 codes kept when asked). */
  #scalarQuantized(header: { dimension: number; count: number }): FaissStoredVectors | FaissFloat16Vectors {
    const qtype = this.#i32();
    this.#skip(4 + 4); // rangestat, rangestat_arg
    const d = this.#u64();
    const codeSize = this.#u64();
    const trained = this.#floats(this.#u64());
    const codeBytes = this.#u64();
    if (d !== header.dimension) this.#fail(`scalar quantizer of dimension ${d} in an index of dimension ${header.dimension}`);
    if (codeBytes !== header.count * codeSize) this.#fail(`scalar quantizer holds ${codeBytes} code bytes, expected ${header.count} × ${codeSize}`);
    this.#need(codeBytes);
    const decoder = scalarDecoder(qtype, d, codeSize, trained);
    if (typeof decoder === 'string') return this.#fail(decoder);
    if (qtype === QT_FP16) {
      // Every code is a float16 (2 bytes a dimension, rows back to back). Kept codes get memory of
      // their own; codes only decoded are read in place when aligned.
      const codes = this.source.bytes(this.#offset, codeBytes);
      this.#offset += codeBytes;
      const own = (this.source.shared && this.keepFloat16) || codes.byteOffset % 2 !== 0 ? Uint8Array.prototype.slice.call(codes) : codes;
      const float16 = new Uint16Array(own.buffer, own.byteOffset, codeBytes / 2);
      const vectors = { ...header, float16 };
      return this.keepFloat16 ? vectors : float16Matrix(vectors);
    }
    const codes = this.source.bytes(this.#offset, codeBytes);
    this.#offset += codeBytes;
    const matrix = storedMatrix(header.count * d);
    for (let row = 0; row < header.count; row++) decoder(codes, row * codeSize, matrix, row * d);
    return { ...header, matrix };
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
    const text = String.fromCharCode(...this.source.bytes(this.#offset, 4));
    this.#offset += 4;
    return text;
  }

  #i32(): number {
    this.#need(4);
    const bytes = this.source.bytes(this.#offset, 4);
    this.#offset += 4;
    return new DataView(bytes.buffer, bytes.byteOffset, 4).getInt32(0, true);
  }

  #u64(): number {
    this.#need(8);
    const bytes = this.source.bytes(this.#offset, 8);
    this.#offset += 8;
    const value = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true);
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
    this.source.into(this.#offset, new Uint8Array(matrix.buffer));
    this.#offset += count * 4;
    return matrix;
  }

  #need(bytes: number): void {
    if (this.#offset + bytes > this.source.size) this.#fail(`truncated at byte ${this.#offset} (needs ${bytes} more)`);
  }

  #fail(message: string): never {
    throw new InputError({ source: this.name, message: `cannot read the vectors of the faiss index: ${message}` });
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
