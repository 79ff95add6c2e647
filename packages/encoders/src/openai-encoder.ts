import { AbortedError, ApiCallError, InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type { AbortOptions, Encoder } from '@mosaic/spec';
import { isRetryableStatus } from '@mosaic/openai-support';
import OpenAI from 'openai';
import { l2Normalize } from './l2-normalize.js';
import { checkTexts } from './check-texts.js';

/** Native output sizes of OpenAI's embedding models (used when `dimensions` is not given). */
export const OPENAI_EMBEDDING_DIMENSIONS: Readonly<Record<string, number>> = {
  'text-embedding-3-large': 3072,
  'text-embedding-3-small': 1536,
  'text-embedding-ada-002': 1536,
};

export interface OpenAIEncoderOptions {
  /** Embedding model. Default 'text-embedding-3-large'. */
  model?: string;
  /**
   * Output size requested from the API (the `dimensions` parameter of text-embedding-3-*).
   * Required for models not in OPENAI_EMBEDDING_DIMENSIONS.
   */
  dimensions?: number;
  /** API key. Default: env OPENAI_API_KEY. Servers that ignore keys still need a non-empty string. */
  apiKey?: string;
  /** Base URL, e.g. http://127.0.0.1:8080/v1. Default: env OPENAI_BASE_URL, else api.openai.com. */
  baseURL?: string;
  /** Texts per request. Default 64. */
  batchSize?: number;
  /** Per-attempt timeout in ms. Default 60,000. */
  timeoutMs?: number;
  /** Retries after the first attempt (on 408/409/429/5xx and connection errors, with backoff). Default 2. */
  maxRetries?: number;
  /** Encoder id. Default `openai:<model>`, or `openai:<model>@<dimensions>` when dimensions is given. */
  id?: string;
  /** Environment for the key/base URL fallbacks. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** An `Encoder` over an OpenAI-compatible `/embeddings` endpoint. */
export interface OpenAIEncoder extends Encoder {
  readonly model: string;
  readonly baseURL: string;
  readonly batchSize: number;
}

function checkInteger(argument: string, value: number | undefined, minimum: number): void {
  if (value !== undefined && (!Number.isInteger(value) || value < minimum)) {
    throw new InvalidArgumentError({ argument, message: `must be an integer ≥ ${minimum}, got ${String(value)}` });
  }
}

/** Whether the client's own retry loop (the SDK's) would have retried this failure; for the message. */
function retryable(error: unknown): boolean {
  if (error instanceof OpenAI.APIConnectionError) return true;
  return error instanceof OpenAI.APIError && typeof error.status === 'number' && isRetryableStatus(error.status);
}

/**
 * Create an encoder that calls `POST {baseURL}/embeddings` through the official `openai` client
 * (timeouts, retries with backoff), requests float vectors, and L2-normalises them. Failures after
 * retries, and malformed responses, become ApiCallError; an aborted signal becomes AbortedError.
 */
export function createOpenAIEncoder(options: OpenAIEncoderOptions = {}): OpenAIEncoder {
  const model = options.model ?? 'text-embedding-3-large';
  if (typeof model !== 'string' || model.length === 0) {
    throw new InvalidArgumentError({ argument: 'model', message: 'must be a non-empty string' });
  }
  checkInteger('dimensions', options.dimensions, 1);
  checkInteger('batchSize', options.batchSize, 1);
  checkInteger('timeoutMs', options.timeoutMs, 1);
  checkInteger('maxRetries', options.maxRetries, 0);
  const dimension = options.dimensions ?? OPENAI_EMBEDDING_DIMENSIONS[model];
  if (dimension === undefined) {
    throw new InvalidArgumentError({ argument: 'dimensions', message: `required for model '${model}' (its output size is not known)` });
  }
  const env = options.env ?? process.env;
  const apiKey = options.apiKey ?? env.OPENAI_API_KEY;
  if (!apiKey) {
    throw new InvalidArgumentError({ argument: 'apiKey', message: 'pass apiKey or set OPENAI_API_KEY' });
  }
  const baseURL = options.baseURL ?? (env.OPENAI_BASE_URL || undefined) ?? 'https://api.openai.com/v1';
  const batchSize = options.batchSize ?? 64;
  const maxRetries = options.maxRetries ?? 2;
  const client = new OpenAI({ apiKey, baseURL, timeout: options.timeoutMs ?? 60_000, maxRetries });
  const url = `${baseURL.replace(/\/+$/, '')}/embeddings`;

  async function encodeBatch(texts: readonly string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    // A per-batch client view whose fetch counts the attempts (first try + retries) of this batch.
    let attempts = 0;
    const counted = client.withOptions({
      fetch: (input, init) => {
        attempts += 1;
        return fetch(input, init);
      },
    });
    let response: OpenAI.CreateEmbeddingResponse;
    try {
      response = await counted.embeddings.create(
        {
          model,
          // The API rejects empty strings; a single space embeds "nothing" deterministically.
          input: texts.map((text) => (text.length === 0 ? ' ' : text)),
          encoding_format: 'float',
          ...(options.dimensions !== undefined ? { dimensions: options.dimensions } : {}),
        },
        { signal },
      );
    } catch (error) {
      if (error instanceof OpenAI.APIUserAbortError || signal?.aborted) throw new AbortedError({ stage: 'encode', cause: error });
      const status = error instanceof OpenAI.APIError && typeof error.status === 'number' ? error.status : undefined;
      throw new ApiCallError({
        message: `embeddings request failed${status ? ` with status ${status}` : ''} after ${attempts} attempt(s)${retryable(error) ? '' : ' (not retryable)'}: ${error instanceof Error ? error.message : String(error)}`,
        url,
        statusCode: status,
        attempts: Math.max(attempts, 1),
        cause: error,
      });
    }
    const data = Array.isArray(response?.data) ? response.data : undefined;
    if (!data || data.length !== texts.length) {
      throw new ApiCallError({ message: `expected ${texts.length} embeddings, got ${data?.length ?? 'none'}`, url, attempts });
    }
    const vectors: Float32Array[] = new Array(texts.length);
    for (const item of data) {
      const index = item.index;
      const embedding = item.embedding as unknown;
      if (!Number.isInteger(index) || index < 0 || index >= texts.length || vectors[index]) {
        throw new ApiCallError({ message: `embedding index ${String(index)} is invalid or repeated`, url, attempts });
      }
      if (!Array.isArray(embedding) || embedding.length !== dimension || !embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new ApiCallError({
          message: `embedding ${index} is not ${dimension} finite numbers (got ${Array.isArray(embedding) ? `${embedding.length} values` : typeof embedding})`,
          url,
          attempts,
        });
      }
      vectors[index] = l2Normalize(Float32Array.from(embedding as number[]));
    }
    return vectors;
  }

  return {
    specificationVersion: 'v1',
    id: options.id ?? (options.dimensions !== undefined ? `openai:${model}@${options.dimensions}` : `openai:${model}`),
    dimension,
    model,
    baseURL,
    batchSize,
    async encode(texts: readonly string[], encodeOptions?: AbortOptions): Promise<Float32Array[]> {
      checkTexts(texts);
      const signal = encodeOptions?.abortSignal;
      const results: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        throwIfAborted(signal, 'encode');
        results.push(...(await encodeBatch(texts.slice(start, start + batchSize), signal)));
      }
      return results;
    },
  };
}
