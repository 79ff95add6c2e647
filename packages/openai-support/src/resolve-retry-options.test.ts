import { describe, expect, it } from 'vitest';
import { resolveRetryOptions } from './resolve-retry-options.js';

const defaults = { timeoutMs: 20000, maxRetries: 2 };

function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('resolveRetryOptions', () => {
  it('fills in the defaults', () => {
    expect(resolveRetryOptions({}, defaults)).toEqual({ timeoutMs: 20000, maxRetries: 2, retryDelayMs: 500, maxRetryDelayMs: 8000 });
  });

  it('keeps given values and rounds the timeout to whole milliseconds (at least 1)', () => {
    expect(resolveRetryOptions({ timeoutMs: 1234.6, maxRetries: 0, retryDelayMs: 0, maxRetryDelayMs: 10 }, defaults)).toEqual({
      timeoutMs: 1235,
      maxRetries: 0,
      retryDelayMs: 0,
      maxRetryDelayMs: 10,
    });
    expect(resolveRetryOptions({ timeoutMs: 0.2 }, defaults).timeoutMs).toBe(1);
  });

  it.each([
    ['timeoutMs', { timeoutMs: 0 }],
    ['timeoutMs', { timeoutMs: -5 }],
    ['timeoutMs', { timeoutMs: Number.NaN }],
    ['timeoutMs', { timeoutMs: Number.POSITIVE_INFINITY }],
    ['maxRetries', { maxRetries: -1 }],
    ['maxRetries', { maxRetries: 1.5 }],
    ['retryDelayMs', { retryDelayMs: -1 }],
    ['retryDelayMs', { retryDelayMs: Number.NaN }],
    ['maxRetryDelayMs', { maxRetryDelayMs: -1 }],
    ['maxRetryDelayMs', { maxRetryDelayMs: Number.POSITIVE_INFINITY }],
  ])('rejects an invalid %s (%o) with InvalidArgumentError', (argument, options) => {
    expect(errorOf(() => resolveRetryOptions(options, defaults))).toMatchObject({ name: 'MosaicInvalidArgumentError', argument });
  });
});
