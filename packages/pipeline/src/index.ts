export {
  createMosaic,
  DEFAULT_WINDOWS,
  type AskResult,
  type BatchOptions,
  type Mosaic,
  type MosaicOptions,
  type MosaicTrace,
  type Retrieval,
  type RetrieveOptions,
} from './create-mosaic.js';
export { forcedAnalysis, type PolicyChoice } from './forced-policy.js';
export { createIndexGraphView, normalizeMention, type IndexGraphViewOptions } from './index-graph-view.js';
export { runBatch, type BatchItem } from './run-batch.js';
export type { MosaicHooks, StageEndEvent, StageName, StageStartEvent } from './stage-hooks.js';
export { judgeSupport, MIN_SUPPORT, SUPPORT_WINDOWS, type Support } from './support.js';
export { abstainedAnswer, describeSource, evidenceDocuments, locateQuotes } from './answer-sources.js';
