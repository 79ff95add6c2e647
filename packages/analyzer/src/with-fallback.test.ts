import { describe, expect, it } from 'vitest';
import type { Analyzer } from '@mosaic/spec';
import { AbortedError, ApiCallError } from '@mosaic/spec';
import { createOfflineAnalyzer } from './offline-analyzer.js';
import { withFallback } from './with-fallback.js';

function failing(error: unknown, id = 'openai:test'): Analyzer & { calls: number } {
  const a = {
    calls: 0,
    specificationVersion: 'v1' as const,
    id,
    async analyze() {
      a.calls++;
      throw error;
    },
  };
  return a;
}

describe('withFallback', () => {
  const offline = createOfflineAnalyzer();

  it('uses the primary when it succeeds', async () => {
    const combined = withFallback({ primary: offline, fallback: failing(new Error('never')) });
    const analysis = await combined.analyze({ question: { text: 'What is BCC?' } });
    expect(analysis.fallback).toBeUndefined();
    expect(analysis.analyzer).toBe('offline');
    expect(combined.id).toBe('offline');
  });

  it('falls back on any thrown error and records from/reason', async () => {
    const primary = failing(new ApiCallError({ message: 'HTTP 500', statusCode: 500, attempts: 3 }));
    const combined = withFallback({ primary, fallback: offline, id: 'combined' });
    const analysis = await combined.analyze({ question: { text: 'What are the symptoms of FL?' } });
    expect(primary.calls).toBe(1);
    expect(analysis.analyzer).toBe('offline');
    expect(analysis.fallback?.from).toBe('openai:test');
    expect(analysis.fallback?.reason).toMatch(/^MosaicApiCallError/);
    expect(combined.id).toBe('combined');
    const direct = await offline.analyze({ question: { text: 'What are the symptoms of FL?' } });
    expect(analysis.policy).toEqual(direct.policy);
  });

  it('falls back on non-Error throws too', async () => {
    const analysis = await withFallback({ primary: failing('boom'), fallback: offline }).analyze({ question: { text: 'x' } });
    expect(analysis.fallback).toEqual({ from: 'openai:test', reason: 'boom' });
  });

  it('rethrows aborts instead of falling back', async () => {
    const combined = withFallback({ primary: failing(new AbortedError({ stage: 'analyzer' })), fallback: offline });
    await expect(combined.analyze({ question: { text: 'x' } })).rejects.toMatchObject({ name: 'MosaicAbortedError' });
    const controller = new AbortController();
    controller.abort();
    const plain = withFallback({ primary: failing(new RangeError('cancelled')), fallback: offline });
    await expect(plain.analyze({ question: { text: 'x' }, abortSignal: controller.signal })).rejects.toMatchObject({ name: 'RangeError' });
  });

  it('propagates an error of the fallback itself', async () => {
    const combined = withFallback({ primary: failing(new Error('a')), fallback: failing(new TypeError('b'), 'second') });
    await expect(combined.analyze({ question: { text: 'x' } })).rejects.toMatchObject({ name: 'TypeError' });
  });

  it('validates its options', () => {
    // @ts-expect-error no fallback (an untyped caller)
    expect(() => withFallback({ primary: offline, fallback: undefined })).toThrow(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
  });
});
