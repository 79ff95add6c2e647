/**
 * The wait before retry number `retry` (1 = the first retry): `retryDelayMs · 2^(retry − 1)`,
 * capped at `maxRetryDelayMs`; 0 for `retry` < 1.
 */
export function backoffDelayMs(options: { retry: number; retryDelayMs: number; maxRetryDelayMs: number }): number {
  if (options.retry < 1) return 0;
  return Math.min(options.maxRetryDelayMs, options.retryDelayMs * 2 ** (options.retry - 1));
}
