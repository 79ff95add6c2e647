export { createExtractiveGenerator } from './extractive-generator.js';
export type { ExtractiveGeneratorOptions, ExtractiveSelection, ExtractiveSentence } from './extractive-generator.js';
export { createOpenAIGenerator } from './openai-generator.js';
export type { OpenAIGeneratorOptions } from './openai-generator.js';
export type { OpenAIConnectionOptions } from '@mosaic/openai-support';
