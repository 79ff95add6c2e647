import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { seededRandom as prng } from '@mosaic/stage-utils/internal';
import { decodeBm25Binary, isBm25Binary } from './bm25-binary.js';
import { Bm25Index, createBm25Index, type Bm25IndexJsonV1 } from './bm25-index.js';
import { createDefaultBm25Tokenizer } from './bm25-tokenizer.js';
import { winkReferenceEngine } from './__fixtures__/wink-reference-engine.js';

// The dataset is read by path, never copied: MOSAIC_DATASETS_DIR, else ../shared beside the repository.
const MEDICAL = join(process.env.MOSAIC_DATASETS_DIR ?? fileURLToPath(new URL('../../../../shared/datasets/graphrag-bench', import.meta.url)), 'medical.json');

/** The version-1 JSON an index of `documents` had before the binary layout (wink's exportJSON). */
function winkJson(documents: readonly string[]): Bm25IndexJsonV1 {
  const tokenizer = createDefaultBm25Tokenizer();
  const wink = winkReferenceEngine(documents).exportJSON();
  return { format: 'mosaic-bm25', version: 1, tokenizer: tokenizer.id, k1: 1.2, b: 0.75, size: documents.length, wink, documents: null };
}

/** Sentences of a real corpus (Medical, when the dataset is present), else generated text. */
function corpusTexts(): string[] {
  try {
    const corpus = JSON.parse(readFileSync(MEDICAL, 'utf8')) as { context: string }[];
    return corpus
      .map((entry) => entry.context)
      .join('\n')
      .split(/(?<=[.!?])\s+/)
      .slice(0, 6000);
  } catch {
    const random = prng(11);
    const words = 'insulin diabetes patient treatment fever aspirin pain heart harbour village running cells dose renal hepatic'.split(' ');
    return Array.from({ length: 3000 }, () =>
      Array.from({ length: 5 + Math.floor(random() * 30) }, () => words[Math.floor(random() * words.length)]).join(' '),
    );
  }
}

function sameScores(a: Bm25Index, b: Bm25Index, query: string): void {
  const x = a.scoreAll(query);
  const y = b.scoreAll(query);
  expect(Array.from(y.labels)).toEqual(Array.from(x.labels));
  // Bit for bit: Float64Array equality compares every double exactly.
  expect(y.scores).toEqual(x.scores);
  expect(b.search(query, 50)).toEqual(a.search(query, 50));
}

describe('Bm25Index binary layout', () => {
  it('restores a real corpus with scores identical to the last bit to the wink-built (version-1 JSON) index', () => {
    const documents = corpusTexts();
    const viaWinkJson = Bm25Index.fromJSON(JSON.stringify(winkJson(documents)));
    const built = createBm25Index({ documents });
    const bytes = Buffer.concat(built.toBinary());
    expect(isBm25Binary(bytes)).toBe(true);
    const restored = Bm25Index.fromBinary(bytes);
    // Owned bytes: the postings are views of a copy of them (decoded in place), the scores the same.
    const ownedBytes = new Uint8Array(bytes.length);
    ownedBytes.set(bytes);
    const owned = Bm25Index.fromBinary(ownedBytes, { owned: true });
    expect(Buffer.from(ownedBytes).equals(bytes)).toBe(false);
    const viaJson = Bm25Index.fromJSON(JSON.stringify(built));
    expect(restored.size).toBe(documents.length);
    const random = prng(3);
    const queries = ['insulin resistance in type 2 diabetes', 'what causes fever', 'renal failure dose', 'the the of', 'zeppelin'];
    for (let i = 0; i < 40; i += 1) {
      const words = documents[Math.floor(random() * documents.length)].split(/\s+/);
      queries.push(words.slice(0, 1 + Math.floor(random() * 6)).join(' '));
    }
    for (const query of queries) {
      sameScores(viaWinkJson, built, query);
      sameScores(viaWinkJson, restored, query);
      sameScores(viaWinkJson, owned, query);
      sameScores(viaWinkJson, viaJson, query);
    }
    // Much smaller than wink's JSON.
    expect(bytes.length).toBeLessThan(JSON.stringify(winkJson(documents)).length / 2);
  }, 120_000);

  it('round-trips small collections and weights that are not 4-decimal', () => {
    for (const documents of [[], ['insulin for diabetes'], ['insulin for diabetes', 'aspirin for fever'], ['a b', 'b c', 'c d', 'd e']]) {
      const built = createBm25Index({ documents });
      const restored = Bm25Index.fromBinary(Buffer.concat(built.toBinary()));
      for (const query of ['insulin', 'aspirin fever diabetes', 'nothing']) sameScores(built, restored, query);
    }
    const custom = createBm25Index({ documents: ['x y', 'y z', 'z x'], tokenizer: { id: 'ws', tokenize: (text) => text.split(' ') }, k1: 1.37, b: 0.31 });
    const restored = Bm25Index.fromBinary(Buffer.concat(custom.toBinary()), { tokenizer: { id: 'ws', tokenize: (text) => text.split(' ') } });
    expect(restored.parameters).toEqual({ k1: 1.37, b: 0.31 });
    sameScores(custom, restored, 'x z');
    // Decoded apart (as a worker thread does), then checked and kept by fromDecoded.
    const decoded = Bm25Index.fromDecoded(decodeBm25Binary(Buffer.concat(custom.toBinary()), 'custom'), {
      tokenizer: { id: 'ws', tokenize: (text) => text.split(' ') },
    });
    sameScores(custom, decoded, 'x z');
    expect(() => Bm25Index.fromDecoded(decodeBm25Binary(Buffer.concat(custom.toBinary()), 'custom'), { source: 'custom' })).toThrowError(
      expect.objectContaining({ name: 'MosaicIndexMismatchError', field: 'tokenizer' }),
    );
    // float64 weights, owned: views of the bytes; and owned bytes at an odd offset are copied, not misread.
    const bytes = Buffer.concat(custom.toBinary());
    for (const shift of [0, 1]) {
      const room = new Uint8Array(bytes.length + shift);
      room.set(bytes, shift);
      const owned = Bm25Index.fromBinary(room.subarray(shift), { owned: true, tokenizer: { id: 'ws', tokenize: (text) => text.split(' ') } });
      sameScores(custom, owned, 'x z');
      sameScores(custom, owned, 'y');
    }
  });

  it('refuses truncated or altered bytes, another tokenizer, with typed errors', () => {
    const bytes = Buffer.concat(createBm25Index({ documents: ['insulin for diabetes', 'aspirin for pain', 'heart and fever'] }).toBinary());
    expect(() => Bm25Index.fromBinary(bytes.subarray(0, bytes.length - 3))).toThrowError(expect.objectContaining({ name: 'MosaicInputError' }));
    expect(() => Bm25Index.fromBinary(Buffer.from('not a bm25 state'))).toThrowError(expect.objectContaining({ name: 'MosaicInputError' }));
    const extra = Buffer.concat([bytes, Buffer.alloc(8)]);
    expect(() => Bm25Index.fromBinary(extra)).toThrowError(expect.objectContaining({ name: 'MosaicInputError' }));
    expect(() => Bm25Index.fromBinary(bytes, { tokenizer: { id: 'other', tokenize: (text) => [text] } })).toThrowError(
      expect.objectContaining({ name: 'MosaicIndexMismatchError', field: 'tokenizer' }),
    );
  });
});
