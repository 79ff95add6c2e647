import type { LexicalIndex, LexicalScores } from '@mosaic/spec';
import { describe, expect, it } from 'vitest';
import { countEveryItem, labelMapOf, readEveryItem, scoreEveryItem, searchWholeQuery, shareLabelMap } from './lexical-items.js';

const hits = [
  { label: 2, score: 1 },
  { label: 0, score: 0.5 },
];

/** An index that lends `lent` (withScores, and gives it from scoreAll), each call recorded in `calls`. */
function lendingIndex(calls: string[], lent: LexicalScores): LexicalIndex {
  return {
    search: () => {
      calls.push('search');
      return hits;
    },
    scoreAll: () => {
      calls.push('scoreAll');
      return lent;
    },
    withScores: (query, read) => {
      calls.push(`withScores ${query}`);
      return read(lent);
    },
  };
}

/** An index with `search` alone, each call recorded in `calls` with its query and k. */
function searchingIndex(calls: string[]): LexicalIndex {
  return {
    search: (query, k) => {
      calls.push(`search ${query} ${k}`);
      return hits;
    },
  };
}

describe('scoreEveryItem', () => {
  it('reads scoreAll when the index has it, else turns one search over all items into the same shape', () => {
    const asked: number[] = [];
    const searchOnly: LexicalIndex = {
      search: (_query, k) => {
        asked.push(k);
        return hits;
      },
    };
    expect(scoreEveryItem(searchOnly, 'q', 7)).toEqual({ count: 2, labels: [2, 0], scores: [1, 0.5] });
    expect(asked).toEqual([7]);
    const unsorted = { count: 1, labels: [4], scores: [1] };
    const withScoreAll: LexicalIndex = { ...searchOnly, scoreAll: () => unsorted };
    expect(scoreEveryItem(withScoreAll, 'q', 7)).toBe(unsorted);
    expect(asked).toEqual([7]);
  });
});

describe('readEveryItem', () => {
  it("gives the reader the index's lent scores (withScores) when it lends them, else scoreEveryItem's", () => {
    const calls: string[] = [];
    const lending = lendingIndex(calls, { count: 1, labels: [4], scores: [1] });
    expect(readEveryItem(lending, 'q', 5, (scores) => [scores.count, scores.labels[0]])).toEqual([1, 4]);
    expect(calls).toEqual(['withScores q']);
    const searching = searchingIndex(calls);
    expect(readEveryItem(searching, 'q', 5, (scores) => Array.from(scores.labels))).toEqual([2, 0]);
    expect(calls).toEqual(['withScores q', 'search q 5']);
  });
});

describe('searchWholeQuery', () => {
  it("ranks the index's whole scores (best first, ties by lower label) when it gives them, else asks search", () => {
    const calls: string[] = [];
    const lending = lendingIndex(calls, { count: 6, labels: [5, 3, 9, 1, 7, 2], scores: [0.5, 1, 0.5, 0.25, 0.5, 0.75] });
    expect(searchWholeQuery(lending, 'q', 4, 10)).toEqual([
      { label: 3, score: 1 },
      { label: 2, score: 0.75 },
      { label: 5, score: 0.5 },
      { label: 7, score: 0.5 },
    ]);
    expect(searchWholeQuery(lending, 'q', 0, 10)).toEqual([]);
    expect(calls).toEqual(['withScores q', 'withScores q']);
    const searching = searchingIndex(calls);
    expect(searchWholeQuery(searching, 'q', 2, 10)).toBe(hits);
    expect(calls.at(-1)).toBe('search q 2');
  });
});

describe('searchWholeQuery with held scores', () => {
  it("holds the query's scores (the index then scores it whole), asks search while they are held, and releases them", () => {
    const calls: string[] = [];
    const index: LexicalIndex = {
      ...lendingIndex(calls, { count: 0, labels: [], scores: [] }),
      search: (query, k) => {
        calls.push(`search ${query} ${k}`);
        return hits;
      },
      holdScores: (query) => {
        calls.push(`hold ${query}`);
        return { count: 0, labels: [], scoreOf: () => undefined, release: () => calls.push(`release ${query}`) };
      },
    };
    expect(searchWholeQuery(index, 'q', 3, 10)).toBe(hits);
    expect(calls).toEqual(['hold q', 'search q 3', 'release q']);
    // An index that cannot hold this query: its whole scores are ranked as before.
    calls.length = 0;
    const declining: LexicalIndex = { ...lendingIndex(calls, { count: 2, labels: [4, 1], scores: [0.5, 1] }), holdScores: () => undefined };
    expect(searchWholeQuery(declining, 'q', 1, 10)).toEqual([{ label: 1, score: 1 }]);
    expect(calls).toEqual(['withScores q']);
  });
});

describe('countEveryItem', () => {
  it("asks the index's matchCount when it has one, else counts the items read", () => {
    const counting: LexicalIndex = { search: () => hits, matchCount: (query) => query.length };
    expect(countEveryItem(counting, 'four', 9)).toBe(4);
    expect(countEveryItem({ search: () => hits }, 'four', 9)).toBe(2);
    expect(countEveryItem({ search: () => hits, withScores: (_query, read) => read({ count: 7, labels: [], scores: [] }) }, 'q', 9)).toBe(7);
  });
});

describe('labelMapOf', () => {
  it('maps distinct ids to their positions, null when an id repeats, made once per array with a cache', () => {
    const ids = ['a', 'b', 'c'];
    const cache = new WeakMap<readonly string[], ReadonlyMap<string, number> | null>();
    const labels = labelMapOf(ids, cache);
    expect([...labels!]).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 2],
    ]);
    expect(labelMapOf(ids, cache)).toBe(labels);
    expect(labelMapOf(['a', 'b', 'a'])).toBeNull();
  });

  it('shares one map per array between callers that give no cache', () => {
    const ids = ['x', 'y'];
    const shared = labelMapOf(ids);
    expect(labelMapOf(ids)).toBe(shared);
    expect(labelMapOf([...ids])).not.toBe(shared);
    expect(labelMapOf(ids, new WeakMap())).not.toBe(shared);
  });

  it('gives a map shared for an array to later callers without a cache of their own', () => {
    const ids = ['p', 'q'];
    const given = new Map([
      ['p', 0],
      ['q', 1],
    ]);
    shareLabelMap(ids, given);
    expect(labelMapOf(ids)).toBe(given);
    expect(labelMapOf(ids, new WeakMap())).not.toBe(given);
  });
});
