import { describe, expect, it } from 'vitest';
import { createBiEncoderReranker } from './bi-encoder-reranker.js';
import { createRerankerFixture } from './conformance-fixture.js';
import { createExpandingReranker } from './expanding-reranker.js';

describe('createExpandingReranker', () => {
  it('behaves like the bi-encoder when evidence reaches at least topN windows', async () => {
    const fixture = await createRerankerFixture();
    const expanding = await createExpandingReranker().rerank({ ...fixture, topN: 4 });
    const plain = await createBiEncoderReranker().rerank({ ...fixture, topN: 4 });
    expect(expanding.windows).toEqual(plain.windows);
    expect(expanding.trace.expanded).toEqual([]);
    expect(expanding.trace.reranker).toBe('bi-encoder+expand');
  });

  it('fills missing slots from the whole window index when evidence is thin, keeping every evidence window', async () => {
    const fixture = await createRerankerFixture();
    const thin = [fixture.evidence[3]]; // "Brenner married Ilse Varga": one chunk
    const reached = new Set(thin[0].chunkIds.flatMap((chunkId) => fixture.index.chunks.windowsOfChunk(chunkId).map((w) => w.id)));
    expect(reached.size).toBeLessThan(6);
    const { windows, trace } = await createExpandingReranker().rerank({ ...fixture, evidence: thin, topN: 6 });
    expect(windows.length).toBe(6);
    for (const id of reached) expect(windows.some((w) => w.id === id)).toBe(true);
    const added = windows.filter((w) => !reached.has(w.id));
    expect(added.length).toBe(6 - reached.size);
    for (const window of added) expect(window.evidenceIds).toEqual([]);
    expect(trace.expanded).toEqual(added.map((w) => w.id));
    // Added windows are the best-scoring windows of the whole index outside the evidence.
    const all = await fixture.index.windowIndex.search(fixture.context.queryVector, fixture.index.windowIndex.size);
    const bestOutside = all.map((hit) => fixture.index.windowIds[hit.label]).filter((id) => !reached.has(id));
    expect(new Set(added.map((w) => w.id))).toEqual(new Set(bestOutside.slice(0, added.length)));
    expect(added.some((w) => w.text.includes('sailed from'))).toBe(true);
  });

  it('returns topN windows found over the whole index when there is no evidence at all', async () => {
    const fixture = await createRerankerFixture();
    const { windows } = await createExpandingReranker().rerank({ ...fixture, evidence: [], topN: 3 });
    expect(windows.length).toBe(3);
    expect(windows[0].text).toContain('sailed from');
  });

  it('is named hybrid+expand and reports BM25 when a lexical weight is set', async () => {
    const fixture = await createRerankerFixture();
    const reranker = createExpandingReranker({ lexicalWeight: 0.3 });
    expect(reranker.id).toBe('hybrid+expand');
    const { trace, windows } = await reranker.rerank({ ...fixture, evidence: fixture.evidence.slice(3), topN: 6 });
    expect(trace.lexical).toBe('candidates');
    for (const window of windows) expect(window.scores).toHaveProperty('bm25');
  });

  it('rejects an invalid pool factor', () => {
    expect(() => createExpandingReranker({ poolFactor: 0 })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
  });
});
