import { describe, expect, it } from 'vitest';
import type { Analysis, AnalyzeOptions, Analyzer } from '@mosaic/spec';
import { AbortedError } from '@mosaic/spec';
import { createCachedAnalyzer, questionCacheKey } from './cached-analyzer.js';
import { createOfflineAnalyzer } from './offline-analyzer.js';

/** Wraps the offline analyzer, counting calls; optional delay and failure. */
function counting(options: { delayMs?: number; fail?: (text: string) => Error | undefined } = {}): Analyzer & { calls: string[] } {
  const inner = createOfflineAnalyzer();
  const calls: string[] = [];
  return {
    calls,
    specificationVersion: 'v1',
    id: 'counting',
    async analyze(o: AnalyzeOptions): Promise<Analysis> {
      calls.push(o.question.text);
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      if (o.abortSignal?.aborted) throw new AbortedError({ stage: 'analyzer' });
      const error = options.fail?.(o.question.text);
      if (error) throw error;
      return inner.analyze(o);
    },
  };
}

describe('questionCacheKey', () => {
  it.each([
    ['What is BCC?', 'what is bcc'],
    ['  what   is\tBCC  ', 'what is bcc'],
    ['“What is BCC?”', 'what is bcc'],
    ['What is BCR::ABL1?', 'what is bcr::abl1'],
    ['...Why?!', 'why'],
  ])('%j → %j', (text, key) => {
    expect(questionCacheKey({ text })).toBe(key);
  });
});

describe('createCachedAnalyzer', () => {
  it('hits on the same normalised question, with cacheHit and lookup latency', async () => {
    const inner = counting({ delayMs: 5 });
    const cache = createCachedAnalyzer({ analyzer: inner });
    const miss = await cache.analyze({ question: { text: 'What is BCC?' } });
    const hit = await cache.analyze({ question: { id: 'other-id', text: '  what is bcc ' } });
    expect(inner.calls).toHaveLength(1);
    expect(miss.cacheHit).toBe(false);
    expect(hit.cacheHit).toBe(true);
    expect(hit.policy).toEqual(miss.policy);
    expect(hit.latencyMs).toBeLessThan(miss.latencyMs);
    expect(cache.stats()).toEqual({ hits: 1, misses: 1, size: 1, hitRate: 0.5 });
  });

  it('returns copies: mutating a result does not touch the cache', async () => {
    const cache = createCachedAnalyzer({ analyzer: counting() });
    const first = await cache.analyze({ question: { text: 'What are the symptoms of FL?' } });
    first.policy.seedLimit = 99;
    first.policy.targetEntities.push('x');
    const again = await cache.analyze({ question: { text: 'What are the symptoms of FL?' } });
    expect(again.policy.seedLimit).not.toBe(99);
    expect(again.policy.targetEntities).not.toContain('x');
  });

  it('evicts the least recently used entry beyond maxEntries', async () => {
    const inner = counting();
    const cache = createCachedAnalyzer({ analyzer: inner, maxEntries: 2 });
    await cache.analyze({ question: { text: 'a?' } });
    await cache.analyze({ question: { text: 'b?' } });
    await cache.analyze({ question: { text: 'a?' } }); // a is now most recent
    await cache.analyze({ question: { text: 'c?' } }); // evicts b
    expect(cache.stats().size).toBe(2);
    await cache.analyze({ question: { text: 'a?' } });
    expect(inner.calls).toEqual(['a?', 'b?', 'c?']);
    await cache.analyze({ question: { text: 'b?' } });
    expect(inner.calls).toEqual(['a?', 'b?', 'c?', 'b?']);
  });

  it('shares one analyzer call between concurrent misses', async () => {
    const inner = counting({ delayMs: 20 });
    const cache = createCachedAnalyzer({ analyzer: inner });
    const results = await Promise.all(Array.from({ length: 5 }, () => cache.analyze({ question: { text: 'Why is CLL treated?' } })));
    expect(inner.calls).toHaveLength(1);
    expect(new Set(results.map((r) => JSON.stringify(r.policy))).size).toBe(1);
  });

  it('does not cache errors', async () => {
    let failing = true;
    const inner = counting({ fail: () => (failing ? new Error('down') : undefined) });
    const cache = createCachedAnalyzer({ analyzer: inner });
    await expect(cache.analyze({ question: { text: 'What is BCC?' } })).rejects.toThrow();
    failing = false;
    const ok = await cache.analyze({ question: { text: 'What is BCC?' } });
    expect(ok.cacheHit).toBe(false);
    expect(cache.stats().size).toBe(1);
  });

  it("does not fail a caller because another caller's shared call was aborted", async () => {
    const inner = counting({ delayMs: 20 });
    const cache = createCachedAnalyzer({ analyzer: inner });
    const controller = new AbortController();
    const first = cache.analyze({ question: { text: 'What is AML?' }, abortSignal: controller.signal });
    const second = cache.analyze({ question: { text: 'What is AML?' } });
    controller.abort();
    await expect(first).rejects.toMatchObject({ name: 'MosaicAbortedError' });
    await expect(second).resolves.toMatchObject({ cacheHit: false });
  });

  it('keys on whether a graph view was passed', async () => {
    const inner = counting();
    const cache = createCachedAnalyzer({ analyzer: inner });
    await cache.analyze({ question: { text: 'What is BCC?' } });
    await cache.analyze({ question: { text: 'What is BCC?' }, graph: { lookup: async () => new Map() } });
    expect(inner.calls).toHaveLength(2);
  });

  it('validates its options and clears', async () => {
    expect(() => createCachedAnalyzer({ analyzer: counting(), maxEntries: 0 })).toThrow(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
    expect(() => createCachedAnalyzer({ analyzer: {} as Analyzer })).toThrow(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
    const cache = createCachedAnalyzer({ analyzer: counting() });
    await cache.analyze({ question: { text: 'x' } });
    cache.clear();
    expect(cache.stats()).toEqual({ hits: 0, misses: 0, size: 0, hitRate: 0 });
  });
});
