import { describe, expect, it } from 'vitest';
import type { CorpusIndex } from '@mosaic/spec';
import { checkWindowRerankerConformance } from './conformance.js';
import { createRerankerFixture } from './conformance-fixture.js';
import { cosine } from './dense-scores.js';
import {
  createFusionReranker,
  DEFAULT_FUSION_DIVERSITY,
  fusionCandidates,
  DEFAULT_FUSION_POOL,
  DEFAULT_FUSION_WEIGHTS,
  type FusionRerankTrace,
} from './fusion-reranker.js';
import { sharedText } from './diversify.js';
import { createHybridReranker } from './hybrid-reranker.js';

const PACKED = 'Mara packed a brass compass';

/** Ids of the windows the given evidence reaches. */
function reachedBy(index: CorpusIndex, chunkIds: readonly string[]): Set<string> {
  return new Set(chunkIds.flatMap((chunkId) => index.chunks.windowsOfChunk(chunkId).map((window) => window.id)));
}

describe('createFusionReranker', () => {
  it('scores every candidate as w_lex·BM25/max + w_dense·min-max cosine + w_graph·1/(1+rank)', async () => {
    const fixture = await createRerankerFixture({ lexical: true });
    const weights = { lexical: 1, dense: 0.5, graph: 0.25 };
    const reranker = createFusionReranker({ tuning: { weights, diversity: 0 } });
    expect(reranker.id).toBe('fusion');
    const { windows, trace } = await reranker.rerank({ ...fixture, topN: 1000 });
    const fusion = trace as FusionRerankTrace;
    expect(fusion.lexical).toBe('index');
    expect(fusion.weights).toEqual(weights);
    // The fixture has fewer windows than the default pool: every window is a candidate.
    expect(windows.length).toBe(fixture.index.windowIds.length);
    const cosines = windows.map((w) => cosine(fixture.context.queryVector, fixture.index.windowVector!(w.id)!));
    const [lo, hi] = [Math.min(...cosines), Math.max(...cosines)];
    const maxBm25 = Math.max(...windows.map((w) => w.scores!.bm25));
    const rankOf = new Map(fixture.evidence.map((unit, rank) => [unit.id, rank])); // fixture units are in score order
    windows.forEach((window, i) => {
      const s = window.scores!;
      expect(s.dense).toBeCloseTo(cosines[i], 6);
      expect(s.denseNormalised).toBeCloseTo((cosines[i] - lo) / (hi - lo), 6);
      expect(s.lexical).toBeCloseTo(s.bm25 / maxBm25, 9);
      const best = Math.min(...window.evidenceIds.map((id) => rankOf.get(id)!));
      expect(s.graph).toBeCloseTo(window.evidenceIds.length ? 1 / (1 + best) : 0, 9);
      expect(window.score).toBeCloseTo(s.lexical + 0.5 * s.denseNormalised + 0.25 * s.graph, 9);
    });
    expect(windows[0].text).toContain(PACKED);
  });

  it('ranks a lexically obvious window the graph did not reach, with empty evidenceIds and its origin traced', async () => {
    const fixture = await createRerankerFixture({ lexical: true });
    const thin = [fixture.evidence[3]]; // "Master Pell designed …": the second novel only
    const reached = reachedBy(fixture.index, thin[0].chunkIds);
    expect([...reached].some((id) => fixture.index.chunks.getWindow(id)!.text.includes(PACKED))).toBe(false);
    const { windows, trace } = await createFusionReranker({ pool: 3 }).rerank({ ...fixture, evidence: thin, topN: 5 });
    const fusion = trace as FusionRerankTrace;
    expect(windows[0].text).toContain(PACKED);
    expect(windows[0].evidenceIds).toEqual([]);
    expect(fusion.origins[windows[0].id]).toContain('lexical');
    for (const window of windows) {
      expect(window.evidenceIds.length > 0).toBe(reached.has(window.id));
      expect(fusion.origins[window.id].includes('graph')).toBe(reached.has(window.id));
      if (reached.has(window.id)) expect(window.evidenceIds).toEqual([thin[0].id]);
    }
    expect(fusion.expanded).toEqual(windows.filter((w) => !reached.has(w.id)).map((w) => w.id));
    expect(Object.keys(fusion.origins)).toEqual(windows.map((w) => w.id));
    // Candidates: the reached windows plus at most 3 from each whole-corpus search.
    expect(fusion.sources.graph).toBe(reached.size);
    expect(fusion.sources.lexical).toBe(3);
    expect(fusion.sources.dense).toBe(3);
    expect(fusion.candidateWindows).toBeLessThanOrEqual(reached.size + 6);
    expect(fusion.candidateWindows).toBeGreaterThan(reached.size);
  });

  it('with only the lexical weight and a pool covering the corpus, returns BM25-over-all-windows', async () => {
    const fixture = await createRerankerFixture({ lexical: true });
    const { windows } = await createFusionReranker({ tuning: { weights: { lexical: 1, dense: 0, graph: 0 }, diversity: 0 } }).rerank({ ...fixture, topN: 5 });
    const bm25 = fixture.index.lexical!.windows!.search(fixture.context.question.text, 5);
    expect(bm25.length).toBeGreaterThan(1);
    // The windows BM25 finds, in its order; the rest of the five match no query word and score 0.
    expect(windows.slice(0, bm25.length).map((w) => w.id)).toEqual(bm25.map((hit) => fixture.index.windowIds[hit.label]));
    for (const window of windows.slice(bm25.length)) expect(window.score).toBe(0);
  });

  it('with only the graph weight, puts windows of better-ranked evidence first (by unit score, not input order)', async () => {
    const fixture = await createRerankerFixture({ lexical: true });
    const reversed = [...fixture.evidence].reverse(); // scores still say e1 is best
    const { windows } = await createFusionReranker({ tuning: { weights: { lexical: 0, dense: 0, graph: 1 }, diversity: 0 } }).rerank({
      ...fixture,
      evidence: reversed,
      topN: 1000,
    });
    const e1 = reachedBy(fixture.index, fixture.evidence[0].chunkIds);
    expect(e1.size).toBeGreaterThan(0);
    const head = windows.slice(0, e1.size);
    expect(new Set(head.map((w) => w.id))).toEqual(e1);
    for (const window of head) expect(window.score).toBe(1);
    const unreached = windows.filter((w) => w.evidenceIds.length === 0);
    expect(unreached.length).toBeGreaterThan(0);
    for (const window of unreached) expect(window.score).toBe(0);
  });

  it('with pool 0 ranks only the windows reached from evidence, like the hybrid reranker up to dense normalisation', async () => {
    const fixture = await createRerankerFixture({ lexical: true });
    const { windows, trace } = await createFusionReranker({ pool: 0 }).rerank({ ...fixture, topN: 1000 });
    const hybrid = await createHybridReranker().rerank({ ...fixture, topN: 1000 });
    expect(new Set(windows.map((w) => w.id))).toEqual(new Set(hybrid.windows.map((w) => w.id)));
    for (const window of windows) expect(window.evidenceIds.length).toBeGreaterThan(0);
    expect((trace as FusionRerankTrace).sources).toEqual({ graph: windows.length, lexical: 0, dense: 0 });
    expect((trace as FusionRerankTrace).expanded).toEqual([]);
  });

  it('builds BM25 over the candidates when the index has no lexical window index', async () => {
    const fixture = await createRerankerFixture();
    const { windows, trace } = await createFusionReranker().rerank({ ...fixture, evidence: [], topN: 3 });
    expect(trace.lexical).toBe('candidates');
    expect((trace as FusionRerankTrace).sources.lexical).toBe(0);
    expect(windows.length).toBe(3);
    expect(windows[0].text).toContain(PACKED);
  });

  it('defaults to the tuned weights and pool', async () => {
    const fixture = await createRerankerFixture({ lexical: true });
    const { trace } = await createFusionReranker({ tuning: { weights: { graph: 0.2 } } }).rerank({ ...fixture, topN: 2 });
    expect((trace as FusionRerankTrace).weights).toEqual({ ...DEFAULT_FUSION_WEIGHTS, graph: 0.2 });
    expect((trace as FusionRerankTrace).pool).toBe(DEFAULT_FUSION_POOL);
    expect((trace as FusionRerankTrace).diversity.lambda).toBe(DEFAULT_FUSION_DIVERSITY);
    expect(DEFAULT_FUSION_WEIGHTS).toEqual({ lexical: 1, dense: 0.3, graph: 0.3 });
    expect(DEFAULT_FUSION_DIVERSITY).toBe(0.3);
  });

  it('with diversity, a window sharing text with a chosen one gives way; the trace names what was passed over', async () => {
    const fixture = await createRerankerFixture({ lexical: true });
    const topN = 4;
    const plain = await createFusionReranker({ tuning: { diversity: 0 } }).rerank({ ...fixture, topN: 1000 });
    const { windows, trace } = await createFusionReranker({ tuning: { diversity: 0.9 } }).rerank({ ...fixture, topN });
    const { passedOver, lambda } = (trace as FusionRerankTrace).diversity;
    expect(lambda).toBe(0.9);
    const plainTop = plain.windows.slice(0, topN).map((w) => w.id);
    const returned = windows.map((w) => w.id);
    // The fixture's best windows overlap (stride < size): at λ 0.9 some of the plain top N give way.
    expect(passedOver.length).toBeGreaterThan(0);
    expect(passedOver).toEqual(plainTop.filter((id) => !returned.includes(id)));
    expect(returned[0]).toBe(plainTop[0]);
    const byId = new Map(plain.windows.map((w) => [w.id, w]));
    const [lo, hi] = [plain.windows[plain.windows.length - 1]!.score, plain.windows[0]!.score];
    windows.forEach((window, k) => {
      const ranked = byId.get(window.id)!;
      expect(window.scores!.relevance).toBe(ranked.score);
      const redundancy = Math.max(0, ...windows.slice(0, k).map((earlier) => sharedText(window, earlier)));
      expect(window.scores!.redundancy).toBeCloseTo(redundancy, 12);
      expect(window.score).toBeCloseTo(0.1 * ((ranked.score - lo) / (hi - lo)) - 0.9 * redundancy, 12);
    });
    // Every passed-over window shares text with a window returned before the point it was passed over.
    for (const id of passedOver) expect(windows.some((w) => sharedText(w, byId.get(id)!) > 0)).toBe(true);
  });

  it('fusionCandidates lists exactly the windows the reranker ranks, those the evidence reaches first', async () => {
    const fixture = await createRerankerFixture({ lexical: true });
    const thin = [fixture.evidence[3]];
    const reached = reachedBy(fixture.index, thin[0].chunkIds);
    const options = { index: fixture.index, evidence: thin, question: fixture.context.question.text, queryVector: fixture.context.queryVector };
    for (const pool of [0, 2, 3]) {
      const candidates = await fusionCandidates({ ...options, pool });
      const { windows } = await createFusionReranker({ pool, tuning: { diversity: 0 } }).rerank({ ...fixture, evidence: thin, topN: 1000 });
      expect(new Set(candidates.map((w) => w.id))).toEqual(new Set(windows.map((w) => w.id)));
      expect(candidates.length).toBe(windows.length);
      expect(candidates.slice(0, reached.size).every((w) => reached.has(w.id))).toBe(true);
      if (pool === 0) expect(candidates.length).toBe(reached.size);
      else expect(candidates.length).toBeGreaterThan(reached.size);
    }
    await expect(fusionCandidates({ ...options, pool: -1 })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
  });

  it('rejects invalid weights and pools, and a query vector of the wrong dimension', async () => {
    const invalid = [
      { weights: { lexical: -1 } },
      { weights: { dense: Number.NaN } },
      { weights: { graph: Number.POSITIVE_INFINITY } },
      { weights: { lexical: 0, dense: 0, graph: 0 } },
      { pool: -1 },
      { pool: 1.5 },
      { diversity: 1 },
      { diversity: -0.1 },
      { diversity: Number.NaN },
    ];
    for (const options of invalid) {
      expect(() => createFusionReranker(options)).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
    }
    const fixture = await createRerankerFixture({ lexical: true });
    const context = { ...fixture.context, queryVector: new Float32Array(3) };
    await expect(createFusionReranker().rerank({ ...fixture, context, topN: 2 })).rejects.toMatchObject({ name: 'MosaicDimensionMismatchError' });
  });

  it('reads the BM25 of its candidates from one unsorted scoring, never ranking every window, with the same result', async () => {
    const fixture = await createRerankerFixture({ lexical: true });
    const lexical = fixture.index.lexical!.windows!;
    expect(typeof lexical.scoreAll).toBe('function');
    const asked: number[] = [];
    const spied = {
      search: (query: string, k: number) => {
        asked.push(k);
        return lexical.search(query, k);
      },
      scoreAll: (query: string) => lexical.scoreAll!(query),
    };
    // The same index without `scoreAll`: every window ranked by one search (the path of other lexical indexes).
    const searchOnly = { search: (query: string, k: number) => lexical.search(query, k) };
    const withIndex = (windows: typeof spied | typeof searchOnly) => ({
      ...fixture,
      index: { ...fixture.index, lexical: { ...fixture.index.lexical, windows } },
    });
    const reranker = createFusionReranker({ pool: 3 });
    const a = await reranker.rerank({ ...withIndex(spied), topN: 5 });
    const b = await reranker.rerank({ ...withIndex(searchOnly), topN: 5 });
    expect(asked).toEqual([3]);
    expect(a.windows.length).toBeGreaterThan(1);
    expect(a.windows.some((window) => window.scores!.bm25 > 0)).toBe(true);
    expect(a.windows).toEqual(b.windows);
    expect(a.trace).toEqual(b.trace);
  });
});

describe('checkWindowRerankerConformance on fusion', () => {
  it.each([
    ['fusion', () => createFusionReranker(), {}],
    ['fusion with a lexical window index and the graph prior', () => createFusionReranker({ pool: 4, tuning: { weights: { graph: 0.1 } } }), { lexical: true }],
    ['fusion over windowIndex (no windowVector)', () => createFusionReranker(), { windowVectors: false, lexical: true }],
  ] as const)('%s passes', async (_name, create, fixtureOptions) => {
    const fixture = await createRerankerFixture(fixtureOptions);
    const report = await checkWindowRerankerConformance({ reranker: create(), fixture, allowWindowsWithoutEvidence: true });
    expect(report.failures).toEqual([]);
  });
});
