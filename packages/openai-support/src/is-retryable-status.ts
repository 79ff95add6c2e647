/**
 * HTTP statuses the openai client retries by itself (without an `x-should-retry` header): 408,
 * 409, 429 and every 5xx. For messages that say whether a failure was retried.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
