import { MosaicError } from '@mosaic/spec';

const NAME = 'MosaicOfflineSetupError';

/** A step of the offline set-up failed: `step` is 'faiss' (the faiss-node addon) or 'model' (the embedded encoder). */
export class OfflineSetupError extends MosaicError {
  /**
   * @param {{ step: 'faiss' | 'model', message: string, cause?: unknown }} options
   */
  constructor(options) {
    super({ name: NAME, message: `${options.step}: ${options.message}`, cause: options.cause });
    /** @type {'faiss' | 'model'} */
    this.step = options.step;
  }

  /**
   * @override
   * @param {unknown} error
   * @returns {error is OfflineSetupError}
   */
  static isInstance(error) {
    return MosaicError.hasName(error, NAME);
  }
}
