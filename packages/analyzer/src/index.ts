export { createOfflineAnalyzer, type OfflineAnalyzerOptions, type FiredRule } from './offline-analyzer.js';
export { createCachedAnalyzer, type CachedAnalyzer, type CachedAnalyzerOptions, type CacheStats } from './cached-analyzer.js';
export { withFallback, type WithFallbackOptions } from './with-fallback.js';
export {
  createPolicyLog,
  createLoggedAnalyzer,
  readPolicyLog,
  summarizePolicies,
  type PolicyLog,
  type PolicyLogRecord,
  type PolicySummary,
  type NumberRange,
} from './policy-log.js';
// The OpenAI-compatible analyzer (written alongside; see openai-analyzer.ts).
export { createOpenAIAnalyzer, type OpenAIAnalyzerOptions } from './openai-analyzer.js';
export type { OpenAIConnectionOptions } from '@mosaic/openai-support';
