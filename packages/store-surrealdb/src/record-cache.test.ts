import { describe, expect, it } from 'vitest';
import { RecordCache } from './record-cache.js';

describe('RecordCache', () => {
  it('keeps the maxRecords most recently used records; 0 keeps none, Infinity all', () => {
    const cache = new RecordCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.peek('a')).toBe(1); // a is now the most recently used
    cache.set('c', 3);
    expect([cache.peek('a'), cache.peek('b'), cache.peek('c')]).toEqual([1, undefined, 3]);
    expect(cache.size).toBe(2);
    cache.clear();
    expect(cache.size).toBe(0);
    const none = new RecordCache<number>(0);
    none.set('a', 1);
    expect(none.peek('a')).toBeUndefined();
    const all = new RecordCache<number>(Number.POSITIVE_INFINITY);
    for (let i = 0; i < 1000; i += 1) all.set(`r${i}`, i);
    expect(all.size).toBe(1000);
    expect(() => new RecordCache(1.5)).toThrow(/cacheRecords/);
  });
});
