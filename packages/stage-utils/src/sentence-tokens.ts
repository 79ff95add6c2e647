import type { ChunkStore, SentenceTokens, TextSpan } from '@mosaic/spec';
import { doubled, TokenNumbering } from './match-tokens.js';

/**
 * The tokenizer id of sentence tokens made by `createSentenceTokens`: `matchTokens`. Bump the
 * version when `matchTokens` changes what it gives, so that tables made before are not used.
 */
export const MATCH_TOKENS_ID = 'mosaic-match-tokens/1';

/** The chunk store's sentence tokens when `matchTokens` made them (`MATCH_TOKENS_ID`), the only ones a stage matching with `matchTokens` may read; else undefined. */
export function matchSentenceTokens(chunks: Pick<ChunkStore, 'sentenceTokens'>): SentenceTokens | undefined {
  return chunks.sentenceTokens?.tokenizer === MATCH_TOKENS_ID ? chunks.sentenceTokens : undefined;
}

/**
 * Sentences as numbers, looked up by chunk id and offsets: the sentences are sorted by chunk (in
 * the order of the chunk ids it was made with), then start, then end; `chunkStart[c]` is the first
 * sentence of chunk `c`.
 */
export class SentenceTokenTable implements SentenceTokens {
  readonly tokenizer: string;
  readonly vocabulary: readonly string[];
  readonly tokenStart: Int32Array;
  readonly tokens: Int32Array;
  readonly chunkStart: Int32Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** Digest of the chunk ids the table was made with, in order (`chunkIdsDigest`). */
  readonly chunkDigest: string;
  readonly #chunkNumber: ReadonlyMap<string, number>;
  /** Token → vocabulary position, made on the first `tokenNumber`. */
  #tokenNumber?: Map<string, number>;

  constructor(options: {
    tokenizer: string;
    vocabulary: readonly string[];
    chunkIds: readonly string[];
    chunkStart: Int32Array;
    starts: Int32Array;
    ends: Int32Array;
    tokenStart: Int32Array;
    tokens: Int32Array;
  }) {
    const { chunkIds, chunkStart, starts, ends, tokenStart, tokens, vocabulary } = options;
    const count = starts.length;
    if (chunkStart.length !== chunkIds.length + 1 || chunkStart[0] !== 0 || chunkStart[chunkIds.length] !== count) {
      throw new RangeError('sentence tokens: chunk starts disagree with the chunks and sentences');
    }
    if (ends.length !== count || tokenStart.length !== count + 1 || tokenStart[0] !== 0 || tokenStart[count] !== tokens.length) {
      throw new RangeError('sentence tokens: starts, ends and token starts disagree');
    }
    for (let c = 0; c < chunkIds.length; c += 1) if (chunkStart[c + 1] < chunkStart[c]) throw new RangeError(`sentence tokens: chunk starts decrease at ${c}`);
    for (let n = 0; n < count; n += 1) {
      if (tokenStart[n + 1] < tokenStart[n]) throw new RangeError(`sentence tokens: token starts decrease at sentence ${n}`);
      if (starts[n] < 0 || ends[n] < starts[n]) throw new RangeError(`sentence tokens: sentence ${n} has offsets ${starts[n]}…${ends[n]}`);
    }
    for (let c = 0; c < chunkIds.length; c += 1) {
      for (let n = chunkStart[c] + 1; n < chunkStart[c + 1]; n += 1) {
        if (starts[n] < starts[n - 1] || (starts[n] === starts[n - 1] && ends[n] <= ends[n - 1])) {
          throw new RangeError(`sentence tokens: sentences of chunk ${c} out of order at ${n}`);
        }
      }
    }
    for (let at = 0; at < tokens.length; at += 1) {
      if (tokens[at] < 0 || tokens[at] >= vocabulary.length) throw new RangeError(`sentence tokens: token ${tokens[at]} out of 0..${vocabulary.length - 1}`);
    }
    this.tokenizer = options.tokenizer;
    this.vocabulary = vocabulary;
    this.chunkStart = chunkStart;
    this.starts = starts;
    this.ends = ends;
    this.tokenStart = tokenStart;
    this.tokens = tokens;
    this.chunkDigest = chunkIdsDigest(chunkIds);
    const chunkNumber = new Map<string, number>();
    for (let c = 0; c < chunkIds.length; c += 1) chunkNumber.set(chunkIds[c], c);
    this.#chunkNumber = chunkNumber;
  }

  /**
   * The position of `token` in the vocabulary, or undefined. The token → position map is made on the
   * first call (a quarter of a million words at 100 MB of text); a vocabulary that holds a token twice
   * cannot be read this way and throws a RangeError (`createSentenceTokens` never makes one).
   */
  tokenNumber(token: string): number | undefined {
    let numbers = this.#tokenNumber;
    if (!numbers) {
      numbers = new Map<string, number>();
      const { vocabulary } = this;
      for (let n = 0; n < vocabulary.length; n += 1) {
        if (numbers.has(vocabulary[n])) throw new RangeError(`sentence tokens: the vocabulary holds ${JSON.stringify(vocabulary[n])} twice`);
        numbers.set(vocabulary[n], n);
      }
      this.#tokenNumber = numbers;
    }
    return numbers.get(token);
  }

  /** Sentences held. */
  get count(): number {
    return this.starts.length;
  }

  sentence(chunkId: string, start: number, end: number): number {
    const chunk = this.#chunkNumber.get(chunkId);
    return chunk === undefined ? -1 : this.sentenceInChunk(chunk, start, end);
  }

  /** The chunk's number in the order of the chunk ids the table was made with (undefined: not one of them). */
  chunkNumber(chunkId: string): number | undefined {
    return this.#chunkNumber.get(chunkId);
  }

  /** `sentence` of chunk number `chunk` (−1 for a number that is no chunk's). */
  sentenceInChunk(chunk: number, start: number, end: number): number {
    if (!(Number.isInteger(chunk) && chunk >= 0 && chunk < this.chunkStart.length - 1)) return -1;
    // The first sentence of the chunk starting at `start` or after it, then those starting there.
    let low = this.chunkStart[chunk];
    let high = this.chunkStart[chunk + 1];
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.starts[middle] < start) low = middle + 1;
      else high = middle;
    }
    for (let n = low; n < this.chunkStart[chunk + 1] && this.starts[n] === start; n += 1) if (this.ends[n] === end) return n;
    return -1;
  }
}

/**
 * The matching tokens (`matchTokens`) of every distinct sentence span, as a table: per span, the
 * distinct tokens of `matchTokens(text.slice(start, end))`, in ascending order of their numbers
 * (the vocabulary is ordered by how many sentences hold a token, most first). Spans of a chunk not in `chunks`, or whose offsets are not integers with 0 ≤ start ≤ end ≤
 * the chunk's length, are left out (a stage tokenizes those from the text).
 */
export function createSentenceTokens(options: { chunks: readonly { id: string; text: string }[]; spans: Iterable<TextSpan> }): SentenceTokenTable {
  const { chunks } = options;
  const chunkNumber = new Map<string, number>();
  for (let c = 0; c < chunks.length; c += 1) chunkNumber.set(chunks[c].id, c);
  // Per chunk, its spans as start, end pairs.
  const pairs: (number[] | undefined)[] = new Array(chunks.length);
  for (const span of options.spans) {
    const c = chunkNumber.get(span.chunkId);
    if (c === undefined) continue;
    const { start, end } = span;
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end > chunks[c].text.length) continue;
    (pairs[c] ??= []).push(start, end);
  }
  const numbering = new TokenNumbering();
  const chunkStart = new Int32Array(chunks.length + 1);
  const starts: number[] = [];
  const ends: number[] = [];
  let tokenStart: Int32Array = new Int32Array(1024);
  let tokens: Int32Array = new Int32Array(1 << 16);
  let used = 0;
  const add = (number: number) => {
    if (used === tokens.length) tokens = doubled(tokens);
    tokens[used] = number;
    used += 1;
  };
  for (let c = 0; c < chunks.length; c += 1) {
    chunkStart[c] = starts.length;
    const list = pairs[c];
    if (!list) continue;
    pairs[c] = undefined;
    const order = Array.from({ length: list.length / 2 }, (_, k) => k);
    order.sort((a, b) => list[2 * a] - list[2 * b] || list[2 * a + 1] - list[2 * b + 1]);
    const text = chunks[c].text;
    for (const k of order) {
      const start = list[2 * k];
      const end = list[2 * k + 1];
      const last = starts.length - 1;
      if (last >= chunkStart[c] && starts[last] === start && ends[last] === end) continue;
      numbering.forEachDistinct(text, start, end, add);
      starts.push(start);
      ends.push(end);
      if (starts.length === tokenStart.length) tokenStart = doubled(tokenStart);
      tokenStart[starts.length] = used;
    }
  }
  chunkStart[chunks.length] = starts.length;
  // Tokens renumbered by frequency (most frequent first, ties in order of first sight) and each
  // sentence's listed in ascending order: the file then holds small gaps between small numbers.
  const { vocabulary } = numbering;
  const held = tokens.subarray(0, used);
  const frequency = new Int32Array(vocabulary.length);
  for (const token of held) frequency[token] += 1;
  const order = Array.from({ length: vocabulary.length }, (_, token) => token).sort((a, b) => frequency[b] - frequency[a] || a - b);
  const rank = new Int32Array(vocabulary.length);
  order.forEach((token, r) => {
    rank[token] = r;
  });
  const ranked = new Int32Array(used);
  for (let at = 0; at < used; at += 1) ranked[at] = rank[held[at]];
  const sentenceCount = starts.length;
  for (let n = 0; n < sentenceCount; n += 1) ranked.subarray(tokenStart[n], tokenStart[n + 1]).sort();
  return new SentenceTokenTable({
    tokenizer: MATCH_TOKENS_ID,
    vocabulary: order.map((token) => vocabulary[token]),
    chunkIds: chunks.map((chunk) => chunk.id),
    chunkStart,
    starts: Int32Array.from(starts),
    ends: Int32Array.from(ends),
    tokenStart: tokenStart.slice(0, sentenceCount + 1),
    tokens: ranked,
  });
}

/** A digest of chunk ids in order (their count, and two 32-bit multiplicative hashes of each id's length and characters): a table is used only with the chunks it was made with. */
export function chunkIdsDigest(chunkIds: readonly string[]): string {
  let a = 0x811c9dc5 | 0;
  let b = 0x01000193 ^ 0x5bd1e995;
  const mix = (code: number) => {
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995) ^ (b >>> 13);
  };
  for (const id of chunkIds) {
    // Each id's length first, so that no two lists of ids run together into the same characters.
    mix(id.length);
    for (let i = 0; i < id.length; i += 1) mix(id.charCodeAt(i));
  }
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
  return `${chunkIds.length}:${hex(a)}${hex(b)}`;
}

const MAGIC = 0x4b54534d; // 'MSTK' little-endian
const LAYOUT_VERSION = 1;
const HEADER_INTS = 9;

/**
 * The table as bytes (parts to write one after the other): a header of 32-bit little-endian
 * integers (magic, layout version, the byte lengths of the tokenizer id and of the chunk digest,
 * chunks, sentences, tokens, vocabulary tokens, vocabulary bytes), the tokenizer id and the chunk
 * digest as UTF-8 (each padded to 4 bytes), then unsigned LEB128 numbers: per chunk its sentence
 * count; per sentence its start less the chunk's previous sentence's start, its length and its
 * token count; per sentence its tokens, the first as it is and each next as the gap from the one
 * before less one; and the vocabulary as UTF-8, one token per line.
 */
export function encodeSentenceTokens(table: SentenceTokenTable): Uint8Array[] {
  checkLittleEndian();
  const encoder = new TextEncoder();
  const tokenizer = encoder.encode(table.tokenizer);
  const digest = encoder.encode(table.chunkDigest);
  const vocabulary = encoder.encode(table.vocabulary.join('\n'));
  const { chunkStart, starts, ends, tokenStart, tokens } = table;
  const chunkCount = chunkStart.length - 1;
  const header = new Int32Array(HEADER_INTS);
  header.set([MAGIC, LAYOUT_VERSION, tokenizer.length, digest.length, chunkCount, table.count, tokens.length, table.vocabulary.length, vocabulary.length]);
  const padded = (bytes: Uint8Array) => {
    const out = new Uint8Array(Math.ceil(bytes.length / 4) * 4);
    out.set(bytes);
    return out;
  };
  const numbers = new Leb128Writer();
  for (let c = 0; c < chunkCount; c += 1) numbers.write(chunkStart[c + 1] - chunkStart[c]);
  for (let c = 0; c < chunkCount; c += 1) {
    let previous = 0;
    for (let n = chunkStart[c]; n < chunkStart[c + 1]; n += 1) {
      numbers.write(starts[n] - previous);
      numbers.write(ends[n] - starts[n]);
      numbers.write(tokenStart[n + 1] - tokenStart[n]);
      previous = starts[n];
    }
  }
  for (let n = 0; n < table.count; n += 1) {
    let previous = -1;
    for (let at = tokenStart[n]; at < tokenStart[n + 1]; at += 1) {
      if (tokens[at] <= previous) throw new RangeError(`sentence tokens: the tokens of sentence ${n} are not ascending`);
      numbers.write(tokens[at] - previous - 1);
      previous = tokens[at];
    }
  }
  return [new Uint8Array(header.buffer), padded(tokenizer), padded(digest), ...numbers.parts(), vocabulary];
}

/**
 * A table from `encodeSentenceTokens`' bytes, for the chunks `chunkIds` (in the order it was made
 * with): `sentenceTokensFromParts(decodeSentenceTokenParts(bytes), options)`. Throws RangeError
 * naming what is wrong when the bytes are not such a table, are cut short, or were made for other
 * chunks (their number or their digest differs).
 */
export function decodeSentenceTokens(bytes: Uint8Array, options: { chunkIds: readonly string[] }): SentenceTokenTable {
  return sentenceTokensFromParts(decodeSentenceTokenParts(bytes), options);
}

/**
 * A table's numbers as `decodeSentenceTokenParts` reads them, the vocabulary still as its UTF-8
 * bytes: typed arrays and strings only, so that a worker thread can decode them and transfer them.
 */
export interface SentenceTokenParts {
  tokenizer: string;
  chunkDigest: string;
  chunkCount: number;
  chunkStart: Int32Array;
  starts: Int32Array;
  ends: Int32Array;
  tokenStart: Int32Array;
  tokens: Int32Array;
  vocabularyCount: number;
  /** The vocabulary, one token per line, UTF-8 (a copy, with a buffer of its own, even of a Buffer's bytes). */
  vocabulary: Uint8Array;
}

/** The numbers of `encodeSentenceTokens`' bytes (the part of decoding that needs no chunk ids). Throws RangeError as `decodeSentenceTokens`. */
export function decodeSentenceTokenParts(bytes: Uint8Array): SentenceTokenParts {
  checkLittleEndian();
  if (bytes.length < HEADER_INTS * 4) throw new RangeError('sentence tokens: cut short in the header');
  const header = new Int32Array(Uint8Array.from(bytes.subarray(0, HEADER_INTS * 4)).buffer);
  const [magic, version, tokenizerLength, digestLength, chunkCount, count, tokenCount, vocabularyCount, vocabularyBytes] = header;
  if (magic !== MAGIC) throw new RangeError('sentence tokens: not a sentence token table (wrong magic number)');
  if (version !== LAYOUT_VERSION) throw new RangeError(`sentence tokens: layout version ${version}, this code reads ${LAYOUT_VERSION}`);
  if ([tokenizerLength, digestLength, chunkCount, count, tokenCount, vocabularyCount, vocabularyBytes].some((n) => n < 0)) {
    throw new RangeError('sentence tokens: a negative count in the header');
  }
  let at = HEADER_INTS * 4;
  const text = (length: number, what: string): string => {
    if (at + length > bytes.length) throw new RangeError(`sentence tokens: cut short in the ${what}`);
    const out = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(at, at + length));
    at += Math.ceil(length / 4) * 4;
    return out;
  };
  const tokenizer = text(tokenizerLength, 'tokenizer id');
  const chunkDigest = text(digestLength, 'chunk digest');
  const end = bytes.length - vocabularyBytes;
  if (end < at) throw new RangeError('sentence tokens: cut short before the vocabulary');
  const numbers = new Leb128Reader(bytes, at, end);
  const chunkStart = new Int32Array(chunkCount + 1);
  for (let c = 0; c < chunkCount; c += 1) chunkStart[c + 1] = chunkStart[c] + numbers.read('sentence counts');
  if (chunkStart[chunkCount] !== count) throw new RangeError(`sentence tokens: the chunks hold ${chunkStart[chunkCount]} sentences, the header says ${count}`);
  const starts = new Int32Array(count);
  const ends = new Int32Array(count);
  const tokenStart = new Int32Array(count + 1);
  for (let c = 0; c < chunkCount; c += 1) {
    let previous = 0;
    for (let n = chunkStart[c]; n < chunkStart[c + 1]; n += 1) {
      starts[n] = previous + numbers.read('sentence offsets');
      ends[n] = starts[n] + numbers.read('sentence offsets');
      tokenStart[n + 1] = tokenStart[n] + numbers.read('sentence offsets');
      previous = starts[n];
    }
  }
  if (tokenStart[count] !== tokenCount) throw new RangeError(`sentence tokens: the sentences hold ${tokenStart[count]} tokens, the header says ${tokenCount}`);
  const tokens = new Int32Array(tokenCount);
  for (let n = 0; n < count; n += 1) {
    let previous = -1;
    for (let k = tokenStart[n]; k < tokenStart[n + 1]; k += 1) tokens[k] = previous = previous + 1 + numbers.read('tokens');
  }
  if (!numbers.done) throw new RangeError('sentence tokens: numbers left over before the vocabulary');
  return {
    tokenizer,
    chunkDigest,
    chunkCount,
    chunkStart,
    starts,
    ends,
    tokenStart,
    tokens,
    vocabularyCount,
    vocabulary: Uint8Array.prototype.slice.call(bytes, end),
  };
}

/** The table of decoded parts, for the chunks `chunkIds`. Throws RangeError as `decodeSentenceTokens`. */
export function sentenceTokensFromParts(parts: SentenceTokenParts, options: { chunkIds: readonly string[] }): SentenceTokenTable {
  const { chunkIds } = options;
  if (parts.chunkCount !== chunkIds.length) throw new RangeError(`sentence tokens: made for ${parts.chunkCount} chunks, the index has ${chunkIds.length}`);
  const text = new TextDecoder('utf-8', { fatal: true }).decode(parts.vocabulary);
  const vocabulary = parts.vocabularyCount === 0 ? [] : text.split('\n');
  if (vocabulary.length !== parts.vocabularyCount) {
    throw new RangeError(`sentence tokens: ${vocabulary.length} vocabulary tokens, the header says ${parts.vocabularyCount}`);
  }
  const { tokenizer, chunkStart, starts, ends, tokenStart, tokens } = parts;
  const table = new SentenceTokenTable({ tokenizer, vocabulary, chunkIds, chunkStart, starts, ends, tokenStart, tokens });
  if (table.chunkDigest !== parts.chunkDigest) throw new RangeError('sentence tokens: made for other chunks (their ids differ)');
  return table;
}

/** Unsigned LEB128 numbers (7 bits a byte, low bits first) into blocks of bytes. */
class Leb128Writer {
  readonly #blocks: Uint8Array[] = [];
  #block = new Uint8Array(1 << 20);
  #used = 0;

  write(value: number): void {
    if (this.#used + 5 > this.#block.length) {
      this.#blocks.push(this.#block.subarray(0, this.#used));
      this.#block = new Uint8Array(1 << 20);
      this.#used = 0;
    }
    let rest = value >>> 0;
    while (rest >= 0x80) {
      this.#block[this.#used++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    this.#block[this.#used++] = rest;
  }

  parts(): Uint8Array[] {
    return [...this.#blocks, this.#block.subarray(0, this.#used)];
  }
}

/** Unsigned LEB128 numbers of `bytes[from, to)`, read in order. */
class Leb128Reader {
  #at: number;

  constructor(
    private readonly bytes: Uint8Array,
    from: number,
    private readonly to: number,
  ) {
    this.#at = from;
  }

  get done(): boolean {
    return this.#at === this.to;
  }

  read(what: string): number {
    let value = 0;
    let shift = 0;
    for (;;) {
      if (this.#at >= this.to) throw new RangeError(`sentence tokens: cut short in the ${what}`);
      const byte = this.bytes[this.#at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) break;
      shift += 7;
      if (shift > 28) throw new RangeError(`sentence tokens: a number of more than 32 bits in the ${what}`);
    }
    if (value > 0x7fffffff) throw new RangeError(`sentence tokens: a number of more than 31 bits in the ${what}`);
    return value;
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function checkLittleEndian(): void {
  if (!LITTLE_ENDIAN) throw new RangeError('sentence tokens: the layout is little-endian; this machine is not');
}
