import { MosaicError } from '@mosaic/spec';

const NAME = 'MosaicFaissUnavailableError';

/** faiss-node's native addon cannot be loaded (not built, or built for another Node ABI). */
export class FaissUnavailableError extends MosaicError {
  constructor(options: { cause?: unknown } = {}) {
    super({
      name: NAME,
      message:
        "faiss-node's native addon cannot be loaded (faiss-node is an optional dependency whose own installer " +
        'downloads binaries); build it with `npx mosaic-offline-setup` (package @mosaic/offline-setup; needs ' +
        '`apt-get install g++ make python3 libfaiss-dev libopenblas-dev liblapack-dev libomp-dev`), ' +
        'or use createInMemoryVectorIndex, which needs no native code',
      cause: options.cause,
    });
  }
  static override isInstance(error: unknown): error is FaissUnavailableError {
    return MosaicError.hasName(error, NAME);
  }
}
