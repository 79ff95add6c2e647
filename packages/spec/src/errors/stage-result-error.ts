import { MosaicError } from './mosaic-error.js';

const NAME = 'MosaicStageResultError';

/** A stage returned a result that breaks its contract; `stage` and `field` say which and where (e.g. 'traverse', 'paths[3].edges[0]'). */
export class StageResultError extends MosaicError {
  readonly stage: string;
  readonly field: string;
  /** The id of the stage implementation (e.g. 'my-traverser'), when known. */
  readonly implementation?: string;
  constructor(options: { stage: string; field: string; message: string; implementation?: string; cause?: unknown }) {
    const who = options.implementation ? `${options.stage} (${options.implementation})` : options.stage;
    super({ name: NAME, message: `Stage ${who} returned a malformed result at '${options.field}': ${options.message}`, cause: options.cause });
    this.stage = options.stage;
    this.field = options.field;
    this.implementation = options.implementation;
  }
  static override isInstance(error: unknown): error is StageResultError {
    return MosaicError.hasName(error, NAME);
  }
}
