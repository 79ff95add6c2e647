import type { Analysis, AnalyzeOptions, Analyzer } from '@mosaic/spec';
import { AbortedError, InvalidArgumentError } from '@mosaic/spec';
import { forwardedWarmUp } from './warm-up.js';

export interface WithFallbackOptions {
  /** The analyzer tried first (e.g. an LLM analyzer). */
  primary: Analyzer;
  /** The analyzer used when the primary throws (e.g. the offline analyzer). */
  fallback: Analyzer;
  /** Id of the combined analyzer (default: the primary's id). */
  id?: string;
}

const MAX_REASON = 300;

/** "Name: message" of an error, bounded. */
export function describeError(error: unknown): string {
  try {
    if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, MAX_REASON);
    return String(error).slice(0, MAX_REASON);
  } catch {
    return 'unknown error';
  }
}

/**
 * An analyzer that runs `primary` and, on any error it throws, runs `fallback` instead and marks the
 * result with `fallback: { from: primary.id, reason }`. Aborts are not errors to recover from: an
 * AbortedError or an aborted signal is rethrown. `latencyMs` of a fallback result covers the failed
 * primary attempt as well. Errors of the fallback itself propagate. Its `warmUp` is the primary's
 * (none when the primary has none).
 */
export function withFallback(options: WithFallbackOptions): Analyzer {
  const { primary, fallback } = options;
  if (!primary || typeof primary.analyze !== 'function') {
    throw new InvalidArgumentError({ argument: 'primary', message: 'must implement Analyzer' });
  }
  if (!fallback || typeof fallback.analyze !== 'function') {
    throw new InvalidArgumentError({ argument: 'fallback', message: 'must implement Analyzer' });
  }
  return {
    specificationVersion: 'v1',
    id: options.id ?? primary.id,
    // The primary's warm-up, when it has one: the fallback's would give the fallback's policies, not the
    // primary's (an LLM analyzer has none, and its first question waits for the model anyway).
    ...forwardedWarmUp(primary),
    async analyze(analyzeOptions: AnalyzeOptions): Promise<Analysis> {
      const started = performance.now();
      try {
        return await primary.analyze(analyzeOptions);
      } catch (error) {
        if (AbortedError.isInstance(error) || analyzeOptions.abortSignal?.aborted) throw error;
        const result = await fallback.analyze(analyzeOptions);
        return {
          ...result,
          fallback: { from: primary.id, reason: describeError(error) },
          latencyMs: performance.now() - started,
        };
      }
    },
  };
}
