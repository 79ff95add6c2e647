import { MosaicError } from './mosaic-error.js';

const NAME = 'MosaicInputError';

/** A corpus, question file or other input is unreadable or malformed. */
export class InputError extends MosaicError {
  /** The file (or other source) that is wrong. */
  readonly source: string;
  constructor(options: { source: string; message: string; cause?: unknown }) {
    super({ name: NAME, message: `${options.source}: ${options.message}`, cause: options.cause });
    this.source = options.source;
  }
  static override isInstance(error: unknown): error is InputError {
    return MosaicError.hasName(error, NAME);
  }
}
