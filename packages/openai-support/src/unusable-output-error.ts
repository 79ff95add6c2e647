/**
 * The model answered, but its content cannot be used (empty, a refusal, not the expected JSON).
 * Thrown by `completeChat` for empty content and by `parse` callbacks; retried by `completeChat`
 * unless `retryUnusableOutput` is false, and wrapped into ApiCallError on final failure.
 */
export class UnusableOutputError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnusableOutputError';
  }
}
