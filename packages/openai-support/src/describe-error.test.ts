import { describe, expect, it } from 'vitest';
import { APIConnectionTimeoutError, APIError } from 'openai';
import { describeError } from './describe-error.js';

describe('describeError', () => {
  it('names timeouts and HTTP statuses', () => {
    expect(describeError(new APIConnectionTimeoutError())).toBe('request timed out');
    expect(describeError(APIError.generate(503, { error: { message: 'busy' } }, undefined, new Headers()))).toBe('HTTP 503');
  });

  it('folds white space of other errors and bounds the length', () => {
    expect(describeError(new TypeError('line one\n  line two'))).toBe('TypeError: line one line two');
    expect(describeError(new Error('x'.repeat(1000)))).toHaveLength(300);
    expect(describeError(42)).toBe('42');
  });
});
