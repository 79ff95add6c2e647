import { MosaicError } from './mosaic-error.js';

const NAME = 'MosaicInvalidArgumentError';

/** An option or argument is missing or out of its domain. */
export class InvalidArgumentError extends MosaicError {
  readonly argument: string;
  constructor(options: { argument: string; message: string; cause?: unknown }) {
    super({ name: NAME, message: `Invalid argument '${options.argument}': ${options.message}`, cause: options.cause });
    this.argument = options.argument;
  }
  static override isInstance(error: unknown): error is InvalidArgumentError {
    return MosaicError.hasName(error, NAME);
  }
}
