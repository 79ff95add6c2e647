export type { OpenAIConnectionOptions } from './openai-connection-options.js';
export { createOpenAIClient } from './create-openai-client.js';
export { resolveRetryOptions, type ResolvedRetryOptions } from './resolve-retry-options.js';
export { completeChat, type CompleteChatOptions, type CompleteChatResult } from './complete-chat.js';
export { UnusableOutputError } from './unusable-output-error.js';
export { parseJsonContent } from './parse-json-content.js';
export { isRetryableStatus } from './is-retryable-status.js';
export { describeError } from './describe-error.js';
