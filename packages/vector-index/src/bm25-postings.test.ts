import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Bm25Index, createBm25Index } from './bm25-index.js';
import { Bm25Postings } from './bm25-postings.js';
import { createDefaultBm25Tokenizer } from './bm25-tokenizer.js';
import { winkReferenceEngine } from './__fixtures__/wink-reference-engine.js';
import { compareHits } from './vector-checks.js';
import type { VectorHit } from '@mosaic/spec';
import { seededRandom as prng } from '@mosaic/stage-utils/internal';

const vocabulary = ['insulin', 'diabetes', 'patient', 'treatment', 'fever', 'aspirin', 'pain', 'heart', 'harbour', 'village', 'running', 'cells'];

/** What search returned before the postings: wink's own search over every document, normalised and sorted. */
function viaWink(documents: string[], query: string, k: number): VectorHit[] {
  const engine = winkReferenceEngine(documents);
  const raw = engine.search(query, documents.length).map(([id, score]) => ({ label: Number(id), score }));
  const best = Math.max(0, ...raw.map((hit) => hit.score));
  if (best <= 0) return [];
  return raw
    .filter((hit) => hit.score > 0)
    .map((hit) => ({ label: hit.label, score: hit.score / best }))
    .sort(compareHits)
    .slice(0, k);
}

describe('Bm25Index postings (performance: same scores as wink-bm25 search)', () => {
  it('returns exactly what wink search gave, built and restored from JSON, for every k', () => {
    const random = prng(5);
    const pick = () => vocabulary[Math.floor(random() * vocabulary.length)];
    for (let round = 0; round < 20; round += 1) {
      const documents = Array.from({ length: 3 + Math.floor(random() * 60) }, () => Array.from({ length: 1 + Math.floor(random() * 8) }, pick).join(' '));
      const built = createBm25Index({ documents });
      const restored = Bm25Index.fromJSON(JSON.stringify(built));
      for (let q = 0; q < 10; q += 1) {
        // Repeated and unknown words included.
        const query = [...Array.from({ length: 1 + Math.floor(random() * 4) }, pick), random() < 0.3 ? 'zeppelin' : ''].join(' ');
        for (const k of [1, 3, 10, 100]) {
          const expected = viaWink(documents, query, k);
          expect(built.search(query, k)).toEqual(expected);
          expect(restored.search(query, k)).toEqual(expected);
        }
      }
    }
  }, 120_000);

  it('a query word naming an Object.prototype member does not break a restored index', () => {
    const documents = ['insulin for diabetes', 'aspirin for pain', 'the constructor of the harbour'];
    const restored = Bm25Index.fromJSON(JSON.stringify(createBm25Index({ documents })));
    expect(restored.search('tostring valueof pain', 5).map((hit) => hit.label)).toEqual([1]);
    expect(restored.search('constructor', 5).map((hit) => hit.label)).toEqual([2]);
  });

  it('builds, weight for weight, the postings wink-bm25 consolidates (real text, odd tokens, empty documents, other k1 and b)', () => {
    const tokenizer = createDefaultBm25Tokenizer();
    const tokenize = (text: string) => tokenizer.tokenize(text);
    // Real English: the lines of this repository's ARCHITECTURE.md; then tokens that are numbers or
    // name Object.prototype members, repeated tokens and documents with no token at all.
    const prose = readFileSync(new URL('../../../ARCHITECTURE.md', import.meta.url), 'utf8')
      .split('\n')
      .slice(0, 400);
    const odd = ['42 42 1e3 0 007', 'constructor __proto__ toString hasOwnProperty', '', 'the of and', 'insulin insulin insulin diabetes', '42 constructor'];
    for (const documents of [prose, [...odd, ...prose.slice(0, 50), ...odd]]) {
      for (const parameters of [
        { k1: 1.2, b: 0.75 },
        { k1: 0, b: 0 },
        { k1: 2, b: 1 },
      ]) {
        const built = Bm25Postings.build(documents, tokenize, parameters).arrays();
        const wink = Bm25Postings.fromWink(winkReferenceEngine(documents, parameters), documents.length)!.arrays();
        expect(built.tokens).toEqual(wink.tokens);
        expect(built.offsets).toEqual(wink.offsets);
        expect(built.labels).toEqual(wink.labels);
        expect(built.weights).toEqual(wink.weights);
        expect(built.labels.length).toBeGreaterThan(documents.length);
      }
    }
  });
});
