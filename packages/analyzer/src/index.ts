export {
  analyzeSurface,
  extractKeywords,
  facetOf,
  type SurfaceAnalysis,
  type SurfaceSignals,
  type SurfaceCue,
} from './analyze-surface.js';
export {
  createOfflineAnalyzer,
  decideOfflinePolicy,
  type OfflineAnalyzerOptions,
  type OfflineDecision,
  type FiredRule,
  type GraphFacts,
} from './offline-analyzer.js';
export {
  createCachedAnalyzer,
  questionCacheKey,
  type CachedAnalyzer,
  type CachedAnalyzerOptions,
  type CacheStats,
} from './cached-analyzer.js';
export { withFallback, type WithFallbackOptions } from './with-fallback.js';
export {
  createPolicyLog,
  createLoggedAnalyzer,
  readPolicyLog,
  policyLogRecord,
  summarizePolicies,
  controlsKey,
  type PolicyLog,
  type PolicyLogRecord,
  type PolicySummary,
  type NumberRange,
} from './policy-log.js';
// The OpenAI-compatible analyzer (written alongside; see openai-analyzer.ts).
export { createOpenAIAnalyzer, type OpenAIAnalyzerOptions } from './openai-analyzer.js';
export { ANALYZER_PROMPT_VERSION } from './openai-analyzer-prompt.js';
export { parsePolicyContent } from './openai-analyzer.js';
export { analyzerSystemPrompt, analyzerUserMessage } from './openai-analyzer-prompt.js';
export type { OpenAIConnectionOptions } from '@mosaic/openai-support';
