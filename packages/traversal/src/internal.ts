/**
 * The traverser's building blocks, for tests and tools that look inside one traversal. Not part of
 * the stable API: names and shapes may change in any release.
 */
export { FeatureCache, specificityOf } from './path-features.js';
export { CompletenessTracker } from './completeness-tracker.js';
export { bestNeighbors, bestNeighborsOfEdges, byBoundThenId, HubScanArrays } from './frontier.js';
export { BOUND_TABLE_MIN, EdgeLabels, NeighborBoundTables } from './neighbor-bounds.js';
export {
  buildQuestionSignals,
  type BuildQuestionSignalsOptions,
  type LabelBounds,
  LabelScoreLoan,
  LabelScorePool,
  type QuestionAspect,
  type QuestionSignals,
  type SimilarityLookup,
} from './question-signals.js';
export { TextFeaturesCache, type EdgeTextFeatures, type NodeTextFeatures, type TextFeaturesCacheOptions } from './text-features-cache.js';
export { canonicalPathKey, comparePaths, pathId } from './beam-traverser.js';
export { ANCHOR_ACTIVATION, anchorAdjustedWeights, pathScore, pathTerms } from './path-scorer.js';
export type { EdgeFeatures, NodeFeatures } from './path-features.js';
