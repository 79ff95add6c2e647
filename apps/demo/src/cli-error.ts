import { MosaicError } from '@mosaic/spec';

const NAME = 'MosaicCliError';

/** A usage error of the CLI: printed as one line, exit code 2. */
export class CliError extends MosaicError {
  constructor(message: string) {
    super({ name: NAME, message });
  }
  static override isInstance(error: unknown): error is CliError {
    return MosaicError.hasName(error, NAME);
  }
}

const FAILURE_NAME = 'MosaicCliFailure';

/**
 * A command that ran but did not fully succeed, with the exit code to end with: some items of a
 * batch failed (1; they were reported as they happened), or a signal stopped it (128 + signal
 * number: 130 for SIGINT, 143 for SIGTERM). The message is printed as one line.
 */
export class CliFailure extends MosaicError {
  readonly exitCode: number;
  constructor(options: { message: string; exitCode: number; cause?: unknown }) {
    super({ name: FAILURE_NAME, message: options.message, cause: options.cause });
    this.exitCode = options.exitCode;
  }
  static override isInstance(error: unknown): error is CliFailure {
    return MosaicError.hasName(error, FAILURE_NAME);
  }
}
