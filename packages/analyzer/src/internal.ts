/**
 * Building blocks of @mosaic/analyzer, for the monorepo's own packages, tests and tools.
 * Not part of the stable API: names and shapes may change in any release, without a major
 * version. Build on what `@mosaic/analyzer` exports.
 */
export { analyzeSurface, extractKeywords, facetOf, type SurfaceAnalysis, type SurfaceSignals, type SurfaceCue } from './analyze-surface.js';
export { decideOfflinePolicy, type OfflineDecision, type GraphFacts } from './offline-analyzer.js';
export { questionCacheKey } from './cached-analyzer.js';
export { policyLogRecord, controlsKey } from './policy-log.js';
export { ANALYZER_PROMPT_VERSION } from './openai-analyzer-prompt.js';
export { parsePolicyContent } from './openai-analyzer.js';
export { analyzerSystemPrompt, analyzerUserMessage } from './openai-analyzer-prompt.js';
