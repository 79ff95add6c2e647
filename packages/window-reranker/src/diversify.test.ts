import { describe, expect, it } from 'vitest';
import type { RankedWindow } from '@mosaic/spec';
import { diversify, sharedText } from './diversify.js';

function window(id: string, documentId: string, start: number, score: number, length = 1600): RankedWindow {
  return { id, text: id, score, documentId, start, end: start + length, evidenceIds: [], scores: { bm25: score } };
}

// A and B are neighbours (B shares half of A's text); C is elsewhere in the same document; D is another document.
const A = window('A', 'd', 0, 1.0);
const B = window('B', 'd', 800, 0.95);
const C = window('C', 'd', 5000, 0.9);
const D = window('D', 'e', 0, 0.1);
const RANKED = [A, B, C, D];

describe('sharedText', () => {
  it('is the share of the shorter window that two windows of one document have in common', () => {
    expect(sharedText(A, B)).toBe(0.5);
    expect(sharedText(B, A)).toBe(0.5);
    expect(sharedText(A, C)).toBe(0);
    expect(sharedText(A, D)).toBe(0); // same offsets, another document
    expect(sharedText(A, window('inner', 'd', 400, 0, 400))).toBe(1);
    expect(sharedText(A, window('touching', 'd', 1600, 0))).toBe(0);
  });
});

describe('diversify', () => {
  it('with λ = 0 returns the first N unchanged', () => {
    const { windows, passedOver } = diversify(RANKED, 3, 0);
    expect(windows).toEqual(RANKED.slice(0, 3));
    expect(passedOver).toEqual([]);
  });

  it('lets a window that repeats half of a chosen one give way to one that adds text', () => {
    // relevance: (score − 0.1) / 0.9 → B 0.944, C 0.889. After A: B = 0.7·0.944 − 0.3·0.5 = 0.511, C = 0.7·0.889 = 0.622.
    const { windows, passedOver } = diversify(RANKED, 2, 0.3);
    expect(windows.map((w) => w.id)).toEqual(['A', 'C']);
    expect(passedOver).toEqual(['B']);
    expect(windows[0]!.score).toBeCloseTo(0.7, 12);
    expect(windows[1]!.score).toBeCloseTo(0.7 * (0.8 / 0.9), 12);
    expect(windows[1]!.scores).toEqual({ bm25: 0.9, relevance: 0.9, redundancy: 0 });
    // With a small weight the more relevant neighbour stays: 0.95·0.944 − 0.05·0.5 = 0.872 > 0.95·0.889 = 0.844.
    expect(diversify(RANKED, 2, 0.05).windows.map((w) => w.id)).toEqual(['A', 'B']);
  });

  it('returns scores that never rise, each window once, and its overlap with the windows before it', () => {
    const ranked = Array.from({ length: 12 }, (_, i) => window(`w${i}`, i % 3 === 0 ? 'x' : 'y', (i % 5) * 800, 1 - i * 0.05));
    const { windows } = diversify(ranked, 8, 0.5);
    expect(new Set(windows.map((w) => w.id)).size).toBe(8);
    for (let k = 1; k < windows.length; k += 1) expect(windows[k]!.score).toBeLessThanOrEqual(windows[k - 1]!.score);
    windows.forEach((w, k) => {
      const expected = Math.max(0, ...windows.slice(0, k).map((earlier) => sharedText(w, earlier)));
      expect(w.scores!.redundancy).toBeCloseTo(expected, 12);
    });
  });

  it('breaks ties by the input order, and handles short or empty input', () => {
    const tied = [window('p', 'a', 0, 1), window('q', 'b', 0, 0.5), window('r', 'c', 0, 0.5)];
    expect(diversify(tied, 3, 0.3).windows.map((w) => w.id)).toEqual(['p', 'q', 'r']);
    expect(diversify(tied, 10, 0.3).windows).toHaveLength(3);
    expect(diversify([], 5, 0.3)).toEqual({ windows: [], passedOver: [] });
  });

  it('rejects λ outside [0, 1)', () => {
    for (const lambda of [1, -0.1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => diversify(RANKED, 2, lambda)).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
    }
  });
});
