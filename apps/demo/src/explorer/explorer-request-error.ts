import { MosaicError } from '@mosaic/spec';

const NAME = 'MosaicExplorerRequestError';

/** Stable codes of the explorer's 4xx answers. */
export type ExplorerRequestErrorCode =
  | 'body-too-large'
  | 'unsupported-media-type'
  | 'invalid-json'
  | 'invalid-field'
  | 'unknown-corpus'
  | 'not-found'
  | 'method-not-allowed'
  | 'forbidden-host'
  | 'busy';

/** A request the explorer refuses: answered with `status` and `{ error: { name, code, message, field } }`. */
export class ExplorerRequestError extends MosaicError {
  readonly status: number;
  readonly code: ExplorerRequestErrorCode;
  readonly field?: string;

  constructor(options: { status: number; code: ExplorerRequestErrorCode; message: string; field?: string; cause?: unknown }) {
    super({ name: NAME, message: options.message, cause: options.cause });
    this.status = options.status;
    this.code = options.code;
    this.field = options.field;
  }

  static override isInstance(error: unknown): error is ExplorerRequestError {
    return MosaicError.hasName(error, NAME);
  }
}
