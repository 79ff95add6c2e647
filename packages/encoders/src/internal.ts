/**
 * Building blocks of @mosaic/encoders, for the monorepo's own packages, tests and tools.
 * Not part of the stable API: names and shapes may change in any release, without a major
 * version. Build on what `@mosaic/encoders` exports.
 */
export { findWorkspaceRoot } from './embedded-encoder.js';
export { l2Normalize } from './l2-normalize.js';
