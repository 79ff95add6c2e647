import { describe, expect, it } from 'vitest';
import { createRerankerFixture } from './conformance-fixture.js';
import { createReranker, RERANKER_NAMES, rerankers } from './rerankers.js';

describe('rerankers registry', () => {
  it('creates every named reranker with its name as id', async () => {
    const fixture = await createRerankerFixture();
    expect(RERANKER_NAMES).toEqual(['bi-encoder', 'hybrid', 'fusion']);
    for (const name of RERANKER_NAMES) {
      const reranker = createReranker({ name });
      expect(reranker.id).toBe(name);
      expect(rerankers[name]().id).toBe(name);
      const { windows } = await reranker.rerank({ ...fixture, topN: 2 });
      expect(windows.length).toBe(2);
    }
  });

  it('passes options through and rejects unknown names', async () => {
    const fixture = await createRerankerFixture();
    const { trace } = await createReranker({ name: 'hybrid', lexicalWeight: 0.7 }).rerank({ ...fixture, topN: 2 });
    expect((trace as { lexicalWeight?: number }).lexicalWeight).toBe(0.7);
    const fusion = await createReranker({ name: 'fusion', pool: 7, tuning: { weights: { graph: 0.2 } } }).rerank({ ...fixture, topN: 2 });
    expect((fusion.trace as { weights?: unknown }).weights).toEqual({ lexical: 1, dense: 0.3, graph: 0.2 });
    expect((fusion.trace as { pool?: number }).pool).toBe(7);
    expect(() => createReranker({ name: 'cross-encoder' })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
    // A tuning option at the top level (where it was before 0.x) fails instead of being ignored.
    // @ts-expect-error diversity is a tuning option
    expect(() => createReranker({ name: 'fusion', diversity: 0 })).toThrowError(/pass it as tuning\.diversity/);
    // @ts-expect-error not a tuning option
    expect(() => createReranker({ name: 'fusion', tuning: { pool: 3 } })).toThrowError(/tuning\.pool/);
  });
});
