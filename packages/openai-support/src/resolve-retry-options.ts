import { InvalidArgumentError } from '@mosaic/spec';
import type { OpenAIConnectionOptions } from './openai-connection-options.js';

/** The numeric connection options with every default filled in. */
export interface ResolvedRetryOptions {
  /** Per-attempt timeout, a whole number of milliseconds ≥ 1. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Delay before the first retry. */
  retryDelayMs: number;
  /** Cap of the retry delay. */
  maxRetryDelayMs: number;
}

/**
 * Check the numeric connection options; returns them with defaults filled in (`timeoutMs` and
 * `maxRetries` from the caller's `defaults`, `retryDelayMs` 500, `maxRetryDelayMs` 8000).
 * Invalid values → InvalidArgumentError naming the option.
 */
export function resolveRetryOptions(options: OpenAIConnectionOptions, defaults: { timeoutMs: number; maxRetries: number }): ResolvedRetryOptions {
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
