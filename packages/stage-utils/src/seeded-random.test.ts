import { describe, expect, it } from 'vitest';
import { seededRandom } from './seeded-random.js';

describe('seededRandom', () => {
  it('repeats for a seed, differs across seeds, stays in [0, 1)', () => {
    const a = Array.from({ length: 50 }, seededRandom(7));
    const b = Array.from({ length: 50 }, seededRandom(7));
    const c = Array.from({ length: 50 }, seededRandom(8));
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    for (const x of a) expect(x >= 0 && x < 1).toBe(true);
  });
});
