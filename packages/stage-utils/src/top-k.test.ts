import { describe, expect, it } from 'vitest';
import { seededRandom } from './seeded-random.js';
import { bestScoredPositions, bestScoredPositionsByLabel, firstInOrder, firstPositions } from './top-k.js';

describe('firstInOrder', () => {
  const byValueThenOrder = (a: { value: number; order: number }, b: { value: number; order: number }) => b.value - a.value || a.order - b.order;
  const items = Array.from({ length: 200 }, (_, order) => ({ value: (order * 37) % 23, order }));

  it('gives the first k of a full sort, for small and large k and any iterable', () => {
    const sorted = [...items].sort(byValueThenOrder);
    for (const k of [0, 1, 5, 64, 65, 199, 200, 500]) {
      expect(firstInOrder(items, k, byValueThenOrder)).toEqual(sorted.slice(0, k));
      expect(firstInOrder(new Set(items), k, byValueThenOrder)).toEqual(sorted.slice(0, k));
    }
  });

  it('returns nothing for k ≤ 0 and does not modify its input', () => {
    const input = [3, 1, 2];
    expect(firstInOrder(input, -1, (a, b) => a - b)).toEqual([]);
    expect(firstInOrder(input, 2, (a, b) => a - b)).toEqual([1, 2]);
    expect(input).toEqual([3, 1, 2]);
  });
});

describe('firstPositions', () => {
  // Many ties: 300 positions over 7 score values.
  const score = Float64Array.from({ length: 300 }, (_, i) => (i * 11) % 7);
  const before = (a: number, b: number) => score[a] > score[b] || (score[a] === score[b] && a < b);
  const odd = (i: number) => i % 2 === 1;

  it('gives the first k positions of a full sort, with and without a filter, for small and large k', () => {
    const all = Array.from(score.keys()).sort((a, b) => score[b] - score[a] || a - b);
    for (const k of [1, 2, 11, 64, 65, 150, 300, 400]) {
      expect(firstPositions(score.length, k, before)).toEqual(all.slice(0, k));
      expect(firstPositions(score.length, k, before, odd)).toEqual(all.filter(odd).slice(0, k));
    }
  });

  it('returns nothing for k ≤ 0 or no positions', () => {
    expect(firstPositions(score.length, 0, before)).toEqual([]);
    expect(firstPositions(score.length, -3, before)).toEqual([]);
    expect(firstPositions(0, 5, before)).toEqual([]);
  });
});

describe('bestScoredPositions', () => {
  it('gives the positions of the k best scores (ties by lower label), as a full sort does, labels in any order', () => {
    const random = seededRandom(3);
    for (let round = 0; round < 50; round += 1) {
      const count = Math.floor(random() * 400);
      // Few distinct scores (long runs of ties), labels a shuffled range.
      const scores = Float64Array.from({ length: count }, () => Math.floor(random() * 6) / 5);
      const labels = Int32Array.from({ length: count }, (_, i) => i).sort(() => random() - 0.5);
      const sorted = Array.from({ length: count }, (_, i) => i).sort((a, b) => scores[b] - scores[a] || labels[a] - labels[b]);
      for (const k of [0, 1, 3, 30, 64, 65, 500]) expect(bestScoredPositions(count, labels, scores, k)).toEqual(sorted.slice(0, Math.max(0, k)));
    }
  });
});

describe('bestScoredPositionsByLabel', () => {
  it('gives what bestScoredPositions gives for the scores divided by the scale, read by label', () => {
    const random = seededRandom(7);
    for (let round = 0; round < 50; round += 1) {
      const size = 1 + Math.floor(random() * 500);
      const count = Math.floor(random() * size);
      // Scores held by label (raw sums of a few weights: ties included), a shuffled part of the labels scored.
      const byLabel = Float64Array.from({ length: size }, () => Math.floor(random() * 8) * 0.1 + Math.floor(random() * 3) * 0.7);
      const labels = Int32Array.from({ length: size }, (_, i) => i)
        .sort(() => random() - 0.5)
        .subarray(0, count);
      const scale = 0.3 + random() * 4;
      const divided = Float64Array.from(labels, (label) => byLabel[label] / scale);
      for (const k of [0, 1, 3, 30, 64, 65, 500])
        expect(bestScoredPositionsByLabel(count, labels, byLabel, scale, k)).toEqual(bestScoredPositions(count, labels, divided, k));
    }
  });
});
