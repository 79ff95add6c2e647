import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { UnusableOutputError } from './unusable-output-error.js';

/** HTTP statuses worth another attempt: 408, 409, 429 and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Whether a failed attempt is worth another one: connection errors and timeouts, API errors with a
 * retryable status (or none), UnusableOutputError unless `retryUnusableOutput` is false (default
 * true), and any other error (an unparseable body, a socket reset). Other 4xx → false.
 */
export function isRetryableError(error: unknown, options: { retryUnusableOutput?: boolean } = {}): boolean {
  if (error instanceof UnusableOutputError) return options.retryUnusableOutput ?? true;
  if (error instanceof APIConnectionTimeoutError || error instanceof APIConnectionError) return true;
  if (error instanceof APIError) {
    const status = error.status;
    if (typeof status !== 'number') return true;
    return isRetryableStatus(status);
  }
  // Anything else (an unparseable body, a socket reset) is transient as far as we can tell.
  return true;
}
