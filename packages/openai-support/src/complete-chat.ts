import { setTimeout as sleep } from 'node:timers/promises';
import type OpenAI from 'openai';
import { APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { AbortedError, ApiCallError } from '@mosaic/spec';
import { describeError } from './describe-error.js';
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
  /** Called once per attempt (HTTP request, retries included), just before it is sent (e.g. to count requests). */
  onAttempt?: () => void;
}

export interface CompleteChatResult<T> {
  value: T;
  content: string;
  /** Attempts made (1 = no retry). */
  attempts: number;
}

/** What one completeChat call tracks across its attempts. */
interface ChatState {
  /** HTTP requests sent (the client's retries included). */
  attempts: number;
  lastError?: unknown;
  lastStatus?: number;
}

/**
 * One chat completion at temperature 0. HTTP failures are retried by the openai client itself
 * (408/409/429/5xx, connection errors and timeouts; it honours `Retry-After` / `retry-after-ms`,
 * else waits 0.5 s doubling to 8 s with jitter), within `maxRetries` for the whole call and
 * `timeoutMs` per attempt. What the client does not retry is retried here after
 * `min(maxRetryDelayMs, retryDelayMs · 2^(k−1))`: unusable output (empty content, a refusal, a
 * failing `parse`) unless `retryUnusableOutput` is false, and unexpected failures such as a
 * malformed body. Aborts → AbortedError (at once, even during a wait); final failure →
 * ApiCallError with the last status code and cause.
 */
export async function completeChat<T>(options: CompleteChatOptions<T>): Promise<CompleteChatResult<T>> {
  const url = `${options.client.baseURL.replace(/\/+$/, '')}/chat/completions`;
  const retryUnusableOutput = options.retryUnusableOutput ?? true;
  const state: ChatState = { attempts: 0 };
  const client = options.client.withOptions({
    timeout: options.timeoutMs,
    fetch: (input, init) => {
      state.attempts += 1;
      options.onAttempt?.();
      return fetch(input, init);
    },
  });
  for (let retry = 0; state.attempts <= options.maxRetries; retry += 1) {
    if (options.abortSignal?.aborted) throw new AbortedError({ stage: options.stage, cause: options.abortSignal.reason });
    if (retry > 0) await wait(Math.min(options.maxRetryDelayMs, options.retryDelayMs * 2 ** (retry - 1)), options);
    let content: string;
    try {
      content = await untilAborted(requestContent(client, options, options.maxRetries - state.attempts), options);
    } catch (error) {
      if (AbortedError.isInstance(error)) throw error;
      if (options.abortSignal?.aborted || error instanceof APIUserAbortError) throw new AbortedError({ stage: options.stage, cause: error });
      state.lastError = error;
      state.lastStatus = error instanceof APIError && typeof error.status === 'number' ? error.status : undefined;
      // The client has retried what HTTP retries can fix (API and connection errors).
      if (error instanceof APIError || (error instanceof UnusableOutputError && !retryUnusableOutput)) break;
      continue;
    }
    try {
      return { value: options.parse(content), content, attempts: state.attempts };
    } catch (error) {
      state.lastError = error;
      state.lastStatus = undefined;
      if (!retryUnusableOutput) break;
    }
  }
  throw new ApiCallError({
    message: `chat completion failed after ${state.attempts} attempt(s): ${describeError(state.lastError)}`,
    url,
    statusCode: state.lastStatus,
    attempts: state.attempts,
    cause: state.lastError,
  });
}

/** One completion request (the client retries it up to `maxRetries` times); its content, or UnusableOutputError. */
async function requestContent(client: OpenAI, options: CompleteChatOptions<unknown>, maxRetries: number): Promise<string> {
  const completion = await client.chat.completions.create(
    {
      model: options.model,
      temperature: 0,
      messages: options.messages,
      ...(options.responseFormat ? { response_format: options.responseFormat } : {}),
      ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
    },
    { signal: options.abortSignal, maxRetries },
  );
  const message = completion?.choices?.[0]?.message;
  if (typeof message?.content !== 'string' || message.content.trim() === '') {
    throw new UnusableOutputError(message?.refusal ? `model refused: ${message.refusal}` : 'empty message content');
  }
  return message.content;
}

/** Wait `ms`; an abort rejects at once with AbortedError. */
async function wait(ms: number, options: Pick<CompleteChatOptions<unknown>, 'abortSignal' | 'stage'>): Promise<void> {
  if (ms <= 0) return;
  try {
    await sleep(ms, undefined, { signal: options.abortSignal });
  } catch (error) {
    throw new AbortedError({ stage: options.stage, cause: options.abortSignal?.reason ?? error });
  }
}

/**
 * The request, or AbortedError as soon as the signal aborts: the client does not abort its own
 * wait before a retry (a `Retry-After` may ask for many seconds), so the call must not wait for it.
 */
function untilAborted<T>(request: Promise<T>, options: Pick<CompleteChatOptions<unknown>, 'abortSignal' | 'stage'>): Promise<T> {
  const signal = options.abortSignal;
  if (!signal) return request;
  request.catch(() => undefined); // settled after an abort: nobody waits for it any more
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortedError({ stage: options.stage, cause: signal.reason }));
    signal.addEventListener('abort', onAbort, { once: true });
    request.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
