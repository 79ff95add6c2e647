import { AbortedError, InvalidArgumentError, type Analysis, type AnalyzeOptions, type Analyzer } from '@mosaic/spec';
import { policyJsonSchema, validatePolicy } from '@mosaic/policy-schema';
import { UnusableOutputError, completeChat, createOpenAIClient, parseJsonContent, resolveRetryOptions } from '@mosaic/openai-support';
import type { OpenAIConnectionOptions } from '@mosaic/openai-support';
import { analyzerSystemPrompt, analyzerUserMessage } from './openai-analyzer-prompt.js';
import { createOfflineAnalyzer } from './offline-analyzer.js';
import { withFallback } from './with-fallback.js';

export interface OpenAIAnalyzerOptions extends OpenAIConnectionOptions {
  /** Chat model. Default 'gpt-4o-mini'. */
  model?: string;
  /** Per-attempt timeout. Default 20000 ms. */
  timeoutMs?: number;
  /** Retries after the first attempt (HTTP 408/409/429/5xx, connection errors, timeouts). Default 2. */
  maxRetries?: number;
  /**
   * Analyzer used when the call fails (after retries) or returns something that is not a JSON
   * object; its Analysis gets `fallback: { from, reason }`. Default: the offline analyzer.
   * `false`: throw the ApiCallError instead.
   */
  fallback?: Analyzer | false;
  /**
   * 'json_schema' (default): structured output with the policy's JSON Schema (strict);
   * 'json_object': JSON mode only, for servers without json_schema support.
   */
  responseFormat?: 'json_schema' | 'json_object';
  /** Analyzer id recorded in every Analysis. Default `openai:<model>`. */
  id?: string;
}

/** Parse the model's content into a JSON object, or throw UnusableOutputError. */
export function parsePolicyContent(content: string): Record<string, unknown> {
  const value = parseJsonContent(content);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UnusableOutputError(`content is JSON but not an object (${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value})`);
  }
  return value as Record<string, unknown>;
}

/**
 * An Analyzer that asks an OpenAI-compatible model for the policy and the seed keywords in one
 * call (structured JSON output at temperature 0), then passes the output through
 * `validatePolicy`: whatever the model returns, the policy stays inside the schema, and every
 * change is recorded in `Analysis.changes`. The question is sent as a JSON-encoded string (data,
 * not instructions). Failures fall back to another analyzer (the offline one by default).
 */
export function createOpenAIAnalyzer(options: OpenAIAnalyzerOptions = {}): Analyzer {
  const model = options.model ?? 'gpt-4o-mini';
  const id = options.id ?? `openai:${model}`;
  const retry = resolveRetryOptions(options, { timeoutMs: 20000, maxRetries: 2 });
  const format = options.responseFormat ?? 'json_schema';
  if (format !== 'json_schema' && format !== 'json_object') {
    throw new InvalidArgumentError({ argument: 'responseFormat', message: "must be 'json_schema' or 'json_object'" });
  }
  const client = createOpenAIClient(options);
  const fallback = options.fallback === false ? undefined : (options.fallback ?? createOfflineAnalyzer());
  const system = analyzerSystemPrompt();
  const responseFormat =
    format === 'json_schema'
      ? ({ type: 'json_schema', json_schema: { name: 'mosaic_policy', strict: true, schema: policyJsonSchema() } } as const)
      : ({ type: 'json_object' } as const);

  const primary: Analyzer = {
    specificationVersion: 'v1',
    id,
    async analyze(input: AnalyzeOptions): Promise<Analysis> {
      if (input.abortSignal?.aborted) throw new AbortedError({ stage: 'analyzer', cause: input.abortSignal.reason });
      if (!input.question || typeof input.question.text !== 'string') {
        throw new InvalidArgumentError({ argument: 'question.text', message: 'must be a string' });
      }
      const started = performance.now();
      const { value } = await completeChat({
        client,
        model,
        ...retry,
        abortSignal: input.abortSignal,
        stage: 'analyzer',
        responseFormat,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: analyzerUserMessage(input.question.text) },
        ],
        parse: parsePolicyContent,
        // Temperature 0 repeats unusable output; fall back at once instead of paying again.
        retryUnusableOutput: false,
      });
      const { policy, changes } = validatePolicy(value);
      return { policy, changes, analyzer: id, latencyMs: performance.now() - started };
    },
  };
  // Failures (ApiCallError after retries, unusable output) → the fallback, marked
  // `fallback: { from: id, reason }`; aborts are rethrown.
  return fallback ? withFallback({ primary, fallback }) : primary;
}
