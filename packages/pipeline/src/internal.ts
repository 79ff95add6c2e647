/**
 * Building blocks of @mosaic/pipeline, for the monorepo's own packages, tests and tools.
 * Not part of the stable API: names and shapes may change in any release, without a major
 * version. Build on what `@mosaic/pipeline` exports.
 */
export { forcedAnalysis } from './forced-policy.js';
export { normalizeMention } from './index-graph-view.js';
export { judgeSupport, nameForms, namesIn, SUPPORT_WINDOWS } from './support.js';
export { abstainedAnswer, describeSource, evidenceDocuments, locateQuotes } from './answer-sources.js';
