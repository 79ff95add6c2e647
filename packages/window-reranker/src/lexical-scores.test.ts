import type { LexicalIndex, LexicalScores } from '@mosaic/spec';
import { describe, expect, it } from 'vitest';
import { indexScoresOf } from './lexical-scores.js';

/** A lexical index whose every query scores the given hits (labels in this order, some out of range). */
function fixedIndex(hits: Array<[number, number]>, size: number): LexicalIndex {
  const scores = (): LexicalScores => ({
    count: hits.length,
    labels: Int32Array.from(hits.map(([label]) => label)),
    scores: Float64Array.from(hits.map(([, score]) => score)),
  });
  return {
    size,
    search: (_query, k) => hits.slice(0, k).map(([label, score]) => ({ label, score })),
    scoreAll: scores,
  } as LexicalIndex;
}

/** What indexScoresOf gives, written the plain way: every hit's id looked up in `wanted`, in hit order. */
function reference(hits: Array<[number, number]>, windowIds: readonly string[], wanted: ReadonlySet<string>): Array<[string, number]> {
  const out = new Map<string, number>();
  for (const [label, score] of hits) {
    const id = windowIds[label];
    if (id !== undefined && wanted.has(id)) out.set(id, score);
  }
  return [...out];
}

describe('indexScoresOf', () => {
  const windowIds = Array.from({ length: 50 }, (_, i) => `w${i}`);
  const hits: Array<[number, number]> = [
    [7, 0.5],
    [3, 1],
    [49, 0.25],
    [60, 0.9],
    [0, 0.1],
    [21, 0.75],
  ];
  const lexical = fixedIndex(hits, windowIds.length);

  it('gives the wanted windows their scores in hit order, and nothing else', () => {
    const wanted = new Set(['w21', 'w3', 'w0', 'w8', 'not-a-window']);
    const scores = indexScoresOf({ lexical, windowIds, question: 'q', wanted });
    expect([...scores]).toEqual([
      ['w3', 1],
      ['w0', 0.1],
      ['w21', 0.75],
    ]);
    expect([...scores]).toEqual(reference(hits, windowIds, wanted));
  });

  it('forgets one call’s wanted windows before the next (a Map of candidates works as well)', () => {
    indexScoresOf({ lexical, windowIds, question: 'q', wanted: new Set(['w7', 'w49']) });
    const wanted = new Map([['w21', { origin: 'dense' }]]);
    expect([...indexScoresOf({ lexical, windowIds, question: 'q', wanted })]).toEqual([['w21', 0.75]]);
    expect(indexScoresOf({ lexical, windowIds, question: 'q', wanted: new Set<string>() }).size).toBe(0);
  });

  it('answers the same on random hits and wanted sets, and with ids that repeat', () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const repeated = windowIds.map((id, i) => (i % 10 === 9 ? windowIds[i - 1] : id));
    for (let round = 0; round < 50; round += 1) {
      const labels = [...new Set(Array.from({ length: 30 }, () => Math.floor(random() * 55)))];
      const someHits = labels.map((label): [number, number] => [label, Math.round(random() * 1000) / 1000]);
      const index = fixedIndex(someHits, windowIds.length);
      for (const ids of [windowIds, repeated]) {
        const wanted = new Set(Array.from({ length: 12 }, () => ids[Math.floor(random() * ids.length)]));
        expect([...indexScoresOf({ lexical: index, windowIds: ids, question: 'q', wanted })], `round ${round}`).toEqual(reference(someHits, ids, wanted));
      }
    }
  });
});
