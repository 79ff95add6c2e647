import { APIConnectionTimeoutError, APIError } from 'openai';

/**
 * A short, single-line description of a failure for reasons and messages: `'request timed out'`,
 * `'HTTP <status>'`, or `'<name>: <message>'` with white space folded, at most 300 characters.
 */
export function describeError(error: unknown): string {
  if (error instanceof APIConnectionTimeoutError) return 'request timed out';
  if (error instanceof APIError && typeof error.status === 'number') return `HTTP ${error.status}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`.replace(/\s+/g, ' ').slice(0, 300);
  return String(error).slice(0, 300);
}
