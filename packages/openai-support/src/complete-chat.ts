import type OpenAI from 'openai';
import { APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { AbortedError, ApiCallError } from '@mosaic/spec';
import { abortableSleep } from './abortable-sleep.js';
import { backoffDelayMs } from './backoff-delay.js';
import { describeError } from './describe-error.js';
import { isRetryableError } from './is-retryable-error.js';
import type { ResolvedRetryOptions } from './resolve-retry-options.js';
import { UnusableOutputError } from './unusable-output-error.js';

export interface CompleteChatOptions<T> extends ResolvedRetryOptions {
  client: OpenAI;
  model: string;
  messages: ChatCompletionMessageParam[];
  responseFormat?: ChatCompletionCreateParamsNonStreaming['response_format'];
  /** Completion token cap (`max_tokens`); omitted when 0 or undefined. */
  maxTokens?: number;
  abortSignal?: AbortSignal;
  /** Stage name for AbortedError (e.g. 'generate'). */
  stage: string;
  /** Turn the content into a value; throw UnusableOutputError when it cannot be used. */
  parse: (content: string) => T;
  /** Retry when `parse` throws or the content is empty (default true). */
  retryUnusableOutput?: boolean;
  /** Called once per attempt, just before its request is sent (e.g. to count requests). */
  onAttempt?: () => void;
}

export interface CompleteChatResult<T> {
  value: T;
  content: string;
  /** Attempts made (1 = no retry). */
  attempts: number;
}

/**
 * One chat completion at temperature 0 with our own retry loop: exponential backoff
 * (retryDelayMs · 2^k, capped), abortable waits, typed errors. Aborts → AbortedError; final
 * failure → ApiCallError with the last status code and cause.
 */
export async function completeChat<T>(options: CompleteChatOptions<T>): Promise<CompleteChatResult<T>> {
  const url = `${options.client.baseURL.replace(/\/+$/, '')}/chat/completions`;
  const retryUnusableOutput = options.retryUnusableOutput ?? true;
  let lastError: unknown;
  let lastStatus: number | undefined;
  let attempts = 0;
  for (let attempt = 0; attempt <= options.maxRetries; attempt += 1) {
    if (options.abortSignal?.aborted) throw new AbortedError({ stage: options.stage, cause: options.abortSignal.reason });
    if (attempt > 0) {
      const ms = backoffDelayMs({ retry: attempt, retryDelayMs: options.retryDelayMs, maxRetryDelayMs: options.maxRetryDelayMs });
      await abortableSleep({ ms, abortSignal: options.abortSignal, stage: options.stage });
    }
    attempts += 1;
    options.onAttempt?.();
    let content: string;
    try {
      const completion = await options.client.chat.completions.create(
        {
          model: options.model,
          temperature: 0,
          messages: options.messages,
          ...(options.responseFormat ? { response_format: options.responseFormat } : {}),
          ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
        },
        { signal: options.abortSignal, timeout: options.timeoutMs, maxRetries: 0 },
      );
      const message = completion?.choices?.[0]?.message;
      if (typeof message?.content !== 'string' || message.content.trim() === '') {
        throw new UnusableOutputError(message?.refusal ? `model refused: ${message.refusal}` : 'empty message content');
      }
      content = message.content;
    } catch (error) {
      if (options.abortSignal?.aborted || error instanceof APIUserAbortError) {
        throw new AbortedError({ stage: options.stage, cause: error });
      }
      lastError = error;
      lastStatus = error instanceof APIError && typeof error.status === 'number' ? error.status : undefined;
      if (!isRetryableError(error, { retryUnusableOutput })) break;
      continue;
    }
    try {
      return { value: options.parse(content), content, attempts };
    } catch (error) {
      lastError = error;
      lastStatus = undefined;
      if (!retryUnusableOutput) break;
    }
  }
  throw new ApiCallError({
    message: `chat completion failed after ${attempts} attempt(s): ${describeError(lastError)}`,
    url,
    statusCode: lastStatus,
    attempts,
    cause: lastError,
  });
}
