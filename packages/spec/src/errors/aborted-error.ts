import { MosaicError } from './mosaic-error.js';

const NAME = 'MosaicAbortedError';

/** The operation was cancelled through its abort signal. */
export class AbortedError extends MosaicError {
  constructor(options: { stage?: string; cause?: unknown } = {}) {
    super({ name: NAME, message: `Aborted${options.stage ? ` during ${options.stage}` : ''}`, cause: options.cause });
  }
  static override isInstance(error: unknown): error is AbortedError {
    return MosaicError.hasName(error, NAME);
  }
}

/** Throw AbortedError when the signal is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined, stage?: string): void {
  if (signal?.aborted) throw new AbortedError({ stage, cause: signal.reason });
}
