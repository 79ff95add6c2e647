import { describe, expect, it } from 'vitest';
import { mean, percentile } from './stats.js';

describe('stats', () => {
  it('interpolates quantiles and handles empty input', () => {
    expect(percentile([3, 1, 2, 4], 0.5)).toBe(2.5);
    expect(percentile([1, 2, 3, 4, 5], 0.95)).toBeCloseTo(4.8);
    expect(percentile([], 0.5)).toBe(0);
    expect(mean([1, 2, 3])).toBe(2);
  });
});
