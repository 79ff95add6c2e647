export { coverContexts, type ContextCover } from './context-cover.js';
export { evidenceStatements } from './evidence-statements.js';
export { METRIC_STOP_WORDS, metricStem, metricTokenSet, metricTokens } from '@mosaic/stage-utils';
export {
  ANSWER_TYPES,
  evaluateRetrieval,
  scoreQuestion,
  summarize,
  type EvaluateOptions,
  type GoldQuestion,
  type MetricSummary,
  type MetricsReport,
  type QuestionScores,
  type RetrievalRecord,
} from './metrics.js';
