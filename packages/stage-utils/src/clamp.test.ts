import { describe, expect, it } from 'vitest';
import { clamp01 } from './clamp.js';

describe('clamp01', () => {
  it('keeps [0, 1], cuts above 1, and gives 0 for negatives, NaN and infinities', () => {
    expect([0.25, 1.5, -0.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1].map(clamp01)).toEqual([0.25, 1, 0, 0, 0, 0, 1]);
  });
});
