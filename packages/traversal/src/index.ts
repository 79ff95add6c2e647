export {
  createBeamTraverser,
  DEFAULT_STOP_THRESHOLDS,
  DEFAULT_RELATION_LEXICAL_WEIGHT,
  DEFAULT_RELATION_CONTEXT_WEIGHT,
  canonicalPathKey,
  comparePaths,
  type BeamTraverserOptions,
  type BeamDepthTrace,
  type BeamTraversalTrace,
} from './beam-traverser.js';
export {
  ANCHOR_ACTIVATION,
  DEFAULT_PATH_WEIGHTS,
  anchorAdjustedWeights,
  pathScore,
  pathTerms,
  type PathWeights,
} from './path-scorer.js';
export {
  DEFAULT_MATCH_THRESHOLDS,
  FeatureCache,
  specificityOf,
  type EdgeFeatures,
  type MatchThresholds,
  type NodeFeatures,
} from './path-features.js';
export { CompletenessTracker } from './completeness-tracker.js';
export {
  buildQuestionSignals,
  type BuildQuestionSignalsOptions,
  type IndexVectorAccessors,
  type QuestionAspect,
  type QuestionSignals,
  type SimilarityLookup,
} from './question-signals.js';
export { contentTokens, normalizeLabel, stem, tokenContainment, tokenJaccard } from '@mosaic/text-match';
export { TextFeaturesCache, type EdgeTextFeatures, type NodeTextFeatures, type TextFeaturesCacheOptions } from './text-features-cache.js';
/** Re-exported from @mosaic/spec, where it lives with the other helpers for traverser authors. */
export { pathId } from '@mosaic/spec';
