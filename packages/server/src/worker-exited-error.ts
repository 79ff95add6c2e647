import { MosaicError } from '@mosaic/spec';

const NAME = 'MosaicWorkerExitedError';

/** A worker of the pool exited (crashed, ran out of memory, or could not open its engine) while a call was in flight. */
export class WorkerExitedError extends MosaicError {
  readonly slot: number;
  readonly exitCode: number;
  constructor(options: { slot: number; exitCode: number; message?: string; cause?: unknown }) {
    super({ name: NAME, message: options.message ?? `worker ${options.slot} exited with code ${options.exitCode}`, cause: options.cause });
    this.slot = options.slot;
    this.exitCode = options.exitCode;
  }
  static override isInstance(error: unknown): error is WorkerExitedError {
    return MosaicError.hasName(error, NAME);
  }
}
