import { InvalidArgumentError } from '@mosaic/spec';
import type { WindowReranker } from '@mosaic/spec';
import { createBiEncoderReranker } from './bi-encoder-reranker.js';
import type { WindowGeometry } from '@mosaic/stage-utils';
import { createFusionReranker, type FusionRerankerTuning } from './fusion-reranker.js';
import { createHybridReranker } from './hybrid-reranker.js';

/** Options any registered factory accepts (each uses what applies to it). */
export interface RerankerFactoryOptions {
  /** hybrid. */
  lexicalWeight?: number;
  /** bi-encoder, hybrid. */
  cutChunks?: WindowGeometry;
  /** fusion: windows taken from each whole-corpus search (BM25, dense). */
  pool?: number;
  /** fusion: the options tuned for the offline stack (signal `weights`, `diversity`; see `FusionRerankerTuning`). */
  tuning?: FusionRerankerTuning;
}

/** The named rerankers of this package, by name. */
export const rerankers = Object.freeze({
  'bi-encoder': (options: RerankerFactoryOptions = {}): WindowReranker => createBiEncoderReranker({ cutChunks: options.cutChunks }),
  hybrid: (options: RerankerFactoryOptions = {}): WindowReranker =>
    createHybridReranker({ lexicalWeight: options.lexicalWeight, cutChunks: options.cutChunks }),
  fusion: (options: RerankerFactoryOptions = {}): WindowReranker => {
    // Everything but the other rerankers' options goes on, so that a misplaced tuning option fails.
    const { lexicalWeight: _lexicalWeight, cutChunks: _cutChunks, ...fusion } = options;
    return createFusionReranker(fusion);
  },
});

export type RerankerName = keyof typeof rerankers;

/** Names accepted by `createReranker`. */
export const RERANKER_NAMES = Object.freeze(Object.keys(rerankers) as RerankerName[]);

/** A reranker by name; InvalidArgumentError for an unknown name. */
export function createReranker(options: { name: string } & RerankerFactoryOptions): WindowReranker {
  const { name, ...rest } = options;
  if (!Object.hasOwn(rerankers, name)) {
    throw new InvalidArgumentError({ argument: 'name', message: `unknown reranker '${name}' (${RERANKER_NAMES.join(', ')})` });
  }
  return rerankers[name as RerankerName](rest);
}
