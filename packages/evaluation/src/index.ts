export { coverContexts, type ContextCover } from './context-cover.js';
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
