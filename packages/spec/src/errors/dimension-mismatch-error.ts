import { MosaicError } from './mosaic-error.js';

const NAME = 'MosaicDimensionMismatchError';

/** A vector's length does not match the index or encoder dimension. */
export class DimensionMismatchError extends MosaicError {
  readonly expected: number;
  readonly actual: number;
  constructor(options: { expected: number; actual: number; what?: string }) {
    super({
      name: NAME,
      message: `${options.what ?? 'Vector'} has dimension ${options.actual}, expected ${options.expected}`,
    });
    this.expected = options.expected;
    this.actual = options.actual;
  }
  static override isInstance(error: unknown): error is DimensionMismatchError {
    return MosaicError.hasName(error, NAME);
  }
}
