import { endianness } from 'node:os';
import { InputError, InvalidArgumentError } from '@mosaic/spec';
import type { Bm25PostingArrays } from './bm25-postings.js';

/** The first 8 bytes of a binary BM25 state. */
const MAGIC = 'MOSAICBM';
/** Version of the binary layout (the JSON forms are versions 1 and 2 of `mosaic-bm25`). */
export const BM25_BINARY_VERSION = 1;

/** What the header of a binary BM25 state records. */
export interface Bm25BinaryHeader {
  format: 'mosaic-bm25-binary';
  version: number;
  tokenizer: string;
  k1: number;
  b: number;
  /** Documents in the collection (labels 0 … size − 1). */
  size: number;
  tokens: number;
  postings: number;
  /** Bytes of the token table (UTF-8, tokens separated by NUL). */
  tokenBytes: number;
  /**
   * 'decimal4': each weight w stored as the Int32 d with d / 10000 === w exactly (wink rounds
   * every weight to 4 decimals, so this is lossless); 'float64': the doubles themselves.
   */
  weights: 'decimal4' | 'float64';
}

const pad8 = (n: number) => (8 - (n % 8)) % 8;

function checkLittleEndian(): void {
  if (endianness() !== 'LE') throw new InvalidArgumentError({ argument: 'host', message: 'binary BM25 states are little-endian; this host is big-endian' });
}

/**
 * The binary layout of a BM25 state, as a list of byte ranges to write one after the other
 * (typed arrays are viewed, not copied): magic "MOSAICBM", u32 header length, header JSON
 * (padded to 8 bytes), the token table (UTF-8, NUL-separated, padded), per token its number of
 * postings (Int32), the labels (Int32, each token's ascending labels delta-coded), the weights
 * (Int32 decimal4 or Float64, see Bm25BinaryHeader). Little-endian.
 */
export function encodeBm25Binary(options: { tokenizer: string; k1: number; b: number; size: number; postings: Bm25PostingArrays }): Uint8Array[] {
  checkLittleEndian();
  const { tokens, offsets, labels, weights } = options.postings;
  for (const token of tokens) {
    if (token.includes('\0'))
      throw new InvalidArgumentError({ argument: 'tokens', message: 'a BM25 token contains NUL, which the binary layout uses as separator' });
  }
  const tokenTable = Buffer.from(tokens.join('\0'), 'utf8');
  let decimal = true;
  const scaled = new Int32Array(weights.length);
  for (let i = 0; i < weights.length; i += 1) {
    const d = Math.round(weights[i] * 10000);
    if (!(Math.abs(d) < 2 ** 31) || d / 10000 !== weights[i] || Object.is(weights[i], -0)) {
      decimal = false;
      break;
    }
    scaled[i] = d;
  }
  const header: Bm25BinaryHeader = {
    format: 'mosaic-bm25-binary',
    version: BM25_BINARY_VERSION,
    tokenizer: options.tokenizer,
    k1: options.k1,
    b: options.b,
    size: options.size,
    tokens: tokens.length,
    postings: labels.length,
    tokenBytes: tokenTable.length,
    weights: decimal ? 'decimal4' : 'float64',
  };
  let json = JSON.stringify(header);
  json += ' '.repeat(pad8(12 + Buffer.byteLength(json)));
  const start = Buffer.alloc(12);
  start.write(MAGIC, 0, 'latin1');
  start.writeUInt32LE(Buffer.byteLength(json), 8);
  const counts = new Int32Array(tokens.length);
  for (let t = 0; t < tokens.length; t += 1) counts[t] = offsets[t + 1] - offsets[t];
  const deltas = new Int32Array(labels.length);
  for (let t = 0; t < tokens.length; t += 1) {
    let previous = 0;
    for (let i = offsets[t]; i < offsets[t + 1]; i += 1) {
      deltas[i] = labels[i] - previous;
      previous = labels[i];
    }
  }
  const bytes = (array: Int32Array | Float64Array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  return [
    start,
    Buffer.from(json, 'utf8'),
    tokenTable,
    Buffer.alloc(pad8(tokenTable.length)),
    bytes(counts),
    bytes(deltas),
    Buffer.alloc(pad8(deltas.byteLength)),
    decimal ? bytes(scaled) : bytes(weights),
  ];
}

/** True when `bytes` starts like a binary BM25 state. */
export function isBm25Binary(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && Buffer.from(bytes.buffer, bytes.byteOffset, 8).toString('latin1') === MAGIC;
}

/**
 * Read a binary BM25 state (see encodeBm25Binary); InputError naming `source` when it is malformed.
 * With `owned`, `bytes` belongs to the reader: the postings are views of it where aligned (the labels
 * decoded in place) instead of copies, and it must not be used or changed afterwards.
 */
export function decodeBm25Binary(
  bytes: Uint8Array,
  source: string,
  options: { owned?: boolean } = {},
): { header: Bm25BinaryHeader; postings: Bm25PostingArrays } {
  checkLittleEndian();
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (message: string): never => {
    throw new InputError({ source, message: `binary BM25 state: ${message}` });
  };
  if (!isBm25Binary(buffer) || buffer.length < 12) fail('does not start with MOSAICBM');
  const headerLength = buffer.readUInt32LE(8);
  if (12 + headerLength > buffer.length) fail('truncated header');
  let header: Bm25BinaryHeader;
  try {
    header = JSON.parse(buffer.toString('utf8', 12, 12 + headerLength)) as Bm25BinaryHeader;
  } catch (cause) {
    throw new InputError({ source, message: 'binary BM25 state: the header is not JSON', cause });
  }
  const counts = [header.size, header.tokens, header.postings, header.tokenBytes];
  if (
    header?.format !== 'mosaic-bm25-binary' ||
    typeof header.tokenizer !== 'string' ||
    typeof header.k1 !== 'number' ||
    typeof header.b !== 'number' ||
    !counts.every((n) => Number.isInteger(n) && n >= 0) ||
    (header.weights !== 'decimal4' && header.weights !== 'float64')
  ) {
    fail('the header has missing or malformed fields');
  }
  if (header.version !== BM25_BINARY_VERSION) fail(`version ${String(header.version)}, this reader knows ${BM25_BINARY_VERSION}`);
  let at = 12 + headerLength;
  const take = (length: number): Buffer => {
    if (at + length > buffer.length) fail('truncated');
    const part = buffer.subarray(at, at + length);
    at += length;
    return part;
  };
  // Typed arrays over a copy (aligned whatever the buffer's offset; `bytes` is never modified), or,
  // when the bytes are owned and the part aligned, over the bytes themselves.
  const copy = (part: Buffer) => part.buffer.slice(part.byteOffset, part.byteOffset + part.length);
  const int32 = (n: number) => {
    const part = take(n * 4);
    return options.owned && part.byteOffset % 4 === 0 ? new Int32Array(part.buffer, part.byteOffset, n) : new Int32Array(copy(part));
  };
  const tokenText = take(header.tokenBytes).toString('utf8');
  take(pad8(header.tokenBytes));
  const tokens = header.tokens === 0 ? [] : tokenText.split('\0');
  if (tokens.length !== header.tokens) fail(`${tokens.length} tokens in the table, the header says ${header.tokens}`);
  const countsPerToken = int32(header.tokens);
  const labels = int32(header.postings);
  take(pad8(header.postings * 4));
  let weights: Float64Array;
  if (header.weights === 'decimal4') {
    const scaled = int32(header.postings);
    weights = new Float64Array(scaled.length);
    for (let i = 0; i < scaled.length; i += 1) weights[i] = scaled[i] / 10000;
  } else {
    const part = take(header.postings * 8);
    weights = options.owned && part.byteOffset % 8 === 0 ? new Float64Array(part.buffer, part.byteOffset, header.postings) : new Float64Array(copy(part));
  }
  if (at !== buffer.length) fail(`${buffer.length - at} bytes after the weights`);
  const offsets = new Int32Array(header.tokens + 1);
  for (let t = 0; t < header.tokens; t += 1) {
    if (countsPerToken[t] < 0) fail(`token ${t} has a negative count`);
    offsets[t + 1] = offsets[t] + countsPerToken[t];
    let previous = 0;
    for (let i = offsets[t]; i < offsets[t + 1] && i < labels.length; i += 1) {
      previous += labels[i];
      labels[i] = previous;
    }
  }
  if (offsets[header.tokens] !== header.postings) fail(`the token counts sum to ${offsets[header.tokens]}, the header says ${header.postings} postings`);
  return { header, postings: { tokens, offsets, labels, weights } };
}
