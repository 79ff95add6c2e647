import { MosaicError } from './mosaic-error.js';

const NAME = 'MosaicIndexMismatchError';

/** An index on disk does not match what the caller expects (version, encoder, dimension) or is incomplete. */
export class IndexMismatchError extends MosaicError {
  readonly path: string;
  readonly field: string;
  readonly expected: unknown;
  readonly actual: unknown;
  constructor(options: { path: string; field: string; expected: unknown; actual: unknown; message?: string; cause?: unknown }) {
    super({
      name: NAME,
      message:
        options.message ?? `Index at ${options.path} has ${options.field} ${JSON.stringify(options.actual)}, expected ${JSON.stringify(options.expected)}`,
      cause: options.cause,
    });
    this.path = options.path;
    this.field = options.field;
    this.expected = options.expected;
    this.actual = options.actual;
  }
  static override isInstance(error: unknown): error is IndexMismatchError {
    return MosaicError.hasName(error, NAME);
  }
}
