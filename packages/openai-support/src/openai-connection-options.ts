import type OpenAI from 'openai';

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
