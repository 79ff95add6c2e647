import { MosaicError } from './mosaic-error.js';

const NAME = 'MosaicApiCallError';

/** A call to an OpenAI-compatible server failed after retries, timed out, or returned unusable output. */
export class ApiCallError extends MosaicError {
  readonly url?: string;
  readonly statusCode?: number;
  readonly attempts: number;
  constructor(options: { message: string; url?: string; statusCode?: number; attempts: number; cause?: unknown }) {
    super({ name: NAME, message: options.message, cause: options.cause });
    this.url = options.url;
    this.statusCode = options.statusCode;
    this.attempts = options.attempts;
  }
  static override isInstance(error: unknown): error is ApiCallError {
    return MosaicError.hasName(error, NAME);
  }
}
