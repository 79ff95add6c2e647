import { describe, expect, it } from 'vitest';
import { WeightedLru } from './weighted-lru.js';

describe('WeightedLru', () => {
  it('drops the least recently used once the weight passes the limit, keeps what was just set, and counts what it holds', () => {
    const cache = new WeightedLru<string, number[]>({ limit: 5, weigh: (list) => list.length });
    cache.set('a', [1, 2]);
    cache.set('b', [1, 2]);
    expect(cache.get('a')).toEqual([1, 2]); // a is now the most recently used
    cache.set('c', [1, 2]); // 6 > 5: b, the least recently used, goes
    expect(cache.get('b')).toBeUndefined();
    expect([cache.size, cache.weight]).toEqual([2, 4]);
    cache.set('big', [1, 2, 3, 4, 5, 6, 7]); // alone past the limit: kept, every other dropped
    expect([cache.size, cache.weight]).toEqual([1, 7]);
    expect(cache.get('big')).toHaveLength(7);
    cache.set('big', [1]); // set again: its old weight is taken off
    expect([cache.size, cache.weight]).toEqual([1, 1]);
  });
});
