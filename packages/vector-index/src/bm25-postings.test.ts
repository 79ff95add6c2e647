import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Bm25Index, createBm25Index } from './bm25-index.js';
import { Bm25Postings } from './bm25-postings.js';
import { bm25Scores } from './bm25-scoring.js';
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

describe('Bm25Postings.topCandidates: a pruned top k', () => {
  /** A collection of rare and common words (Zipf-like), with repeated documents for ties. */
  function collection(seed: number, size: number): string[] {
    const random = prng(seed);
    const words = Array.from({ length: 400 }, (_, i) => `w${i}x`);
    const pick = () => words[Math.min(words.length - 1, Math.floor(1 / (random() + 0.0025)) - 1)];
    const documents: string[] = [];
    for (let d = 0; d < size; d += 1) {
      documents.push(d > 0 && random() < 0.1 ? documents[Math.floor(random() * d)] : Array.from({ length: 2 + Math.floor(random() * 10) }, pick).join(' '));
    }
    return documents;
  }

  it('gives the same top k as scoring every document, ties and repeated words included, reading less of the postings', () => {
    const random = prng(11);
    let pruned = 0;
    for (const [seed, size] of [
      [3, 400],
      [4, 5000],
    ]) {
      const documents = collection(seed, size);
      const pruning = createBm25Index({ documents });
      const postings = Bm25Postings.build(documents, (text) => pruning.tokenizer.tokenize(text), pruning.parameters);
      for (let q = 0; q < 120; q += 1) {
        // A rare word or two with common ones, sometimes repeated, sometimes unknown.
        const query = Array.from({ length: 1 + Math.floor(random() * 5) }, () =>
          random() < 0.4 ? `w${Math.floor(random() * 400)}x` : random() < 0.1 ? 'zeppelin' : `w${Math.floor(random() * 6)}x`,
        ).join(' ');
        for (const k of [1, 5, 30, 200]) {
          // The reference: every matching document scored (scoreAll), normalised, sorted, cut at k.
          const reference = createBm25Index({ documents });
          const all = reference.scoreAll(query);
          const expected = Array.from({ length: all.count }, (_, i) => ({ label: all.labels[i], score: all.scores[i] }))
            .sort(compareHits)
            .slice(0, k);
          expect(pruning.search(query, k)).toEqual(expected);
          const candidates = postings.topCandidates(pruning.tokenizer.tokenize(query), k)!;
          expect(candidates.postingsRead).toBeLessThanOrEqual(candidates.postingsListed);
          if (candidates.postingsRead < candidates.postingsListed) pruned += 1;
        }
      }
    }
    expect(pruned).toBeGreaterThan(50);
  }, 120_000);

  it('scores a candidate exactly as score does (the same additions in order), and gives the best document', () => {
    const documents = collection(5, 3000);
    const tokenizer = createDefaultBm25Tokenizer();
    const postings = Bm25Postings.build(documents, (text) => tokenizer.tokenize(text), { k1: 1.2, b: 0.75 });
    for (const query of ['w0x w1x w0x w37x', 'w250x w2x w3x', 'w1x', 'w399x w398x w0x w0x w0x']) {
      const tokens = tokenizer.tokenize(query);
      const full = postings.score(tokens, (count) => ({ labels: new Int32Array(count), scores: new Float64Array(count) }));
      const exact = new Map(Array.from({ length: full.count }, (_, i) => [full.labels[i], full.scores[i]]));
      const best = Math.max(...exact.values());
      const candidates = postings.topCandidates(tokens, 10)!;
      expect(candidates.count).toBeGreaterThanOrEqual(Math.min(10, full.count));
      for (let i = 0; i < candidates.count; i += 1) expect(candidates.scores[i]).toBe(exact.get(candidates.labels[i]));
      expect(Math.max(...candidates.scores.subarray(0, candidates.count))).toBe(best);
    }
  });

  it('bestScore is the best raw score of a full scoring, for one word (repeated or not) from its largest weight, lists cut or not', () => {
    const documents = collection(8, 3000);
    const tokenizer = createDefaultBm25Tokenizer();
    const tokenize = (text: string) => tokenizer.tokenize(text);
    const whole = Bm25Postings.build(documents, tokenize, { k1: 1.2, b: 0.75 });
    // Cutting rewrites the arrays in place: the cut postings get copies.
    const arrays = whole.arrays();
    const copies = { tokens: arrays.tokens, offsets: arrays.offsets.slice(), labels: arrays.labels.slice(), weights: arrays.weights.slice() };
    const cut = Bm25Postings.fromArrays(copies, whole.size, { maxPostingsPerTerm: 40 });
    expect(cut.cutLists.lists).toBeGreaterThan(0);
    let oneWord = 0;
    for (const postings of [whole, cut]) {
      for (const query of ['w0x', 'w0x w0x', 'w1x w1x w1x', 'w399x', 'w37x', 'zeppelin', 'zeppelin w2x', 'w0x w1x w0x w37x', 'w250x w2x w3x', '']) {
        const tokens = tokenize(query);
        const full = postings.score(tokens, (count) => ({ labels: new Int32Array(count), scores: new Float64Array(count) }));
        const expected = full.count === 0 ? 0 : Math.max(...full.scores.subarray(0, full.count));
        expect(postings.bestScore(tokens), `${query} (${postings === cut ? 'cut' : 'whole'})`).toBe(expected);
        if (new Set(postings.termsOf(tokens)).size === 1) oneWord += 1;
      }
    }
    expect(oneWord).toBeGreaterThanOrEqual(10);
  });

  it('gives the candidates (in label order) and the postings read that a plain pruning over one score per document gives', () => {
    // Random postings: some long lists, ties and weights of 0 among them.
    const random = prng(29);
    const size = 4000;
    const tokens = Array.from({ length: 24 }, (_, t) => `t${t}`);
    const offsets = [0];
    const labels: number[] = [];
    const weights: number[] = [];
    for (let t = 0; t < tokens.length; t += 1) {
      const share = t % 6 === 0 ? 0.5 : t % 3 === 0 ? 0.1 : 0.01;
      for (let label = 0; label < size; label += 1) {
        if (random() >= share) continue;
        labels.push(label);
        weights.push(random() < 0.05 ? 0 : random() < 0.2 ? 1.5 : Math.round(random() * 4000) / 1000);
      }
      offsets.push(labels.length);
    }
    const arrays = { tokens, offsets: Int32Array.from(offsets), labels: Int32Array.from(labels), weights: Float64Array.from(weights) };
    const postings = Bm25Postings.fromArrays(arrays, size);
    /** The pruning with one partial score per document, written where each posting's document falls. */
    const dense = (query: string[], k: number) => {
      const slack = 1e-9;
      const times = new Map<number, number>();
      for (const token of query) {
        const t = tokens.indexOf(token);
        if (t >= 0) times.set(t, (times.get(t) ?? 0) + 1);
      }
      const most = (t: number) => Math.max(0, ...weights.slice(offsets[t], offsets[t + 1]));
      const lists = [...times].map(([index, repeats]) => ({ index, repeats, most: most(index) * repeats }));
      lists.sort((a, b) => b.most - a.most || a.index - b.index);
      const after = lists.map((_, j) => lists.slice(j + 1).reduce((sum, list) => sum + list.most, 0));
      const partial = new Float64Array(size);
      const touched: number[] = [];
      const kth = () => [...touched.map((label) => partial[label])].sort((a, b) => b - a)[k - 1];
      let read = 0;
      let level = 0;
      let postingsRead = 0;
      while (read < lists.length) {
        const { index, repeats } = lists[read];
        postingsRead += offsets[index + 1] - offsets[index];
        for (let i = offsets[index]; i < offsets[index + 1]; i += 1) {
          const before = partial[labels[i]];
          partial[labels[i]] = before + weights[i] * repeats;
          if (before === 0 && partial[labels[i]] !== 0) touched.push(labels[i]);
        }
        read += 1;
        if (touched.length < k) continue;
        level = kth();
        if (read < lists.length && after[read - 1] * (1 + slack) < level * (1 - slack)) break;
      }
      for (let j = read; j < lists.length; j += 1) {
        const { index, repeats } = lists[j];
        for (let i = offsets[index]; i < offsets[index + 1]; i += 1) if (partial[labels[i]] !== 0) partial[labels[i]] += weights[i] * repeats;
      }
      if (read < lists.length) level = kth();
      const floor = touched.length < k ? Number.NEGATIVE_INFINITY : level * (1 - slack);
      // topCandidates gives them in label order.
      return { labels: touched.filter((label) => partial[label] >= floor).sort((a, b) => a - b), postingsRead };
    };
    let pruned = 0;
    let oneTerm = 0;
    for (let q = 0; q < 200; q += 1) {
      const query = Array.from({ length: 1 + Math.floor(random() * 5) }, () => (random() < 0.05 ? 'unknown' : tokens[Math.floor(random() * tokens.length)]));
      // A query of one distinct term (once or repeated) takes the single-list path.
      if (new Set(query.filter((token) => token !== 'unknown')).size === 1) oneTerm += 1;
      for (const k of [1, 3, 20, 150]) {
        const expected = dense(query, k);
        const candidates = postings.topCandidates(query, k)!;
        expect([...candidates.labels.subarray(0, candidates.count)]).toEqual(expected.labels);
        expect(candidates.postingsRead).toBe(expected.postingsRead);
        const known = postings.termsOf(query);
        for (let i = 0; i < candidates.count; i += 1) expect(candidates.scores[i]).toBe(postings.scoreOf(known, candidates.labels[i]));
        if (candidates.postingsRead < candidates.postingsListed) pruned += 1;
      }
    }
    expect(pruned).toBeGreaterThan(100);
    expect(oneTerm).toBeGreaterThan(30);
  }, 120_000);

  it('declines postings whose labels do not ascend within a list (score still answers)', () => {
    const postings = Bm25Postings.fromArrays(
      { tokens: ['a', 'b'], offsets: Int32Array.from([0, 2, 3]), labels: Int32Array.from([1, 0, 2]), weights: Float64Array.from([1, 2, 3]) },
      3,
    );
    expect(postings.topCandidates(['a'], 1)).toBeUndefined();
    const full = postings.score(['a', 'b'], (count) => ({ labels: new Int32Array(count), scores: new Float64Array(count) }));
    expect(full.count).toBe(3);
  });

  it('scores documents in the order their postings first met them, as one running sum a document, with weights of 0 and below', () => {
    const allocate = (count: number) => ({ labels: new Int32Array(count), scores: new Float64Array(count) });
    const asPairs = (raw: { count: number; labels: Int32Array; scores: Float64Array }) =>
      Array.from({ length: raw.count }, (_, i) => [raw.labels[i], raw.scores[i]]);
    // Token lists: a = docs 0, 1, 2 (doc 1 weighs 0), b = docs 1, 3 (doc 3 weighs 0), c = docs 0, 3.
    const arrays = (weights: number[]) => ({
      tokens: ['a', 'b', 'c'],
      offsets: Int32Array.from([0, 3, 5, 7]),
      labels: Int32Array.from([0, 1, 2, 1, 3, 0, 3]),
      weights: Float64Array.from(weights),
    });
    // Weights ≥ 0: a document is placed at its first weight above 0 (doc 1 after doc 2), one met only by 0s (doc 3 for "a b") is left out.
    const nonNegative = Bm25Postings.fromArrays(arrays([0.5, 0, 0.25, 0.75, 0, 1.5, 2]), 4);
    expect(asPairs(nonNegative.score(['a', 'b'], allocate))).toEqual([
      [0, 0.5],
      [2, 0.25],
      [1, 0.75],
    ]);
    expect(asPairs(nonNegative.score(['b', 'c', 'a', 'c'], allocate))).toEqual([
      [1, 0.75],
      [0, 1.5 + 0.5 + 1.5],
      [3, 2 + 2],
      [2, 0.25],
    ]);
    // The scratch arrays are left clean: the same query again gives the same.
    expect(asPairs(nonNegative.score(['a', 'b'], allocate))).toEqual([
      [0, 0.5],
      [2, 0.25],
      [1, 0.75],
    ]);
    // A weight below 0: every document met is given, in the order first met, its sum even when 0.
    const signed = Bm25Postings.fromArrays(arrays([0.5, 0, 0.25, -0.75, 0, 1.5, 2]), 4);
    expect(asPairs(signed.score(['a', 'b'], allocate))).toEqual([
      [0, 0.5],
      [1, -0.75],
      [2, 0.25],
      [3, 0],
    ]);
    expect(asPairs(signed.score(['b', 'a'], allocate))).toEqual([
      [1, -0.75],
      [3, 0],
      [0, 0.5],
      [2, 0.25],
    ]);
  });
});

describe('Bm25Postings.scoreByDocument: scores kept where they were added', () => {
  const allocate = (count: number) => ({ labels: new Int32Array(count), scores: new Float64Array(count) });

  it("gives score's documents, order and raw scores, each at its label, and the best; released arrays come back clean for the next query", () => {
    const random = prng(23);
    const words = Array.from({ length: 60 }, (_, i) => `w${i}x`);
    const pick = () => words[Math.min(words.length - 1, Math.floor(1 / (random() + 0.02)) - 1)];
    const documents = Array.from({ length: 800 }, () => Array.from({ length: 1 + Math.floor(random() * 9) }, pick).join(' '));
    const tokenizer = createDefaultBm25Tokenizer();
    const postings = Bm25Postings.build(documents, (text) => tokenizer.tokenize(text), { k1: 1.2, b: 0.75 });
    const tokenized = documents.map((text) => tokenizer.tokenize(text));
    const rawBuffers = new Set<ArrayBufferLike>();
    let held: NonNullable<ReturnType<Bm25Postings['scoreByDocument']>>[] = [];
    for (let q = 0; q < 80; q += 1) {
      // Repeated and unknown words, no word at all, and rare words only (a few documents: cleared one by one, not swept).
      const rare = q % 4 === 0;
      const query = Array.from({ length: Math.floor(random() * 5) }, () =>
        random() < 0.1 ? 'zeppelin' : rare ? words[30 + Math.floor(random() * 30)] : pick(),
      );
      // The reference: the formula over the tokenised documents, one running sum a document in query order
      // (bm25Scores), documents in the order first met, those whose sum stays 0 left out.
      const reference = [...bm25Scores(tokenized, query, { k1: 1.2, b: 0.75 })].filter(([, score]) => score > 0);
      const scores = postings.scoreByDocument(query)!;
      rawBuffers.add(scores.raw.buffer);
      expect(Array.from(scores.labels.subarray(0, scores.count))).toEqual(reference.map(([label]) => label));
      let best = 0;
      for (const [label, score] of reference) {
        expect(scores.raw[label]).toBe(score);
        best = Math.max(best, score);
      }
      expect(scores.best).toBe(best);
      // score gives the same, copied out.
      const copied = postings.score(query, allocate);
      expect(Array.from(copied.scores.subarray(0, copied.count))).toEqual(reference.map(([, score]) => score));
      // Every other document reads 0, whatever earlier queries scored with these arrays.
      const scored = new Set(reference.map(([label]) => label));
      for (let d = 0; d < documents.length; d += 1) if (!scored.has(d)) expect(scores.raw[d]).toBe(0);
      // Some queries are held across another (their arrays are then not reused), the rest released at once.
      held.push(scores);
      if (held.length > q % 2) {
        for (const old of held) postings.release(old);
        held = [];
      }
    }
    // Released arrays served later queries: two pairs (two held at once at most), not one a query.
    expect(rawBuffers.size).toBe(2);
  });

  it('leaves held scores intact while other queries are scored, and ignores a second release', () => {
    const tokenizer = createDefaultBm25Tokenizer();
    const documents = ['aspirin fever', 'aspirin pain pain', 'fever', 'insulin', 'pain fever aspirin'];
    const postings = Bm25Postings.build(documents, (text) => tokenizer.tokenize(text), { k1: 1.2, b: 0.75 });
    const first = postings.scoreByDocument(tokenizer.tokenize('aspirin pain'))!;
    const before = Array.from(first.raw);
    for (const query of ['fever', 'insulin aspirin', 'pain', 'fever fever']) postings.release(postings.scoreByDocument(tokenizer.tokenize(query))!);
    expect(Array.from(first.raw)).toEqual(before);
    postings.release(first);
    // A second release would hand the same arrays out twice: the next two queries must not share them.
    postings.release(first);
    const a = postings.scoreByDocument(tokenizer.tokenize('fever'))!;
    const b = postings.scoreByDocument(tokenizer.tokenize('insulin'))!;
    expect(a.raw).not.toBe(b.raw);
    expect(a.raw[3]).toBe(0);
    expect(b.raw[3]).toBeGreaterThan(0);
  });

  it('declines postings with a weight below 0 (score still answers)', () => {
    const signed = Bm25Postings.fromArrays(
      { tokens: ['a', 'b'], offsets: Int32Array.from([0, 2, 3]), labels: Int32Array.from([0, 1, 1]), weights: Float64Array.from([0.5, -0.25, 1]) },
      2,
    );
    expect(signed.scoreByDocument(['a'])).toBeUndefined();
    expect(signed.score(['a', 'b'], allocate).count).toBe(2);
  });
});
