export { DEFAULT_TOP_N, type WindowRerankTrace } from './rank-windows.js';
export type { EvidenceWindowReranker, WindowReranking } from './evidence-window-reranker.js';
export { createBiEncoderReranker, type BiEncoderRerankerOptions } from './bi-encoder-reranker.js';
export { createHybridReranker, DEFAULT_LEXICAL_WEIGHT, type HybridRerankerOptions } from './hybrid-reranker.js';
export {
  createFusionReranker,
  isFusionRerankTrace,
  DEFAULT_FUSION_DIVERSITY,
  DEFAULT_FUSION_POOL,
  DEFAULT_FUSION_WEIGHTS,
  type FusionRerankerOptions,
  type FusionRerankerTuning,
  type FusionRerankTrace,
  type FusionSource,
  type FusionWeights,
} from './fusion-reranker.js';
export { createReranker, RERANKER_NAMES, type RerankerName, type RerankerFactoryOptions } from './rerankers.js';
export type { FocusTrace } from './focus-windows.js';
