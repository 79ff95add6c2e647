import type { Analysis, AnalyzeOptions, Analyzer, Question } from '@mosaic/spec';
import { AbortedError, InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import { forwardedWarmUp } from './warm-up.js';

export interface CachedAnalyzerOptions {
  /** The analyzer whose results are cached. */
  analyzer: Analyzer;
  /** Entries kept before the least recently used is evicted (default 1000). */
  maxEntries?: number;
  /** Cache key of a question (default: `questionCacheKey`). */
  key?: (question: Question) => string;
}

export interface CacheStats {
  hits: number;
  misses: number;
  size: number;
  /** hits / (hits + misses); 0 before the first lookup. */
  hitRate: number;
}

export interface CachedAnalyzer extends Analyzer {
  stats(): CacheStats;
  clear(): void;
}

/**
 * The normalised structure of a question used as cache key: Unicode NFKC, lowercase, curly quotes
 * straightened, runs of whitespace collapsed to one space, and leading/trailing whitespace and
 * punctuation trimmed. "What is BCC?" and "  what is  bcc " share a key; inner punctuation is kept
 * ("BCR::ABL1" ≠ "BCR ABL1"). The question id is not part of the key.
 */
export function questionCacheKey(question: Question): string {
  return String(question.text)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/\s+/g, ' ')
    .replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, '');
}

function copyAnalysis(analysis: Analysis): Analysis {
  return structuredClone(analysis);
}

/**
 * An LRU cache in front of an analyzer. A hit returns a copy of the cached Analysis with
 * `cacheHit: true` and `latencyMs` set to the lookup time; a miss runs the analyzer and returns its
 * Analysis with `cacheHit: false`. Concurrent misses on one key share one analyzer call. Errors are
 * never cached. Whether a graph view was passed is part of the key (one cache per graph). Its
 * `warmUp` is the analyzer's (when it has one): warm-up questions are neither cached nor counted.
 */
export function createCachedAnalyzer(options: CachedAnalyzerOptions): CachedAnalyzer {
  const { analyzer } = options;
  const maxEntries = options.maxEntries ?? 1000;
  if (!analyzer || typeof analyzer.analyze !== 'function') {
    throw new InvalidArgumentError({ argument: 'analyzer', message: 'must implement Analyzer' });
  }
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new InvalidArgumentError({ argument: 'maxEntries', message: 'must be a positive integer' });
  }
  const keyOf = options.key ?? questionCacheKey;
  const entries = new Map<string, Analysis>();
  const inflight = new Map<string, Promise<Analysis>>();
  let hits = 0;
  let misses = 0;

  const store = (key: string, analysis: Analysis) => {
    entries.delete(key);
    entries.set(key, copyAnalysis({ ...analysis, cacheHit: undefined }));
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
  };

  const run = async (key: string, analyzeOptions: AnalyzeOptions): Promise<Analysis> => {
    const analysis = await analyzer.analyze(analyzeOptions);
    store(key, analysis);
    return analysis;
  };

  return {
    specificationVersion: 'v1',
    id: analyzer.id,
    // The analyzer's own warm-up: nothing cached, no hit or miss counted.
    ...forwardedWarmUp(analyzer),
    async analyze(analyzeOptions: AnalyzeOptions): Promise<Analysis> {
      throwIfAborted(analyzeOptions.abortSignal, 'analyzer');
      const started = performance.now();
      const key = `${analyzeOptions.graph ? 'g' : 'n'}:${keyOf(analyzeOptions.question)}`;
      const cached = entries.get(key);
      if (cached) {
        hits++;
        entries.delete(key);
        entries.set(key, cached);
        return { ...copyAnalysis(cached), cacheHit: true, latencyMs: performance.now() - started };
      }
      misses++;
      const pending = inflight.get(key);
      if (pending) {
        try {
          const shared = await pending;
          return { ...copyAnalysis(shared), cacheHit: false };
        } catch (error) {
          // Another caller's abort must not fail this caller: run on our own.
          if (!AbortedError.isInstance(error) || analyzeOptions.abortSignal?.aborted) throw error;
        }
      }
      const promise = run(key, analyzeOptions);
      inflight.set(key, promise);
      try {
        const analysis = await promise;
        return { ...copyAnalysis(analysis), cacheHit: false };
      } finally {
        if (inflight.get(key) === promise) inflight.delete(key);
      }
    },
    stats(): CacheStats {
      const total = hits + misses;
      return { hits, misses, size: entries.size, hitRate: total === 0 ? 0 : hits / total };
    },
    clear() {
      entries.clear();
      hits = 0;
      misses = 0;
    },
  };
}
