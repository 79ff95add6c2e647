import { describe, expect, it } from 'vitest';
import { isRetryableStatus } from './is-retryable-status.js';

describe('isRetryableStatus', () => {
  it('retries 408, 409, 429 and 5xx only', () => {
    const statuses = [200, 400, 401, 403, 404, 408, 409, 422, 429, 499, 500, 502, 503, 504, 599];
    expect(statuses.filter((status) => isRetryableStatus(status))).toEqual([408, 409, 429, 500, 502, 503, 504, 599]);
  });
});
