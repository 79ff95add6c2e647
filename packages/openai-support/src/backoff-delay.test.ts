import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from './backoff-delay.js';

describe('backoffDelayMs', () => {
  it('doubles from retryDelayMs and caps at maxRetryDelayMs', () => {
    const delays = [0, 1, 2, 3, 4, 5, 6].map((retry) => backoffDelayMs({ retry, retryDelayMs: 500, maxRetryDelayMs: 8000 }));
    expect(delays).toEqual([0, 500, 1000, 2000, 4000, 8000, 8000]);
    expect(backoffDelayMs({ retry: 3, retryDelayMs: 0, maxRetryDelayMs: 8000 })).toBe(0);
    expect(backoffDelayMs({ retry: 1, retryDelayMs: 500, maxRetryDelayMs: 100 })).toBe(100);
  });
});
