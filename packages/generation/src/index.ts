export {
  createExtractiveGenerator,
  selectExtractiveSentences,
  renderExtractiveAnswer,
  splitSentences,
} from './extractive-generator.js';
export type { ExtractiveGeneratorOptions, ExtractiveSelection, ExtractiveSentence } from './extractive-generator.js';
export { createOpenAIGenerator, renderGeneratorPrompt, GENERATOR_SYSTEM_PROMPT } from './openai-generator.js';
export type { OpenAIGeneratorOptions } from './openai-generator.js';
export type { OpenAIConnectionOptions } from '@mosaic/openai-support';
export { parseCitations } from './parse-citations.js';
