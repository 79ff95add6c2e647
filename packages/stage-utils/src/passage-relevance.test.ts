import type { ChunkStore, LexicalIndex, SourceWindow } from '@mosaic/spec';
import { describe, expect, it } from 'vitest';
import { chunkScoresByNumber, PASSAGE_SPANS, passageRelevance } from './passage-relevance.js';

// Three windows: w-cml over chunk cml#0, w-garden over garden#0, w-both over both. BM25 scores of the
// query, already divided by the best window (what LexicalIndex.search and scoreAll return).
const windows: SourceWindow[] = [
  { id: 'w-cml', documentId: 'cml', chunkIds: ['cml#0'], start: 0, end: 10, text: '' },
  { id: 'w-garden', documentId: 'garden', chunkIds: ['garden#0'], start: 0, end: 10, text: '' },
  { id: 'w-both', documentId: 'mixed', chunkIds: ['cml#0', 'garden#0'], start: 0, end: 10, text: '' },
];
const scores = [1, 0.25, 0.5];
const chunks = {
  windowsOfChunk: (chunkId: string) => windows.filter((window) => window.chunkIds.includes(chunkId)),
} as Pick<ChunkStore, 'windowsOfChunk'> as ChunkStore;
const hits = () => scores.map((score, label) => ({ label, score }));

function indexWith(lexical: LexicalIndex | undefined) {
  return { lexical: lexical ? { windows: lexical } : undefined, windowIds: windows.map((window) => window.id), chunks };
}

/** Three windows w0…w2, window k over chunk c(k + 1) alone, listed by the chunk store's `getWindow` (so scored through its chunk table), with `lexical` as their index. */
function oneWindowPerChunk(lexical: LexicalIndex) {
  const listed: SourceWindow[] = ['c1', 'c2', 'c3'].map((chunkId, k) => ({
    id: `w${k}`,
    documentId: 'd',
    chunkIds: [chunkId],
    start: k,
    end: k + 1,
    text: '',
  }));
  const store = { getWindow: (id: string) => listed.find((window) => window.id === id), windowsOfChunk: () => [] } as Partial<ChunkStore> as ChunkStore;
  return { lexical: { windows: lexical }, windowIds: listed.map((window) => window.id), chunks: store };
}

describe('passageRelevance', () => {
  it.each([
    ['scoreAll', { search: () => [], scoreAll: () => ({ count: 3, labels: [0, 1, 2], scores }) }],
    ['search', { search: hits }],
  ] as const)('scores a chunk by its best window and a relation by its first sentences’ chunks (%s)', (_, lexical) => {
    const relevance = passageRelevance(indexWith(lexical), 'Which test confirms the findings in CML?')!;
    expect(relevance.chunk('cml#0')).toBeCloseTo(1, 12);
    expect(relevance.chunk('garden#0')).toBeCloseTo(0.5, 12);
    expect(relevance.chunk('unknown')).toBe(0);
    expect(relevance.relation({ chunkIds: ['garden#0', 'cml#0'] })).toBe(relevance.chunk('cml#0'));
    const late = Array.from({ length: PASSAGE_SPANS }, () => ({ chunkId: 'garden#0', start: 0, end: 5 }));
    expect(relevance.relation({ chunkIds: ['cml#0'], spans: [...late, { chunkId: 'cml#0', start: 0, end: 5 }] })).toBe(relevance.chunk('garden#0'));
  });

  it('scores chunks from a table of the windows when the chunk store lists them: the same numbers as a lookup per chunk', () => {
    // Seven windows over five chunks, some sharing chunks, scored unevenly (one window unhit).
    const many: SourceWindow[] = [
      { id: 'a', documentId: 'd1', chunkIds: ['c1'], start: 0, end: 1, text: '' },
      { id: 'b', documentId: 'd1', chunkIds: ['c1', 'c2'], start: 1, end: 2, text: '' },
      { id: 'c', documentId: 'd1', chunkIds: ['c2'], start: 2, end: 3, text: '' },
      { id: 'd', documentId: 'd2', chunkIds: ['c3', 'c4'], start: 0, end: 1, text: '' },
      { id: 'e', documentId: 'd2', chunkIds: ['c4'], start: 1, end: 2, text: '' },
      { id: 'f', documentId: 'd3', chunkIds: ['c5'], start: 0, end: 1, text: '' },
      { id: 'g', documentId: 'd3', chunkIds: ['c5', 'c3'], start: 1, end: 2, text: '' },
    ];
    const hit = { count: 5, labels: [6, 1, 3, 0, 4], scores: [0.125, 0.75, 1, 0.5, 0.25] };
    const lexical = { search: () => [], scoreAll: () => hit };
    const byChunk = (store: Partial<ChunkStore>) =>
      passageRelevance({ lexical: { windows: lexical }, windowIds: many.map((window) => window.id), chunks: store as ChunkStore }, 'q')!;
    const windowsOfChunk = (chunkId: string) => many.filter((window) => window.chunkIds.includes(chunkId));
    const getWindow = (id: string) => many.find((window) => window.id === id);
    const perChunk = byChunk({ windowsOfChunk });
    let lookups = 0;
    const counted = (id: string) => {
      lookups += 1;
      return windowsOfChunk(id);
    };
    const table = byChunk({ windowsOfChunk: counted, getWindow });
    for (const chunkId of ['c1', 'c2', 'c3', 'c4', 'c5', 'nowhere']) expect(table.chunk(chunkId)).toBe(perChunk.chunk(chunkId));
    expect([1, 2, 3, 4, 5].map((k) => table.chunk(`c${k}`))).toEqual([0.75, 0.75, 1, 1, 0.125]);
    expect(lookups).toBe(0);
    expect(table.relation({ chunkIds: ['c5', 'c2'] })).toBe(0.75);
    // A window the store does not hold: the per-chunk lookup, as before.
    const partial = byChunk({ windowsOfChunk: counted, getWindow: (id) => (id === 'g' ? undefined : getWindow(id)) });
    expect(partial.chunk('c3')).toBe(1);
    expect(lookups).toBe(1);
  });

  it('is undefined without a lexical window index', () => {
    expect(passageRelevance(indexWith(undefined), 'CML')).toBeUndefined();
  });

  it('scores a query once per question state: the stages of one question share it; without a state, afresh', () => {
    let scored = 0;
    const lexical = {
      search: () => [],
      scoreAll: () => {
        scored += 1;
        return { count: 3, labels: [0, 1, 2], scores };
      },
    };
    const index = indexWith(lexical);
    const state = { passageRelevance: new Map() };
    const first = passageRelevance(index, 'CML', state)!;
    expect(passageRelevance(index, 'CML', state)).toBe(first);
    expect(scored).toBe(1);
    passageRelevance(index, 'garden', state);
    expect(scored).toBe(2);
    expect([...state.passageRelevance.keys()]).toEqual(['CML', 'garden']);
    // Another question's state, or none, scores again: nothing is kept between questions.
    passageRelevance(index, 'CML', { passageRelevance: new Map() });
    const fresh = passageRelevance(index, 'CML')!;
    expect(scored).toBe(4);
    expect(fresh).not.toBe(first);
    expect(fresh.chunk('garden#0')).toBe(first.chunk('garden#0'));
    // Without a lexical window index there is nothing to score or keep.
    const none = { passageRelevance: new Map() };
    expect(passageRelevance(indexWith(undefined), 'CML', none)).toBeUndefined();
    expect(none.passageRelevance.size).toBe(0);
  });

  it("reads the index's lent scores (withScores) when it lends them: the same numbers as scoreAll's", () => {
    const hit = { count: 2, labels: [2, 0], scores: [1, 0.5] };
    let lent = 0;
    const lending: LexicalIndex = {
      search: () => [],
      withScores: (_query, read) => {
        lent += 1;
        return read(hit);
      },
    };
    const viaLending = passageRelevance(oneWindowPerChunk(lending), 'q')!;
    const viaScoreAll = passageRelevance(oneWindowPerChunk({ search: () => [], scoreAll: () => hit }), 'q')!;
    expect(lent).toBe(1);
    for (const chunkId of ['c1', 'c2', 'c3']) expect(viaLending.chunk(chunkId)).toBe(viaScoreAll.chunk(chunkId));
    expect(viaLending.chunk('c3')).toBe(1);
  });

  it("with the state's onDone, takes its chunk scores from the index's table and gives them back, zeroed, once the question is over", () => {
    const byQuery: Record<string, { count: number; labels: number[]; scores: number[] }> = {
      first: { count: 2, labels: [0, 1], scores: [1, 0.25] },
      second: { count: 1, labels: [2], scores: [1] },
    };
    const index = oneWindowPerChunk({ search: () => [], scoreAll: (query: string) => byQuery[query] });
    const one = { passageRelevance: new Map(), onDone: [] as (() => void)[] };
    const first = passageRelevance(index, 'first', one)!;
    const firstScores = chunkScoresByNumber(first)!.scores;
    expect([first.chunk('c1'), first.chunk('c2'), first.chunk('c3')]).toEqual([1, 0.25, 0]);
    expect(one.onDone).toHaveLength(1);
    for (const done of one.onDone) done();
    expect(() => first.chunk('c1')).toThrow(
      expect.objectContaining({ name: 'MosaicInvalidArgumentError', message: expect.stringMatching(/after its question was over/) }),
    );
    // The next question's relevance reuses the array, zeroed: nothing of the first question's scores remains.
    const two = { passageRelevance: new Map(), onDone: [] as (() => void)[] };
    const second = passageRelevance(index, 'second', two)!;
    expect(chunkScoresByNumber(second)!.scores).toBe(firstScores);
    expect([second.chunk('c1'), second.chunk('c2'), second.chunk('c3')]).toEqual([0, 0, 1]);
    // Without onDone (or without a state), arrays of its own: never handed back.
    const own = passageRelevance(index, 'first', { passageRelevance: new Map() })!;
    expect(chunkScoresByNumber(own)!.scores).not.toBe(firstScores);
    expect(own.chunk('c1')).toBe(1);
  });
  it('scores only the windows of the chunks asked when the index scores one window at a time (few): the same numbers, each chunk scored once', () => {
    const asked: number[] = [];
    const scorer = (label: number) => {
      asked.push(label);
      return scores[label];
    };
    const whole = () => {
      throw new Error('scored every window');
    };
    const lexical: LexicalIndex = { search: whole, scoreAll: whole, withScores: whole, scorer: () => scorer };
    const few = passageRelevance(indexWith(lexical), 'q', undefined, { few: true })!;
    const full = passageRelevance(indexWith({ search: () => [], scoreAll: () => ({ count: 3, labels: [0, 1, 2], scores }) }), 'q')!;
    expect(few.relation({ chunkIds: ['garden#0'] })).toBe(full.relation({ chunkIds: ['garden#0'] }));
    expect(asked.sort()).toEqual([1, 2]);
    for (const chunkId of ['cml#0', 'garden#0', 'unknown']) expect(few.chunk(chunkId)).toBe(full.chunk(chunkId));
    expect(few.relation({ chunkIds: ['garden#0', 'cml#0'] })).toBe(full.relation({ chunkIds: ['garden#0', 'cml#0'] }));
    // Each chunk scored once: w-garden and w-both for garden#0, then w-cml and w-both (again) for cml#0.
    expect(asked.length).toBe(4);
    expect(chunkScoresByNumber(few)).toBeUndefined();
    // An index that cannot score this query one window at a time: the whole scoring.
    const declining: LexicalIndex = { search: () => [], scoreAll: () => ({ count: 3, labels: [0, 1, 2], scores }), scorer: () => undefined };
    expect(passageRelevance(indexWith(declining), 'q', undefined, { few: true })!.chunk('garden#0')).toBe(full.chunk('garden#0'));
  });
});
