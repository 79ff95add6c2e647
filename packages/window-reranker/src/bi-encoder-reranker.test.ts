import { describe, expect, it } from 'vitest';
import type { CorpusIndex } from '@mosaic/spec';
import { createBiEncoderReranker } from './bi-encoder-reranker.js';
import { createRerankerFixture } from './conformance-fixture.js';
import { cosine } from './dense-scores.js';

describe('createBiEncoderReranker', () => {
  it('ranks the windows reached from evidence by cosine to the question vector', async () => {
    const { index, context, evidence } = await createRerankerFixture();
    const reranker = createBiEncoderReranker();
    expect(reranker.id).toBe('bi-encoder');
    const { windows, trace } = await reranker.rerank({ index, context, evidence, topN: 15 });
    // Reachable windows: those overlapping a chunk of some unit.
    const reachable = new Set(evidence.flatMap((unit) => unit.chunkIds.flatMap((chunkId) => index.chunks.windowsOfChunk(chunkId).map((w) => w.id))));
    expect(trace.candidateWindows).toBe(reachable.size);
    expect(windows.length).toBe(Math.min(15, reachable.size));
    for (const window of windows) {
      expect(reachable.has(window.id)).toBe(true);
      const vector = index.windowVector!(window.id)!;
      expect(window.score).toBeCloseTo(cosine(context.queryVector, vector), 6);
      expect(window.scores).toEqual({ dense: window.score });
    }
    // The window that states the fact the question asks for ranks first.
    expect(windows[0].text).toContain('Mara packed a brass compass');
    expect(trace.dense).toBe('window-vector');
    expect(trace.encodedWindows).toBe(0);
    expect(trace.evidenceUnits).toBe(evidence.length);
  });

  it('records every evidence unit that led to a window, in evidence order', async () => {
    const { index, context, evidence } = await createRerankerFixture();
    const { windows } = await createBiEncoderReranker().rerank({ index, context, evidence, topN: 100 });
    for (const window of windows) {
      const expected = evidence
        .filter((unit) => unit.chunkIds.some((chunkId) => index.chunks.getWindow(window.id)!.chunkIds.includes(chunkId)))
        .map((unit) => unit.id);
      expect(window.evidenceIds).toEqual(expected);
    }
  });

  it('gives the same ranking through the window index when the index has no windowVector()', async () => {
    const withVectors = await createRerankerFixture();
    const withoutVectors = await createRerankerFixture({ windowVectors: false });
    expect(withoutVectors.index.windowVector).toBeUndefined();
    const a = await createBiEncoderReranker().rerank({ ...withVectors, topN: 10 });
    const b = await createBiEncoderReranker().rerank({ ...withoutVectors, topN: 10 });
    expect(b.trace.dense).toBe('window-index');
    expect(b.windows.map((w) => w.id)).toEqual(a.windows.map((w) => w.id));
    b.windows.forEach((w, i) => {
      expect(w.score).toBeCloseTo(a.windows[i].score, 5);
    });
  });

  it('encodes only the question: the encoder is not called on a complete index', async () => {
    const fixture = await createRerankerFixture();
    let calls = 0;
    const index: CorpusIndex = {
      ...fixture.index,
      encoder: { ...fixture.index.encoder, encode: async (texts, options) => ((calls += 1), fixture.index.encoder.encode(texts, options)) },
    };
    await createBiEncoderReranker().rerank({ ...fixture, index, topN: 15 });
    expect(calls).toBe(0);
  });

  it('encodes windows that have no stored vector (an incomplete index) and says so in the trace', async () => {
    const fixture = await createRerankerFixture();
    const dropped = fixture.index.windowIds[1];
    const index: CorpusIndex = { ...fixture.index, windowVector: (id) => (id === dropped ? undefined : fixture.index.windowVector!(id)) };
    const complete = await createBiEncoderReranker().rerank({ ...fixture, topN: 100 });
    const partial = await createBiEncoderReranker().rerank({ ...fixture, index, topN: 100 });
    expect(partial.trace.encodedWindows).toBe(complete.windows.some((w) => w.id === dropped) ? 1 : 0);
    expect(partial.windows.map((w) => w.id)).toEqual(complete.windows.map((w) => w.id));
  });

  it('cuts candidate chunks at query time when cutChunks is given', async () => {
    const fixture = await createRerankerFixture();
    const reranker = createBiEncoderReranker({ cutChunks: { size: 120, stride: 60 } });
    const { windows, trace } = await reranker.rerank({ ...fixture, topN: 50 });
    expect(trace.dense).toBe('encoded');
    expect(trace.encodedWindows).toBe(trace.candidateWindows);
    for (const window of windows) {
      expect(window.end - window.start).toBeLessThanOrEqual(120);
      const chunkId = window.id.split('@')[0];
      const chunk = fixture.index.chunks.getChunk(chunkId)!;
      expect(chunk.text.slice(window.start - chunk.start, window.end - chunk.start)).toBe(window.text);
      expect(window.evidenceIds.length).toBeGreaterThan(0);
    }
    expect(windows[0].text).toContain('Mara packed');
  });

  it('returns no windows for no evidence and for evidence whose chunks are unknown', async () => {
    const fixture = await createRerankerFixture();
    const none = await createBiEncoderReranker().rerank({ ...fixture, evidence: [], topN: 15 });
    expect(none.windows).toEqual([]);
    const unknown = await createBiEncoderReranker().rerank({
      ...fixture,
      evidence: [{ ...fixture.evidence[0], chunkIds: ['no-such-chunk'] }],
      topN: 15,
    });
    expect(unknown.windows).toEqual([]);
    expect(unknown.trace.unresolvedChunks).toEqual(['no-such-chunk']);
  });

  it('rejects an invalid topN and a query vector of the wrong dimension with typed errors', async () => {
    const fixture = await createRerankerFixture();
    await expect(createBiEncoderReranker().rerank({ ...fixture, topN: -1 })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
    await expect(createBiEncoderReranker().rerank({ ...fixture, topN: 2.5 })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
    const context = { ...fixture.context, queryVector: new Float32Array(7) };
    await expect(createBiEncoderReranker().rerank({ ...fixture, context, topN: 3 })).rejects.toMatchObject({
      name: 'MosaicDimensionMismatchError',
    });
  });
});

describe('topN default', () => {
  it('returns at most 15 windows when topN is left undefined', async () => {
    const fixture = await createRerankerFixture();
    // 60-character windows cut from the evidence chunks give more than 15 candidates.
    const reranker = createBiEncoderReranker({ cutChunks: { size: 60, stride: 30 } });
    // A JavaScript caller may leave topN out; the type says it is given.
    // @ts-expect-error topN undefined
    const { windows, trace } = await reranker.rerank({ ...fixture, topN: undefined });
    expect(trace.candidateWindows).toBeGreaterThan(15);
    expect(windows).toHaveLength(15);
  });
});
