import { MosaicError } from '@mosaic/spec';

const NAME = 'MosaicFaissUnavailableError';

/** faiss-node's native addon cannot be loaded (not built, or built for another Node ABI). */
export class FaissUnavailableError extends MosaicError {
  constructor(options: { cause?: unknown } = {}) {
    super({
      name: NAME,
      message:
        "faiss-node's native addon cannot be loaded; build it with `node scripts/build-faiss-node.mjs` " +
        '(needs `apt-get install libfaiss-dev libopenblas-dev liblapack-dev libomp-dev`)',
      cause: options.cause,
    });
  }
  static override isInstance(error: unknown): error is FaissUnavailableError {
    return MosaicError.hasName(error, NAME);
  }
}
