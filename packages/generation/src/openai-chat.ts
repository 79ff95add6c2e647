// Kept identical to packages/analyzer/src/openai-chat.ts (and the inlined copy in
// packages/indexing/src/extraction/openai-extractor.ts) until a shared home exists.
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { AbortedError, ApiCallError, InvalidArgumentError } from '@mosaic/spec';

/** Connection and retry options shared by every OpenAI-backed component. */
export interface OpenAIConnectionOptions {
  /** API key; default `process.env.OPENAI_API_KEY`. Optional when a base URL is set (local servers). */
  apiKey?: string;
  /** Base URL including `/v1`; default `process.env.OPENAI_BASE_URL`, else api.openai.com. */
  baseURL?: string;
  /** Per-attempt timeout in milliseconds. */
  timeoutMs?: number;
  /** Retries after the first attempt (HTTP 408/409/429/5xx, connection errors, timeouts, unusable output). */
  maxRetries?: number;
  /** Delay before the first retry; doubles on every further retry. Default 500. */
  retryDelayMs?: number;
  /** Cap of the retry delay. Default 8000. */
  maxRetryDelayMs?: number;
  /** A ready client (its own retries are not used: requests pass `maxRetries: 0`). */
  client?: OpenAI;
}

/** Build an OpenAI client from options and the environment; the client's own retries are off. */
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

/** Check the numeric connection options; returns them with defaults filled in. */
export function resolveRetryOptions(
  options: OpenAIConnectionOptions,
  defaults: { timeoutMs: number; maxRetries: number },
): { timeoutMs: number; maxRetries: number; retryDelayMs: number; maxRetryDelayMs: number } {
  const resolved = {
    timeoutMs: options.timeoutMs ?? defaults.timeoutMs,
    maxRetries: options.maxRetries ?? defaults.maxRetries,
    retryDelayMs: options.retryDelayMs ?? 500,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 8000,
  };
  if (!Number.isFinite(resolved.timeoutMs) || resolved.timeoutMs <= 0) {
    throw new InvalidArgumentError({ argument: 'timeoutMs', message: 'must be a positive number' });
  }
  if (!Number.isInteger(resolved.maxRetries) || resolved.maxRetries < 0) {
    throw new InvalidArgumentError({ argument: 'maxRetries', message: 'must be a non-negative integer' });
  }
  for (const key of ['retryDelayMs', 'maxRetryDelayMs'] as const) {
    if (!Number.isFinite(resolved[key]) || resolved[key] < 0) {
      throw new InvalidArgumentError({ argument: key, message: 'must be a non-negative number' });
    }
  }
  resolved.timeoutMs = Math.max(1, Math.round(resolved.timeoutMs));
  return resolved;
}

/** Thrown by a `parse` callback when the model's content cannot be used. */
export class UnusableOutputError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnusableOutputError';
  }
}

export interface CompleteChatOptions<T> {
  client: OpenAI;
  model: string;
  messages: ChatCompletionMessageParam[];
  responseFormat?: ChatCompletionCreateParamsNonStreaming['response_format'];
  maxTokens?: number;
  timeoutMs: number;
  maxRetries: number;
  retryDelayMs: number;
  maxRetryDelayMs: number;
  abortSignal?: AbortSignal;
  /** Stage name for AbortedError (e.g. 'generate'). */
  stage: string;
  /** Turn the content into a value; throw UnusableOutputError when it cannot be used. */
  parse: (content: string) => T;
  /** Retry when `parse` throws (default true). */
  retryUnusableOutput?: boolean;
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
  const retryUnusable = options.retryUnusableOutput ?? true;
  let lastError: unknown;
  let lastStatus: number | undefined;
  let attempts = 0;
  for (let attempt = 0; attempt <= options.maxRetries; attempt += 1) {
    if (options.abortSignal?.aborted) throw new AbortedError({ stage: options.stage, cause: options.abortSignal.reason });
    if (attempt > 0) {
      const delay = Math.min(options.maxRetryDelayMs, options.retryDelayMs * 2 ** (attempt - 1));
      await abortableSleep(delay, options.abortSignal, options.stage);
    }
    attempts += 1;
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
      if (!isRetryable(error, retryUnusable)) break;
      continue;
    }
    try {
      return { value: options.parse(content), content, attempts };
    } catch (error) {
      lastError = error;
      lastStatus = undefined;
      if (!retryUnusable) break;
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

function isRetryable(error: unknown, retryUnusable: boolean): boolean {
  if (error instanceof UnusableOutputError) return retryUnusable;
  if (error instanceof APIConnectionTimeoutError || error instanceof APIConnectionError) return true;
  if (error instanceof APIError) {
    const status = error.status;
    if (typeof status !== 'number') return true;
    return status === 408 || status === 409 || status === 429 || status >= 500;
  }
  // Anything else (an unparseable body, a socket reset) is transient as far as we can tell.
  return true;
}

/** A short, single-line description of a failure for reasons and messages. */
export function describeError(error: unknown): string {
  if (error instanceof APIConnectionTimeoutError) return 'request timed out';
  if (error instanceof APIError && typeof error.status === 'number') return `HTTP ${error.status}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`.replace(/\s+/g, ' ').slice(0, 300);
  return String(error).slice(0, 300);
}

function abortableSleep(ms: number, signal: AbortSignal | undefined, stage: string): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError({ stage, cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
