import { describe, expect, it } from 'vitest';
import { Bm25Index, createBm25Index } from './bm25-index.js';
import { decodeBm25Binary } from './bm25-binary.js';
import { bm25Scores } from './bm25-scoring.js';
import { createDefaultBm25Tokenizer } from './bm25-tokenizer.js';
import type { Bm25Tokenizer } from './bm25-tokenizer.js';

const documents = [
  'Aspirin reduces fever and relieves mild pain.',
  'The patient was treated with insulin for diabetes.',
  'Élodie walked through the old harbour at dawn.',
  'Insulin resistance is common in type 2 diabetes patients.',
  'A quiet village by the sea, where the harbour bells rang.',
  'Running and swimming improve cardiovascular health.',
];

describe('Bm25Index', () => {
  it('ranks documents sharing more query terms first, with scores normalised to (0, 1]', () => {
    const index = createBm25Index({ documents });
    const hits = index.search('insulin treatment for diabetic patients', 10);
    expect(hits.map((hit) => hit.label)).toEqual([1, 3]);
    expect(hits[0].score).toBe(1);
    expect(hits[1].score).toBeGreaterThan(0);
    expect(hits[1].score).toBeLessThan(1);
  });

  it('stems, drops stop words and folds diacritics', () => {
    const tokenizer = createDefaultBm25Tokenizer();
    expect(tokenizer.tokenize("The runners didn't stop; Élodie's café is 24h open. COVID-19 a 7")).toEqual([
      'runner',
      'didn',
      'stop',
      'elodi',
      'cafe',
      '24h',
      'open',
      'covid',
      '19',
      '7',
    ]);
    const index = createBm25Index({ documents });
    expect(index.search('elodie', 3).map((hit) => hit.label)).toEqual([2]);
    expect(index.search('swim run', 3).map((hit) => hit.label)).toEqual([5]);
  });

  it('returns nothing for queries without known terms, for k = 0 and for an empty collection', () => {
    const index = createBm25Index({ documents });
    expect(index.search('zeppelin', 5)).toEqual([]);
    expect(index.search('the and of', 5)).toEqual([]);
    expect(index.search('insulin', 0)).toEqual([]);
    expect(createBm25Index({ documents: [] }).search('insulin', 5)).toEqual([]);
  });

  it('clamps k and breaks ties by lower label', () => {
    const index = createBm25Index({ documents: ['red apple', 'green pear', 'red apple', 'blue plum', 'red apple'] });
    expect(index.search('apple', 10).map((hit) => hit.label)).toEqual([0, 2, 4]);
    expect(index.search('apple', 2).map((hit) => hit.label)).toEqual([0, 2]);
  });

  it('handles collections too small for wink-bm25 (1 and 2 documents)', () => {
    const one = createBm25Index({ documents: ['insulin for diabetes'] });
    expect(one.search('diabetes', 5)).toEqual([{ label: 0, score: 1 }]);
    const two = createBm25Index({ documents: ['insulin for diabetes', 'aspirin for fever'] });
    expect(two.search('aspirin fever', 5).map((hit) => hit.label)).toEqual([1]);
    expect(two.search('insulin aspirin', 5).map((hit) => hit.label)).toEqual([0, 1]);
  });

  it('uses the same formula as wink-bm25 for small collections', () => {
    const tokenizer = createDefaultBm25Tokenizer();
    const index = createBm25Index({ documents });
    const query = 'insulin diabetes harbour patients dawn';
    const raw = bm25Scores(
      documents.map((document) => tokenizer.tokenize(document)),
      tokenizer.tokenize(query),
      { k1: 1.2, b: 0.75 },
    );
    const best = Math.max(...raw.values());
    const expected = [...raw].map(([label, score]) => ({ label, score: score / best })).sort((a, b) => b.score - a.score || a.label - b.label);
    const actual = index.search(query, 10);
    expect(actual.map((hit) => hit.label)).toEqual(expected.map((hit) => hit.label));
    actual.forEach((hit, i) => {
      expect(hit.score).toBeCloseTo(expected[i].score, 9);
    });
  });

  it('round-trips through JSON, large and small', () => {
    for (const collection of [documents, documents.slice(0, 2)]) {
      const index = createBm25Index({ documents: collection, k1: 1.5, b: 0.5 });
      const restored = Bm25Index.fromJSON(JSON.stringify(index));
      expect(restored.size).toBe(collection.length);
      expect(restored.parameters).toEqual({ k1: 1.5, b: 0.5 });
      for (const query of ['insulin diabetes', 'aspirin pain fever', 'harbour']) {
        expect(restored.search(query, 5)).toEqual(index.search(query, 5));
      }
    }
  });

  it('rejects malformed JSON, another tokenizer and bad options with typed errors', () => {
    const json = createBm25Index({ documents }).toJSON();
    expect(() => Bm25Index.fromJSON('{not json')).toThrowError(expect.objectContaining({ name: 'MosaicInputError' }));
    expect(() => Bm25Index.fromJSON({ ...json, format: 'other' } as never)).toThrowError(expect.objectContaining({ name: 'MosaicInputError' }));
    expect(() => Bm25Index.fromJSON({ ...json, version: 1, wink: '[1,2]', documents: null } as never)).toThrowError(
      expect.objectContaining({ name: 'MosaicInputError' }),
    );
    expect(() => Bm25Index.fromJSON({ ...json, binary: 'bm90IGd6aXA=' })).toThrowError(expect.objectContaining({ name: 'MosaicInputError' }));
    expect(() => Bm25Index.fromJSON({ ...json, version: 3 } as never)).toThrowError(expect.objectContaining({ name: 'MosaicIndexMismatchError' }));
    expect(() => Bm25Index.fromJSON({ ...json, size: 99 })).toThrowError(expect.objectContaining({ name: 'MosaicInputError' }));
    const other: Bm25Tokenizer = { id: 'whitespace', tokenize: (text) => text.toLowerCase().split(/\s+/).filter(Boolean) };
    expect(() => Bm25Index.fromJSON(json, { tokenizer: other })).toThrowError(
      expect.objectContaining({ name: 'MosaicIndexMismatchError', field: 'tokenizer' }),
    );
    expect(() => createBm25Index({ documents, b: 2 })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError', argument: 'b' }));
    expect(() => createBm25Index({ documents: [1] as never })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
    expect(() => createBm25Index({ documents }).search('x', -1)).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
  });

  it('accepts a custom tokenizer and records its id', () => {
    const tokenizer: Bm25Tokenizer = { id: 'whitespace', tokenize: (text) => text.toLowerCase().split(/\s+/).filter(Boolean) };
    const index = createBm25Index({ documents: ['the cat', 'a dog', 'the bird'], tokenizer });
    expect(index.search('the', 5).map((hit) => hit.label)).toEqual([0, 2]);
    expect(index.toJSON().tokenizer).toBe('whitespace');
    expect(Bm25Index.fromJSON(index.toJSON(), { tokenizer }).search('the', 5)).toEqual(index.search('the', 5));
  });
});

describe('Bm25Index: repeated queries', () => {
  it('answers a query asked again (any k, interleaved with others) exactly as a fresh index does', () => {
    const documents = Array.from(
      { length: 40 },
      (_, i) => `doc ${i} ${i % 3 === 0 ? 'aspirin' : 'ibuprofen'} pain ${i % 5 === 0 ? 'fever fever' : 'swelling'} word${i}`,
    );
    const cached = createBm25Index({ documents });
    const queries = ['aspirin pain', 'fever', 'ibuprofen swelling', 'word7 aspirin', 'nothing here', 'pain', 'fever pain', 'aspirin', 'swelling word3', 'doc'];
    for (let round = 0; round < 3; round += 1) {
      for (const query of queries) {
        for (const k of [1, 5, 40]) expect(cached.search(query, k)).toEqual(createBm25Index({ documents }).search(query, k));
      }
    }
  });
});

describe('Bm25Index.scoreAll', () => {
  it('gives every matching document with the scores search gives, unsorted, the same object when asked again', () => {
    const documents = Array.from({ length: 30 }, (_, i) => `note ${i} ${i % 2 === 0 ? 'aspirin fever' : 'insulin'} ${i % 7 === 0 ? 'aspirin aspirin' : ''}`);
    const index = createBm25Index({ documents });
    const all = index.scoreAll('aspirin fever');
    const byLabel = new Map(Array.from(all.labels, (label, i) => [label, all.scores[i]]));
    const searched = index.search('aspirin fever', documents.length);
    expect(all.count).toBe(searched.length);
    for (const hit of searched) expect(byLabel.get(hit.label)).toBe(hit.score);
    expect(index.scoreAll('aspirin fever')).toBe(all);
    expect(index.scoreAll('nothing matches').count).toBe(0);
  });
});

describe('Bm25Index.scorer', () => {
  it("gives scoreAll's score of each document, 0 for one it leaves out", () => {
    const documents = Array.from(
      { length: 400 },
      (_, i) => `entry ${i} ${['aspirin fever', 'aspirin', 'fever pain', 'pain aspirin fever', 'insulin'][i % 5]} word${i % 23}`,
    );
    for (const query of ['aspirin fever', 'pain pain word3', 'insulin word7 entry', 'zeppelin', 'word11']) {
      const index = createBm25Index({ documents });
      const score = index.scorer(query)!;
      const all = createBm25Index({ documents }).scoreAll(query);
      const byLabel = new Map(Array.from(all.labels, (label, i) => [label, all.scores[i]]));
      for (let label = 0; label < documents.length; label += 1) expect(score(label)).toBe(byLabel.get(label) ?? 0);
      expect([score(-1), score(documents.length), score(1.5)]).toEqual([0, 0, 0]);
    }
  });

  it('declines postings that cannot be read one document at a time (lists out of label order)', () => {
    const decoded = decodeBm25Binary(Buffer.concat(createBm25Index({ documents: ['aspirin', 'aspirin fever', 'fever'] }).toBinary()), 'test');
    const { labels, offsets } = decoded.postings;
    // Reverse one list's labels (weights follow): the same postings, in another order.
    const t = decoded.postings.tokens.indexOf(decoded.postings.tokens.find((_, i) => offsets[i + 1] - offsets[i] > 1)!);
    labels.subarray(offsets[t], offsets[t + 1]).reverse();
    decoded.postings.weights.subarray(offsets[t], offsets[t + 1]).reverse();
    const index = Bm25Index.fromDecoded(decoded);
    expect(index.scorer('aspirin fever')).toBeUndefined();
    expect(index.search('aspirin fever', 3).map((hit) => hit.label)).toEqual(
      createBm25Index({ documents: ['aspirin', 'aspirin fever', 'fever'] })
        .search('aspirin fever', 3)
        .map((hit) => hit.label),
    );
  });
});

describe('Bm25Index.search: the top k', () => {
  it('gives, for every k, the first k of all matching documents sorted by score then label (ties included)', () => {
    // Few distinct documents repeated, so many scores tie; 150 matches exceed the sorted-list limit of 64.
    const documents = Array.from(
      { length: 150 },
      (_, i) => `case ${['aspirin fever', 'aspirin', 'fever pain', 'pain aspirin fever', 'aspirin aspirin pain'][i % 5]}`,
    );
    const index = createBm25Index({ documents });
    for (const query of ['aspirin fever', 'pain', 'case aspirin']) {
      const all = index.scoreAll(query);
      const sorted = Array.from(all.labels, (label, i) => ({ label, score: all.scores[i] })).sort((a, b) => b.score - a.score || a.label - b.label);
      expect(sorted.length).toBeGreaterThan(64);
      for (const k of [1, 2, 3, 7, 30, 63, 64, 65, 100, sorted.length, sorted.length + 5]) {
        expect(index.search(query, k)).toEqual(sorted.slice(0, k));
      }
    }
  });
});

describe('Bm25Index.withScores', () => {
  const many = Array.from({ length: 300 }, (_, i) => `item ${i} ${i % 2 === 0 ? 'aspirin' : 'insulin'} ${i % 3 === 0 ? 'fever' : 'pain'} word${i % 17}`);
  const queries = [
    'aspirin',
    'insulin fever',
    'pain',
    'word3 aspirin',
    'fever',
    'item',
    'word5',
    'insulin pain',
    'aspirin fever',
    'word1 word2',
    'nothing here',
  ];
  const copy = (scores: { count: number; labels: ArrayLike<number>; scores: ArrayLike<number> }) => ({
    count: scores.count,
    labels: Array.from(scores.labels).slice(0, scores.count),
    scores: Array.from(scores.scores).slice(0, scores.count),
  });

  it("lends scoreAll's scores, the same over many rounds of other queries as a fresh index gives", () => {
    const index = createBm25Index({ documents: many });
    for (let round = 0; round < 4; round += 1) {
      for (const query of queries) {
        const lent = index.withScores(query, (scores) => copy(scores));
        expect(lent).toEqual(copy(createBm25Index({ documents: many }).scoreAll(query)));
        expect(lent.labels).toHaveLength(lent.count);
      }
    }
    expect(index.withScores('nothing here', (scores) => scores.count)).toBe(0);
    expect(createBm25Index({ documents: [] }).withScores('aspirin', (scores) => scores.count)).toBe(0);
  });

  it('reuses the arrays of queries no longer kept, and never those scoreAll gave away', () => {
    const index = createBm25Index({ documents: many });
    const given = index.scoreAll('aspirin');
    const kept = copy(given);
    const buffers = new Set<ArrayBufferLike>();
    let reused = false;
    for (let round = 0; round < 3; round += 1) {
      for (const query of queries.slice(1)) {
        index.withScores(query, (scores) => {
          const buffer = (scores.labels as Int32Array).buffer;
          if (buffers.has(buffer)) reused = true;
          buffers.add(buffer);
          expect(buffer).not.toBe((given.labels as Int32Array).buffer);
        });
      }
    }
    // Ten queries, asked three times through eight recent ones: some arrays must have come back.
    expect(reused).toBe(true);
    expect(copy(given)).toEqual(kept);
  });

  it('prepare: makes the scoring arrays and the free arrays of the recent queries at once; queries then take those, with the same scores', () => {
    const index = createBm25Index({ documents: many });
    const bytes = index.prepare();
    // The per-document arrays (8 + 1 + 4 bytes a document, and an eighth of the collection to select in),
    // the pruned top k's two merge arrays (4 + 8 bytes an entry, as many entries as documents below 65,536),
    // two pairs of scores by document (8 + 4 bytes a document each), and nine free pairs of 512 entries
    // (the collection's 300 rounded up to a power of two; 4 + 8 bytes each).
    expect(bytes).toBe(many.length * 13 + Math.ceil(many.length / 8) * 8 + 2 * many.length * 12 + 2 * many.length * 12 + 9 * 512 * 12);
    expect(index.prepare()).toBe(bytes);
    const buffers = new Set<ArrayBufferLike>();
    for (let round = 0; round < 3; round += 1) {
      for (const query of queries) {
        const lent = index.withScores(query, (scores) => {
          if (scores.count > 0) buffers.add((scores.labels as Int32Array).buffer);
          return copy(scores);
        });
        expect(lent).toEqual(copy(createBm25Index({ documents: many }).scoreAll(query)));
      }
    }
    // Every query's list took one of the nine pairs made by prepare (of 512 entries; a query would make
    // arrays of 256 for its ≤ 256 documents): no array was made for a query.
    expect(buffers.size).toBeGreaterThan(1);
    expect(buffers.size).toBeLessThanOrEqual(9);
    for (const buffer of buffers) expect(buffer.byteLength).toBe(512 * 4);
    expect(createBm25Index({ documents: [] }).prepare()).toBe(9 * 256 * 12);
  });

  it('keeps lent scores intact while the reader asks other queries of the same index', () => {
    const index = createBm25Index({ documents: many });
    const fresh = copy(createBm25Index({ documents: many }).scoreAll('aspirin fever'));
    index.withScores('aspirin fever', (scores) => {
      // More than the recent queries kept: 'aspirin fever' leaves them while it is read.
      for (let round = 0; round < 2; round += 1) for (const query of queries) index.withScores(query, (other) => other.count);
      expect(copy(scores)).toEqual(fresh);
    });
    // Then its arrays go back to the pool and serve other queries, which still score right.
    for (const query of queries) expect(index.withScores(query, copy)).toEqual(copy(createBm25Index({ documents: many }).scoreAll(query)));
  });

  it('refuses a query that is not a string and a reader that is not a function', () => {
    const index = createBm25Index({ documents: many });
    expect(() => index.withScores(3 as unknown as string, (scores) => scores.count)).toThrow(/query/);
    expect(() => index.withScores('aspirin', undefined as unknown as () => void)).toThrow(/read/);
  });
});

describe('Bm25Index.holdScores', () => {
  const documents = Array.from({ length: 300 }, (_, i) => `item ${i} ${i % 2 === 0 ? 'aspirin' : 'insulin'} ${i % 3 === 0 ? 'fever' : 'pain'} word${i % 17}`);
  const queries = ['aspirin pain', 'fever', 'word7 aspirin aspirin', 'nothing here', 'pain', 'fever pain item', 'insulin word3', ''];
  const fresh = (query: string) => createBm25Index({ documents }).scoreAll(query);

  it("gives scoreAll's items in its order and each one's score by label, undefined for the others and once released", () => {
    const index = createBm25Index({ documents });
    for (let round = 0; round < 3; round += 1) {
      for (const query of queries) {
        const expected = fresh(query);
        const held = index.holdScores(query)!;
        expect(held.count).toBe(expected.count);
        expect(Array.from(held.labels)).toEqual(Array.from(expected.labels));
        const byLabel = new Map(Array.from(expected.labels, (label, i) => [label, expected.scores[i]]));
        for (let label = -1; label <= documents.length; label += 1) expect(held.scoreOf(label)).toBe(byLabel.get(label));
        expect(held.scoreOf(1.5)).toBeUndefined();
        held.release();
        held.release();
        if (expected.count > 0) expect(held.scoreOf(expected.labels[0])).toBeUndefined();
        // The held query's scores also answer search, scoreAll's arrays and matchCount alike.
        expect(index.search(query, 5)).toEqual(createBm25Index({ documents }).search(query, 5));
        expect(index.search(query, 100)).toEqual(createBm25Index({ documents }).search(query, 100));
        expect(index.matchCount(query)).toBe(expected.count);
      }
    }
    expect(createBm25Index({ documents: [] }).holdScores('aspirin')!.count).toBe(0);
    expect(() => index.holdScores(7 as unknown as string)).toThrow(/query/);
  });

  it('keeps held scores intact while many other queries are scored, and reuses their arrays once released', () => {
    const index = createBm25Index({ documents });
    const expected = fresh('aspirin fever');
    const held = index.holdScores('aspirin fever')!;
    for (let round = 0; round < 3; round += 1) for (const query of queries) expect(index.holdScores(query)!.count).toBe(fresh(query).count);
    // (Those holds were never released: each took arrays of its own, and the index still answers right.)
    for (let i = 0; i < expected.count; i += 1) expect(held.scoreOf(expected.labels[i])).toBe(expected.scores[i]);
    held.release();
    for (const query of queries) {
      const other = index.holdScores(query)!;
      expect(Array.from(other.labels, (label) => other.scoreOf(label))).toEqual(Array.from(fresh(query).scores));
      other.release();
    }
  });
});

describe('Bm25Index.matchCount', () => {
  it("counts what scoreAll gives, one-term queries from the postings without scoring (and without taking a recent query's place)", () => {
    const documents = Array.from({ length: 60 }, (_, i) => `entry ${i} ${i % 4 === 0 ? 'aspirin' : 'insulin'} ${i % 6 === 0 ? 'fever fever' : ''} tag${i % 9}`);
    const index = createBm25Index({ documents });
    for (const query of ['aspirin', 'Aspirin aspirin', 'insulin fever', 'fever', 'tag3', 'tag3 aspirin', 'the', 'nothing', '', 'entry']) {
      expect(index.matchCount(query)).toBe(createBm25Index({ documents }).scoreAll(query).count);
    }
    expect(createBm25Index({ documents: [] }).matchCount('aspirin')).toBe(0);
    expect(() => index.matchCount(undefined as unknown as string)).toThrow(/query/);
  });

  it('leaves out documents whose weight rounds to 0, as scoring does: a term in every one of 25,000 documents', () => {
    const documents = Array.from({ length: 25_000 }, (_, i) => `common word${i}`);
    const index = createBm25Index({ documents });
    const all = index.scoreAll('common');
    // wink rounds weights to 4 decimals: a term every document has weighs 0 and matches nothing.
    expect(all.count).toBe(0);
    expect(index.matchCount('common')).toBe(0);
    expect(index.matchCount('word7')).toBe(1);
  });
});

describe('Bm25Index: maxPostingsPerTerm', () => {
  // "aspirin" in 300 documents of varied length and counts (many weights tie), "fever" in 100, "pain" in 30.
  const documents = Array.from(
    { length: 300 },
    (_, i) => `aspirin ${i % 7 === 0 ? 'aspirin' : ''} ${i % 3 === 0 ? 'fever' : ''} ${i % 10 === 0 ? 'pain' : ''} ${'filler '.repeat(i % 5)} tag${i % 11}`,
  );
  const binary = () => Buffer.concat(createBm25Index({ documents }).toBinary());
  const capped = (cap: number) => Bm25Index.fromDecoded(decodeBm25Binary(binary(), 'test'), { maxPostingsPerTerm: cap });

  /** Raw scores with each term's list cut by hand to its `cap` largest weights (ties: lower labels), normalised by the best. */
  function expectedScores(query: string, cap: number): Map<number, number> {
    const { postings } = decodeBm25Binary(binary(), 'test');
    const raw = new Map<number, number>();
    for (const token of createDefaultBm25Tokenizer().tokenize(query)) {
      const t = postings.tokens.indexOf(token);
      if (t < 0) continue;
      const list = [];
      for (let i = postings.offsets[t]; i < postings.offsets[t + 1]; i += 1) list.push({ label: postings.labels[i], weight: postings.weights[i] });
      list.sort((a, b) => b.weight - a.weight || a.label - b.label);
      for (const { label, weight } of list.slice(0, cap)) raw.set(label, weight + (raw.get(label) ?? 0));
    }
    const best = Math.max(0, ...raw.values());
    return new Map([...raw].filter(([, score]) => score > 0).map(([label, score]) => [label, score / best]));
  }

  it("scores with each term's highest-weighted postings only, the same through scoreAll, search and scorer", () => {
    for (const cap of [1, 7, 40, 100, 299]) {
      const index = capped(cap);
      for (const query of ['aspirin', 'aspirin fever', 'fever pain aspirin', 'aspirin aspirin tag3', 'pain']) {
        const expected = expectedScores(query, cap);
        const all = index.scoreAll(query);
        expect(new Map(Array.from(all.labels, (label, i) => [label, all.scores[i]]))).toEqual(expected);
        const sorted = [...expected].map(([label, score]) => ({ label, score })).sort((a, b) => b.score - a.score || a.label - b.label);
        // A fresh index for the pruned search (a query scored whole is answered from its scores).
        for (const k of [1, 5, 30]) expect(capped(cap).search(query, k)).toEqual(sorted.slice(0, k));
        const score = capped(cap).scorer(query)!;
        for (let label = 0; label < documents.length; label += 1) expect(score(label)).toBe(expected.get(label) ?? 0);
      }
    }
  });

  it('scores exactly as without a cap when no list is longer, and then can still be saved', () => {
    const whole = createBm25Index({ documents });
    const index = capped(300);
    for (const query of ['aspirin fever', 'pain tag4']) expect(index.scoreAll(query)).toEqual(whole.scoreAll(query));
    expect(index.cutLists).toEqual({ maxPostingsPerTerm: 300, lists: 0, postings: 0 });
    expect(Buffer.concat(index.toBinary())).toEqual(binary());
  });

  it('counts what it cut, refuses to save a cut index, counts a term alone from its whole list, and checks the cap', () => {
    const index = capped(40);
    // aspirin (300), fever (100) and "filler" (240) are longer than 40; tag lists hold 27 or 28.
    expect(index.cutLists).toEqual({ maxPostingsPerTerm: 40, lists: 3, postings: 260 + 60 + 200 });
    expect(() => index.toBinary()).toThrow(expect.objectContaining({ name: 'MosaicInvalidArgumentError', argument: 'maxPostingsPerTerm' }));
    expect(() => index.toJSON()).toThrow(/maxPostingsPerTerm/);
    expect(index.matchCount('fever')).toBe(createBm25Index({ documents }).matchCount('fever'));
    expect(index.matchCount('fever')).toBe(100);
    expect(index.scoreAll('fever').count).toBe(40);
    for (const cap of [0, -1, 2.5, Number.NaN]) {
      expect(() => Bm25Index.fromDecoded(decodeBm25Binary(binary(), 'test'), { maxPostingsPerTerm: cap })).toThrow(
        expect.objectContaining({ name: 'MosaicInvalidArgumentError', argument: 'maxPostingsPerTerm' }),
      );
    }
  });
});
