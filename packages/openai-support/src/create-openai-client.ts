import OpenAI from 'openai';
import { InvalidArgumentError } from '@mosaic/spec';
import type { OpenAIConnectionOptions } from './openai-connection-options.js';

/**
 * Build an OpenAI client from options and the environment. Its default retries are off
 * (`maxRetries: 0`): `completeChat` sets each call's retries and timeout (`maxRetries`,
 * `timeoutMs`), and the client's own retry loop runs them. A given `client` is returned as is.
 * No key anywhere: with a base URL the key is `'no-key'` (local servers); without one,
 * InvalidArgumentError.
 */
export function createOpenAIClient(options: Pick<OpenAIConnectionOptions, 'apiKey' | 'baseURL' | 'client'>): OpenAI {
  if (options.client) return options.client;
  const baseURL = options.baseURL ?? process.env.OPENAI_BASE_URL ?? undefined;
  let apiKey = options.apiKey ?? process.env.OPENAI_API_KEY ?? undefined;
  if (!apiKey) {
    if (!baseURL) {
      throw new InvalidArgumentError({
        argument: 'apiKey',
        message: 'no apiKey option and no OPENAI_API_KEY in the environment (a key may be omitted only with a baseURL)',
      });
    }
    apiKey = 'no-key';
  }
  return new OpenAI({ apiKey, baseURL, maxRetries: 0 });
}
