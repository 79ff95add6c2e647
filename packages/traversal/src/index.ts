export {
  createBeamTraverser,
  DEFAULT_STOP_THRESHOLDS,
  DEFAULT_COMPLETENESS_THRESHOLD,
  DEFAULT_RELATION_LEXICAL_WEIGHT,
  DEFAULT_RELATION_CONTEXT_WEIGHT,
  DEFAULT_MAX_NEIGHBORS_PER_NODE,
  DEFAULT_MAX_HUB_SCAN,
  type BeamTraverserOptions,
  type BeamTraverserTuning,
  type BeamDepthTrace,
  type BeamTraversalTrace,
} from './beam-traverser.js';
export { DEFAULT_PATH_WEIGHTS, type PathWeights } from './path-scorer.js';
export { DEFAULT_MATCH_THRESHOLDS, type MatchThresholds } from './path-features.js';
export type { IndexVectorAccessors } from './question-signals.js';
