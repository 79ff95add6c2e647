import type { WindowGeometry } from '@mosaic/stage-utils';
import { createEvidenceWindowReranker, type EvidenceWindowReranker } from './evidence-window-reranker.js';

export interface BiEncoderRerankerOptions {
  /**
   * Cut candidate chunks into windows of this geometry at query time and encode them, instead of the
   * index's precomputed windows (default: precomputed windows, no encoding besides the question).
   */
  cutChunks?: WindowGeometry;
}

/**
 * The report's reranker: windows reached from the evidence units' source chunks, ranked by cosine
 * similarity between the question vector and each window's precomputed vector. Name 'bi-encoder'.
 */
export function createBiEncoderReranker(options: BiEncoderRerankerOptions = {}): EvidenceWindowReranker {
  return createEvidenceWindowReranker({ id: 'bi-encoder', lexicalWeight: 0, cutChunks: options.cutChunks });
}
