import bm25 from 'wink-bm25-text-search';
import { describe, expect, it } from 'vitest';
import type { CorpusIndex, LexicalIndex } from '@mosaic/spec';
import { createBiEncoderReranker } from './bi-encoder-reranker.js';
import { createRerankerFixture } from './conformance-fixture.js';
import { createHybridReranker } from './hybrid-reranker.js';
import { metricTokens } from '@mosaic/stage-utils';

/** A BM25 index over every window of the fixture, labels aligned with windowIds (as indexing builds it). */
function windowLexicalIndex(index: CorpusIndex): LexicalIndex & { calls: number } {
  const engine = bm25();
  engine.defineConfig({ fldWeights: { text: 1 } });
  engine.definePrepTasks([metricTokens]);
  index.windowIds.forEach((id, label) => {
    engine.addDoc({ text: index.chunks.getWindow(id)!.text }, String(label));
  });
  engine.consolidate();
  const lexical = {
    calls: 0,
    search(query: string, k: number) {
      lexical.calls += 1;
      return engine.search(query, k).map(([label, score]) => ({ label: Number(label), score }));
    },
  };
  return lexical;
}

describe('createHybridReranker', () => {
  it('fuses dense cosine with max-normalised BM25 from the index lexical window index', async () => {
    const fixture = await createRerankerFixture();
    const lexical = windowLexicalIndex(fixture.index);
    const index: CorpusIndex = { ...fixture.index, lexical: { windows: lexical } };
    const reranker = createHybridReranker({ lexicalWeight: 0.4 });
    expect(reranker.id).toBe('hybrid');
    const { windows, trace } = await reranker.rerank({ ...fixture, index, topN: 100 });
    expect(trace.lexical).toBe('index');
    expect(trace.lexicalWeight).toBe(0.4);
    expect(lexical.calls).toBe(1);
    const maxBm25 = Math.max(...windows.map((w) => w.scores!.bm25));
    expect(maxBm25).toBeGreaterThan(0);
    for (const window of windows) {
      const { dense, bm25: raw, lexical: normalised } = window.scores!;
      expect(normalised).toBeCloseTo(raw / maxBm25, 9);
      expect(window.score).toBeCloseTo(0.6 * dense + 0.4 * normalised, 9);
    }
  });

  it('with lexicalWeight 1 ranks purely by BM25, with 0 exactly like the bi-encoder', async () => {
    const fixture = await createRerankerFixture();
    const index: CorpusIndex = { ...fixture.index, lexical: { windows: windowLexicalIndex(fixture.index) } };
    const pure = await createHybridReranker({ lexicalWeight: 1 }).rerank({ ...fixture, index, topN: 100 });
    const byBm25 = [...pure.windows].sort((a, b) => b.scores!.bm25 - a.scores!.bm25);
    expect(pure.windows.map((w) => w.scores!.bm25)).toEqual(byBm25.map((w) => w.scores!.bm25));
    const dense = await createHybridReranker({ lexicalWeight: 0 }).rerank({ ...fixture, index, topN: 100 });
    const biEncoder = await createBiEncoderReranker().rerank({ ...fixture, index, topN: 100 });
    expect(dense.windows.map((w) => [w.id, w.score])).toEqual(biEncoder.windows.map((w) => [w.id, w.score]));
  });

  it('builds BM25 over the candidates when the index has no lexical window index', async () => {
    const fixture = await createRerankerFixture();
    const { windows, trace } = await createHybridReranker().rerank({ ...fixture, topN: 100 });
    expect(trace.lexical).toBe('candidates');
    expect(trace.lexicalWeight).toBe(0.3);
    const best = windows.reduce((a, b) => (b.scores!.bm25 > a.scores!.bm25 ? b : a));
    expect(best.scores!.lexical).toBe(1);
    // The window that states the fact shares the most rare question terms.
    expect(windows[0].text).toContain('Mara packed a brass compass');
  });

  it('falls back to dense only when BM25 is unavailable (no lexical index, fewer than three candidates)', async () => {
    const fixture = await createRerankerFixture();
    // A chunk store that maps each chunk to its first window only.
    const chunks = { ...fixture.index.chunks, windowsOfChunk: (id: string) => fixture.index.chunks.windowsOfChunk(id).slice(0, 1) };
    const index: CorpusIndex = { ...fixture.index, chunks };
    const evidence = fixture.evidence.slice(0, 2);
    const { windows, trace } = await createHybridReranker({ lexicalWeight: 0.5 }).rerank({ ...fixture, index, evidence, topN: 5 });
    expect(windows.length).toBe(2);
    expect(trace.lexical).toBe('none');
    for (const window of windows) expect(window.score).toBeCloseTo(0.5 * window.scores!.dense, 9);
  });

  it('rejects a weight outside [0, 1]', () => {
    for (const lexicalWeight of [-0.1, 1.5, Number.NaN]) {
      expect(() => createHybridReranker({ lexicalWeight })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
    }
  });
});
