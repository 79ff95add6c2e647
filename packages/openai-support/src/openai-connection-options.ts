import type OpenAI from 'openai';

/** Connection and retry options shared by every OpenAI-backed component. */
export interface OpenAIConnectionOptions {
  /** API key; default `process.env.OPENAI_API_KEY`. Optional when a base URL is set (local servers). */
  apiKey?: string;
  /** Base URL including `/v1`; default `process.env.OPENAI_BASE_URL`, else api.openai.com. */
  baseURL?: string;
  /** Per-attempt timeout in milliseconds (the client's `timeout`). */
  timeoutMs?: number;
  /**
   * Retries after the first attempt, all causes together: HTTP 408/409/429/5xx, connection errors
   * and timeouts (retried by the openai client, which honours Retry-After), unusable output.
   */
  maxRetries?: number;
  /**
   * Delay before the first retry of unusable output or of an unexpected failure (a malformed
   * body); doubles on every further one. Default 500. HTTP retries wait as the client decides:
   * Retry-After when the server sends it, else 0.5 s doubling to 8 s with jitter.
   */
  retryDelayMs?: number;
  /** Cap of that delay. Default 8000. */
  maxRetryDelayMs?: number;
  /** A ready client; each call uses it with its retries and timeout set from these options. */
  client?: OpenAI;
}
