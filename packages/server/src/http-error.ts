import { MosaicError } from '@mosaic/spec';

const NAME = 'MosaicHttpError';

/** A request the server refuses: its HTTP status, a stable code and the field at fault (sent as the JSON error body). */
export class HttpError extends MosaicError {
  readonly status: number;
  readonly code: string;
  readonly field?: string;
  readonly issues?: { field: string; message: string }[];
  constructor(options: { status: number; code: string; message: string; field?: string; issues?: { field: string; message: string }[]; cause?: unknown }) {
    super({ name: NAME, message: options.message, cause: options.cause });
    this.status = options.status;
    this.code = options.code;
    this.field = options.field;
    this.issues = options.issues;
  }
  /** The JSON body: `{ error: { code, message, field?, issues? } }`. */
  toJSON(): { error: { code: string; message: string; field?: string; issues?: { field: string; message: string }[] } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.field !== undefined ? { field: this.field } : {}),
        ...(this.issues ? { issues: this.issues } : {}),
      },
    };
  }
  static override isInstance(error: unknown): error is HttpError {
    return MosaicError.hasName(error, NAME);
  }
}
