import { describe, expect, it } from 'vitest';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { isRetryableError, isRetryableStatus } from './is-retryable-error.js';
import { UnusableOutputError } from './unusable-output-error.js';

const apiError = (status: number) => APIError.generate(status, { error: { message: 'x' } }, undefined, new Headers());

describe('isRetryableStatus', () => {
  it('retries 408, 409, 429 and 5xx only', () => {
    const statuses = [200, 400, 401, 403, 404, 408, 409, 422, 429, 499, 500, 502, 503, 504, 599];
    expect(statuses.filter((status) => isRetryableStatus(status))).toEqual([408, 409, 429, 500, 502, 503, 504, 599]);
  });
});

describe('isRetryableError', () => {
  it('classifies API errors by status', () => {
    expect(isRetryableError(apiError(429))).toBe(true);
    expect(isRetryableError(apiError(503))).toBe(true);
    expect(isRetryableError(apiError(400))).toBe(false);
    expect(isRetryableError(apiError(404))).toBe(false);
  });

  it('retries connection errors, timeouts, and unknown errors', () => {
    expect(isRetryableError(new APIConnectionError({ message: 'refused' }))).toBe(true);
    expect(isRetryableError(new APIConnectionTimeoutError())).toBe(true);
    expect(isRetryableError(new SyntaxError('Unexpected end of JSON input'))).toBe(true);
    expect(isRetryableError('a string')).toBe(true);
  });

  it('retries an API error without status (e.g. a user abort is filtered out before)', () => {
    expect(isRetryableError(new APIUserAbortError())).toBe(true);
  });

  it('retries unusable output unless told not to', () => {
    const error = new UnusableOutputError('empty');
    expect(error.name).toBe('UnusableOutputError');
    expect(isRetryableError(error)).toBe(true);
    expect(isRetryableError(error, { retryUnusableOutput: true })).toBe(true);
    expect(isRetryableError(error, { retryUnusableOutput: false })).toBe(false);
  });
});
