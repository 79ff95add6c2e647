export { cutWindows, DEFAULT_WINDOW_SIZE, DEFAULT_WINDOW_STRIDE, windowsOfSpan, type TextWindow, type WindowGeometry } from '@mosaic/stage-utils';
export { collectCandidateWindows, type CandidateWindow, type CandidateWindows } from './candidate-windows.js';
export { cosine, denseScores, type DenseScores, type DenseSource } from './dense-scores.js';
export { lexicalScores, type LexicalScores, type LexicalSource } from './lexical-scores.js';
export { rankWindows, compareRankedWindows, resolveTopN, DEFAULT_TOP_N, type Ranking, type WindowRerankTrace } from './rank-windows.js';
export {
  createEvidenceWindowReranker,
  type EvidenceWindowReranker,
  type EvidenceWindowRerankerSettings,
  type WindowReranking,
} from './evidence-window-reranker.js';
export { createBiEncoderReranker, type BiEncoderRerankerOptions } from './bi-encoder-reranker.js';
export { createHybridReranker, DEFAULT_LEXICAL_WEIGHT, type HybridRerankerOptions } from './hybrid-reranker.js';
export {
  createFusionReranker,
  fusionCandidates,
  isFusionRerankTrace,
  DEFAULT_FUSION_DIVERSITY,
  DEFAULT_FUSION_POOL,
  DEFAULT_FUSION_WEIGHTS,
  type FusionRerankerOptions,
  type FusionRerankTrace,
  type FusionSource,
  type FusionWeights,
} from './fusion-reranker.js';
export { checkDiversity, diversify, sharedText, type Diversification } from './diversify.js';
export { rerankers, createReranker, RERANKER_NAMES, type RerankerName, type RerankerFactoryOptions } from './rerankers.js';
export { focusWindows, type FocusedWindow, type FocusTrace, type FocusWindowsOptions } from './focus-windows.js';
