const marker = Symbol.for('mosaic.error');

/** Base of every error Mosaic throws. Tests match on `name`, never on the message. */
export class MosaicError extends Error {
  private readonly [marker] = true;
  override readonly cause?: unknown;

  constructor(options: { name: string; message: string; cause?: unknown }) {
    super(options.message);
    this.name = options.name;
    this.cause = options.cause;
  }

  static isInstance(error: unknown): error is MosaicError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }

  /** True when `error` is a MosaicError with this exact name. */
  static hasName(error: unknown, name: string): boolean {
    return MosaicError.isInstance(error) && error.name === name;
  }
}
