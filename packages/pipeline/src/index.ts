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
  type AnalyzeQuestionOptions,
  type WarmUpOptions,
  type WarmUpResult,
} from './create-mosaic.js';
export type { PolicyChoice } from './forced-policy.js';
export { createIndexGraphView, type IndexGraphView, type IndexGraphViewOptions } from './index-graph-view.js';
export { runBatch, type BatchItem } from './run-batch.js';
export type { MosaicHooks, StageEndEvent, StageName, StageStartEvent } from './stage-hooks.js';
export { MIN_SUPPORT, type Support } from './support.js';
