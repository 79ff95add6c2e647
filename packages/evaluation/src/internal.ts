/**
 * Building blocks of @mosaic/evaluation, for the monorepo's own packages, tests and tools.
 * Not part of the stable API: names and shapes may change in any release, without a major
 * version. Build on what `@mosaic/evaluation` exports.
 */
export { evidenceStatements } from './evidence-statements.js';
export { METRIC_STOP_WORDS, metricStem, metricTokenSet, metricTokens } from '@mosaic/stage-utils';
