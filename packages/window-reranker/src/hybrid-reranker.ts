import type { WindowGeometry } from '@mosaic/stage-utils';
import { createEvidenceWindowReranker, type EvidenceWindowReranker } from './evidence-window-reranker.js';

/** λ used when none is given. */
export const DEFAULT_LEXICAL_WEIGHT = 0.3;

export interface HybridRerankerOptions {
  /** λ in [0, 1]: score = (1 − λ)·dense + λ·normalised BM25 (default 0.3). */
  lexicalWeight?: number;
  /** As for the bi-encoder: cut candidate chunks at query time instead of using precomputed windows. */
  cutChunks?: WindowGeometry;
}

/**
 * Dense cosine fused with BM25 over the same candidate windows. BM25 comes from the index's lexical
 * window index (`index.lexical.windows`) when there is one, else from a BM25 (wink-bm25-text-search)
 * built over the candidates at query time. Name 'hybrid'.
 */
export function createHybridReranker(options: HybridRerankerOptions = {}): EvidenceWindowReranker {
  return createEvidenceWindowReranker({
    id: 'hybrid',
    lexicalWeight: options.lexicalWeight ?? DEFAULT_LEXICAL_WEIGHT,
    cutChunks: options.cutChunks,
  });
}
