import type { TextSpan } from '@mosaic/spec';
import { describe, expect, it } from 'vitest';
import { matchTokens } from './match-tokens.js';
import { seededRandom } from './seeded-random.js';
import { chunkIdsDigest, createSentenceTokens, decodeSentenceTokens, encodeSentenceTokens, MATCH_TOKENS_ID, SentenceTokenTable } from './sentence-tokens.js';

// Words with capitals, plurals, stop words, digits and letters beyond ASCII (whose sentences are
// tokenized from their slice rather than read as ASCII).
const WORDS = ['Kernel', 'drivers', 'the', 'of', 'pages', 'memory', 'CACHES', 'x86', 'café', 'İstanbul', 'Straße', 'ΣΊΣΥΦΟΣ', 'tree', 'running', 'studies'];

function corpus(seed: number): { chunks: { id: string; text: string }[]; spans: TextSpan[] } {
  const random = seededRandom(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const chunks: { id: string; text: string }[] = [];
  const spans: TextSpan[] = [];
  for (let c = 0; c < 20; c += 1) {
    const text = Array.from({ length: 40 + pick(80) }, () => WORDS[pick(WORDS.length)] + (random() < 0.1 ? '.' : '')).join(' ');
    chunks.push({ id: `doc${c % 4}#${c}`, text });
    for (let k = 0; k < 30; k += 1) {
      const start = pick(text.length);
      const end = Math.min(text.length, start + pick(60));
      spans.push({ chunkId: `doc${c % 4}#${c}`, start, end });
      // The same sentence cited again, and one of the same start and another end.
      if (k % 7 === 0) spans.push({ chunkId: `doc${c % 4}#${c}`, start, end });
      if (k % 9 === 0 && end > start) spans.push({ chunkId: `doc${c % 4}#${c}`, start, end: end - 1 });
    }
  }
  return { chunks, spans };
}

const tokensOf = (table: SentenceTokenTable, n: number) => [...table.tokens.subarray(table.tokenStart[n], table.tokenStart[n + 1])];

describe('createSentenceTokens', () => {
  it('holds each distinct span once with the distinct matchTokens of its slice, and finds it by chunk id and offsets', () => {
    for (const seed of [1, 2, 3]) {
      const { chunks, spans } = corpus(seed);
      const table = createSentenceTokens({ chunks, spans });
      const texts = new Map(chunks.map((chunk) => [chunk.id, chunk.text]));
      const distinct = new Set(spans.map((span) => `${span.chunkId} ${span.start} ${span.end}`));
      expect(table.count).toBe(distinct.size);
      expect(table.tokenizer).toBe(MATCH_TOKENS_ID);
      for (const span of spans) {
        const n = table.sentence(span.chunkId, span.start, span.end);
        expect(n).toBeGreaterThanOrEqual(0);
        const held = tokensOf(table, n);
        expect(held.map((token) => table.vocabulary[token]).sort()).toEqual(
          [...new Set(matchTokens(texts.get(span.chunkId)!.slice(span.start, span.end)))].sort(),
        );
        // Ascending numbers, each once.
        for (let k = 1; k < held.length; k += 1) expect(held[k]).toBeGreaterThan(held[k - 1]);
      }
      // Numbered by how many sentences hold a token, most first.
      const held = new Array<number>(table.vocabulary.length).fill(0);
      for (const token of table.tokens) held[token] += 1;
      for (let t = 1; t < held.length; t += 1) expect(held[t]).toBeLessThanOrEqual(held[t - 1]);
      expect(new Set(table.vocabulary).size).toBe(table.vocabulary.length);
    }
  });

  it('leaves out spans of unknown chunks and spans whose offsets do not fit their chunk, and answers −1 for what it does not hold', () => {
    const chunks = [
      { id: 'a', text: 'Kernel drivers page memory.' },
      { id: 'b', text: 'The cache of trees.' },
    ];
    const table = createSentenceTokens({
      chunks,
      spans: [
        { chunkId: 'a', start: 0, end: 14 },
        { chunkId: 'a', start: 0, end: 27 },
        { chunkId: 'b', start: 4, end: 19 },
        { chunkId: 'c', start: 0, end: 3 },
        { chunkId: 'b', start: -1, end: 3 },
        { chunkId: 'b', start: 5, end: 40 },
        { chunkId: 'b', start: 6, end: 2 },
        { chunkId: 'b', start: 1.5, end: 3 },
      ],
    });
    expect(table.count).toBe(3);
    expect(tokensOf(table, table.sentence('a', 0, 14)).map((t) => table.vocabulary[t])).toEqual(['kernel', 'driver']);
    expect(
      tokensOf(table, table.sentence('b', 4, 19))
        .map((t) => table.vocabulary[t])
        .sort(),
    ).toEqual(['cache', 'tree']);
    expect(table.sentence('a', 0, 13)).toBe(-1);
    expect(table.sentence('a', 1, 14)).toBe(-1);
    expect(table.sentence('c', 0, 3)).toBe(-1);
    expect(table.sentence('b', -1, 3)).toBe(-1);
    expect(table.sentence('b', 5, 40)).toBe(-1);
    // By chunk number: the same sentences, and −1 for numbers that are no chunk's.
    const a = table.chunkNumber('a')!;
    const b = table.chunkNumber('b')!;
    expect([a, b].sort()).toEqual([0, 1]);
    expect(table.chunkNumber('c')).toBeUndefined();
    expect(table.sentenceInChunk(a, 0, 14)).toBe(table.sentence('a', 0, 14));
    expect(table.sentenceInChunk(a, 0, 27)).toBe(table.sentence('a', 0, 27));
    expect(table.sentenceInChunk(b, 4, 19)).toBe(table.sentence('b', 4, 19));
    expect(table.sentenceInChunk(a, 4, 19)).toBe(-1);
    expect(table.sentenceInChunk(b, 0, 14)).toBe(-1);
    for (const wrong of [-1, 2, 0.5, Number.NaN]) expect(table.sentenceInChunk(wrong, 0, 14)).toBe(-1);
  });

  it('gives the vocabulary position of a token, and refuses to when the vocabulary holds a token twice', () => {
    const { chunks, spans } = corpus(2);
    const table = createSentenceTokens({ chunks, spans });
    expect(table.vocabulary.length).toBeGreaterThan(3);
    for (const [n, token] of table.vocabulary.entries()) expect(table.tokenNumber(token)).toBe(n);
    expect(table.tokenNumber('nosuchwordanywhere')).toBeUndefined();
    const twice = new SentenceTokenTable({
      tokenizer: MATCH_TOKENS_ID,
      vocabulary: ['kernel', 'page', 'kernel'],
      chunkIds: ['a'],
      chunkStart: Int32Array.of(0, 1),
      starts: Int32Array.of(0),
      ends: Int32Array.of(4),
      tokenStart: Int32Array.of(0, 1),
      tokens: Int32Array.of(2),
    });
    expect(twice.sentence('a', 0, 4)).toBe(0);
    expect(() => twice.tokenNumber('page')).toThrow(/holds "kernel" twice/);
  });

  it('refuses arrays that disagree', () => {
    const base = {
      tokenizer: MATCH_TOKENS_ID,
      vocabulary: ['kernel'],
      chunkIds: ['a'],
      chunkStart: Int32Array.of(0, 2),
      starts: Int32Array.of(0, 5),
      ends: Int32Array.of(4, 9),
      tokenStart: Int32Array.of(0, 1, 1),
      tokens: Int32Array.of(0),
    };
    expect(() => new SentenceTokenTable(base)).not.toThrow();
    expect(() => new SentenceTokenTable({ ...base, chunkStart: Int32Array.of(0, 1) })).toThrow(/chunk starts/);
    expect(() => new SentenceTokenTable({ ...base, starts: Int32Array.of(5, 0) })).toThrow(/out of order|offsets/);
    expect(() => new SentenceTokenTable({ ...base, tokens: Int32Array.of(1) })).toThrow(/token 1 out of/);
    expect(() => new SentenceTokenTable({ ...base, tokenStart: Int32Array.of(0, 2, 1) })).toThrow(/token starts/);
  });
});

describe('encodeSentenceTokens / decodeSentenceTokens', () => {
  it('give back the same table, and refuse bytes cut short, of another layout or made for other chunks', () => {
    const { chunks, spans } = corpus(4);
    const table = createSentenceTokens({ chunks, spans });
    const bytes = Buffer.concat(encodeSentenceTokens(table));
    const chunkIds = chunks.map((chunk) => chunk.id);
    // Decoded from a Buffer that does not start its ArrayBuffer (as a gunzipped file's may not).
    const shifted = Buffer.concat([Buffer.from([1, 2, 3]), bytes]).subarray(3);
    for (const input of [new Uint8Array(bytes), shifted]) {
      const back = decodeSentenceTokens(input, { chunkIds });
      expect(back.tokenizer).toBe(table.tokenizer);
      expect(back.vocabulary).toEqual(table.vocabulary);
      expect([...back.chunkStart]).toEqual([...table.chunkStart]);
      expect([...back.starts]).toEqual([...table.starts]);
      expect([...back.ends]).toEqual([...table.ends]);
      expect([...back.tokenStart]).toEqual([...table.tokenStart]);
      expect([...back.tokens]).toEqual([...table.tokens]);
      for (const span of spans) expect(back.sentence(span.chunkId, span.start, span.end)).toBe(table.sentence(span.chunkId, span.start, span.end));
    }
    expect(() => decodeSentenceTokens(bytes.subarray(0, bytes.length - 200), { chunkIds })).toThrow(/cut short|vocabulary|tokens/);
    expect(() => decodeSentenceTokens(bytes.subarray(0, 20), { chunkIds })).toThrow(/cut short in the header/);
    const magic = Buffer.from(bytes);
    magic[0] ^= 0xff;
    expect(() => decodeSentenceTokens(magic, { chunkIds })).toThrow(/wrong magic/);
    expect(() => decodeSentenceTokens(bytes, { chunkIds: chunkIds.slice(1) })).toThrow(/made for 20 chunks, the index has 19/);
    expect(() => decodeSentenceTokens(bytes, { chunkIds: [...chunkIds].reverse() })).toThrow(/other chunks/);
  });

  it('reads an empty table', () => {
    const table = createSentenceTokens({ chunks: [{ id: 'a', text: '' }], spans: [] });
    const back = decodeSentenceTokens(Buffer.concat(encodeSentenceTokens(table)), { chunkIds: ['a'] });
    expect(back.count).toBe(0);
    expect(back.vocabulary).toEqual([]);
    expect(back.sentence('a', 0, 0)).toBe(-1);
  });
});

describe('chunkIdsDigest', () => {
  it('differs with the ids, their order and where one ends', () => {
    const digests = [['a', 'b'], ['b', 'a'], ['ab'], ['a', 'b', ''], ['a\nb', ''], ['a\n', 'b'], []].map(chunkIdsDigest);
    expect(new Set(digests).size).toBe(digests.length);
    expect(chunkIdsDigest(['a', 'b'])).toBe(chunkIdsDigest(['a', 'b']));
  });
});
