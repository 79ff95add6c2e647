/**
 * Building blocks of @mosaic/generation, for the monorepo's own packages, tests and tools.
 * Not part of the stable API: names and shapes may change in any release, without a major
 * version. Build on what `@mosaic/generation` exports.
 */
export { definedTerm, defines, selectExtractiveSentences, renderExtractiveAnswer, splitSentences } from './extractive-generator.js';
export { renderGeneratorPrompt, GENERATOR_SYSTEM_PROMPT } from './openai-generator.js';
export { parseCitations } from './parse-citations.js';
