import { describe, expect, it } from 'vitest';
import { firstInOrder } from './top-k.js';

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
