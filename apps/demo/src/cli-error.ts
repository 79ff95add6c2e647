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
