import { describe, expect, it } from 'vitest';
import type { EvidenceUnit, RankedWindow, RerankOptions, WindowReranker } from '@mosaic/spec';
import { createRerankerFixture, type RerankerFixture } from './conformance-fixture.js';

/**
 * The vitest form of the WindowReranker conformance suite (one `it` per expectation), exported as
 * `@mosaic/window-reranker/conformance/vitest`. `checkWindowRerankerConformance` from
 * `@mosaic/window-reranker/conformance` runs the same expectations without a test runner.
 */
export * from './conformance-fixture.js';

export interface WindowRerankerConformanceOptions {
  /** Suite title. */
  name: string;
  /** A fresh reranker under test. */
  create: () => WindowReranker | Promise<WindowReranker>;
  /** Index, context and evidence to run against (default: `createRerankerFixture()`). */
  fixture?: RerankerFixture | (() => Promise<RerankerFixture>);
  /** The reranker may return windows not reached from the evidence (empty evidenceIds), e.g. by expansion. */
  allowWindowsWithoutEvidence?: boolean;
  /** The small N the suite asks for (default 3); the fixture's evidence must reach more windows than this. */
  topN?: number;
}

/**
 * A vitest suite any WindowReranker can run: identifies itself, scores sorted descending, top-N respected,
 * provenance kept (evidenceIds name input units whose chunks overlap the window), inputs untouched,
 * aborts honoured (a pre-aborted signal rejects with MosaicAbortedError), deterministic output, and a
 * trace consistent with the result. Call it at the top level of a test file.
 */
export function runWindowRerankerConformance(options: WindowRerankerConformanceOptions): void {
  const topN = options.topN ?? 3;
  const { load, run } = rerankRunner(options, topN);

  describe(`WindowReranker conformance: ${options.name}`, () => {
    it('identifies itself with specificationVersion v1 and an id', async () => {
      const reranker = await options.create();
      expect(reranker.specificationVersion).toBe('v1');
      expect(typeof reranker.id).toBe('string');
      expect(reranker.id.length).toBeGreaterThan(0);
    });

    it('returns windows sorted by score, best first, with unique ids and finite scores', async () => {
      const { result } = await run({ topN: 1000 });
      expect(result.windows.length).toBeGreaterThan(1);
      const ids = result.windows.map((window) => window.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const window of result.windows) expect(Number.isFinite(window.score)).toBe(true);
      for (let i = 1; i < result.windows.length; i += 1) {
        expect(result.windows[i - 1].score).toBeGreaterThanOrEqual(result.windows[i].score);
      }
    });

    it('respects topN', async () => {
      const all = (await run({ topN: 1000 })).result.windows.length;
      expect(all).toBeGreaterThan(topN);
      for (const n of [0, 1, topN]) {
        const { result } = await run({ topN: n });
        expect(result.windows.length).toBeLessThanOrEqual(n);
        if (n > 0) expect(result.windows.length).toBeGreaterThan(0);
      }
    });

    it('keeps provenance: evidenceIds name input units whose chunks overlap the window', async () => {
      const { fixture, result } = await run({ topN: 1000 });
      expectProvenance(fixture, result.windows, options.allowWindowsWithoutEvidence === true);
    });

    it('handles empty evidence', async () => {
      const { result } = await run({ evidence: [] });
      expect(result.windows.length).toBeLessThanOrEqual(topN);
      if (!options.allowWindowsWithoutEvidence) expect(result.windows).toEqual([]);
      for (const window of result.windows) expect(window.evidenceIds).toEqual([]);
    });

    it('does not modify its inputs', async () => {
      await expectInputsUntouched(await load(), await options.create(), topN);
    });

    it('rejects with MosaicAbortedError when the signal is already aborted', async () => {
      const fixture = await load();
      const reranker = await options.create();
      const controller = new AbortController();
      controller.abort();
      await expect(
        reranker.rerank({ index: fixture.index, context: fixture.context, evidence: fixture.evidence, topN, abortSignal: controller.signal }),
      ).rejects.toMatchObject({ name: 'MosaicAbortedError' });
    });

    it('is deterministic for identical inputs', async () => {
      const first = (await run()).result;
      const second = (await run()).result;
      expect(second.windows).toEqual(first.windows);
    });

    it('returns a trace consistent with its windows', async () => {
      const { result } = await run();
      expect(result.trace.windows).toEqual(result.windows);
      expect(typeof result.trace.reranker).toBe('string');
      expect(result.trace.candidateWindows).toBeGreaterThanOrEqual(result.windows.length);
    });
  });
}

/** The fixture loader and a rerank of it with the reranker under test, for the checks below. */
function rerankRunner(options: WindowRerankerConformanceOptions, topN: number) {
  const load = async (): Promise<RerankerFixture> => {
    const fixture = options.fixture ?? createRerankerFixture;
    return typeof fixture === 'function' ? fixture() : fixture;
  };
  const run = async (overrides: Partial<RerankOptions> = {}) => {
    const fixture = await load();
    const reranker = await options.create();
    const request: RerankOptions = { index: fixture.index, context: fixture.context, evidence: fixture.evidence, topN, ...overrides };
    return { fixture, reranker, request, result: await reranker.rerank(request) };
  };
  return { load, run };
}

/** Every window keeps its stored text and names only input units whose chunks overlap it. */
function expectProvenance(fixture: RerankerFixture, windows: readonly RankedWindow[], allowWindowsWithoutEvidence: boolean): void {
  const units = new Map(fixture.evidence.map((unit) => [unit.id, unit]));
  for (const window of windows) {
    expect(new Set(window.evidenceIds).size).toBe(window.evidenceIds.length);
    if (!allowWindowsWithoutEvidence) expect(window.evidenceIds.length).toBeGreaterThan(0);
    const stored = fixture.index.chunks.getWindow(window.id);
    if (stored) {
      expect({ text: window.text, documentId: window.documentId, start: window.start, end: window.end }).toEqual({
        text: stored.text,
        documentId: stored.documentId,
        start: stored.start,
        end: stored.end,
      });
    }
    for (const evidenceId of window.evidenceIds) {
      const unit = units.get(evidenceId);
      expect(unit, `unknown evidence id ${evidenceId}`).toBeDefined();
      expect(overlaps(fixture, unit as EvidenceUnit, window), `${evidenceId} does not reach ${window.id}`).toBe(true);
    }
  }
  if (!allowWindowsWithoutEvidence) {
    const cited = new Set(windows.flatMap((window) => window.evidenceIds));
    expect(cited.size).toBeGreaterThan(0);
  }
}

/** A rerank leaves the evidence and the query vector as they were. */
async function expectInputsUntouched(fixture: RerankerFixture, reranker: WindowReranker, topN: number): Promise<void> {
  const evidence = structuredClone(fixture.evidence);
  const vector = Float32Array.from(fixture.context.queryVector);
  await reranker.rerank({ index: fixture.index, context: fixture.context, evidence: fixture.evidence, topN });
  expect(fixture.evidence).toEqual(evidence);
  expect(Array.from(fixture.context.queryVector)).toEqual(Array.from(vector));
}

function overlaps(fixture: RerankerFixture, unit: EvidenceUnit, window: RankedWindow): boolean {
  return unit.chunkIds.some((chunkId) => {
    const chunk = fixture.index.chunks.getChunk(chunkId);
    return chunk !== undefined && chunk.documentId === window.documentId && chunk.start < window.end && window.start < chunk.end;
  });
}
