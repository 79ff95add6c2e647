import type { CorpusIndex, EvidenceUnit, QueryContext, RankedWindow, Reranking, RerankOptions, WindowReranker } from '@mosaic/spec';
import { createConformanceRun, createStageFixture, ensure, ensureAbortHonoured, ensureSame, type ConformanceReport } from '@mosaic/testing/conformance';

export { createStageFixture, type ConformanceReport, type StageFixture } from '@mosaic/testing/conformance';
export { createRerankerFixture, type RerankerFixture } from './conformance-fixture.js';

export interface WindowRerankerConformanceCheckOptions {
  reranker: WindowReranker;
  /** Index, context and evidence to run on (default: `createStageFixture()` of @mosaic/testing; `createRerankerFixture()` gives more windows). */
  fixture?: { index: CorpusIndex; context: QueryContext; evidence: readonly EvidenceUnit[] };
  /** The reranker may return windows not reached from the evidence (empty evidenceIds), e.g. fusion or expansion. */
  allowWindowsWithoutEvidence?: boolean;
  /** The small N the checks ask for (default 2); the fixture's evidence must reach more windows than this. */
  topN?: number;
}

/**
 * Check a WindowReranker against the contract: a version tag and id; windows with unique ids and
 * finite scores, best first; `topN` respected (0, 1, N); provenance kept (evidenceIds name input
 * units whose chunks overlap the window; text and offsets as stored); empty evidence handled;
 * inputs untouched; an aborted signal rejected with MosaicAbortedError; the same windows for the
 * same inputs; a trace consistent with the windows. Returns a report.
 */
export async function checkWindowRerankerConformance(options: WindowRerankerConformanceCheckOptions): Promise<ConformanceReport> {
  const { reranker } = options;
  const topN = options.topN ?? 2;
  const fixture = options.fixture ?? (await createStageFixture());
  const run = createConformanceRun(`WindowReranker ${String(reranker.id)}`);
  const rerank = (overrides: Partial<RerankOptions> = {}): Promise<Reranking> =>
    reranker.rerank({ index: fixture.index, context: fixture.context, evidence: fixture.evidence, topN, ...overrides });
  let all: Reranking | undefined;
  const windows = () => {
    ensure(all, 'rerank() failed');
    return all.windows;
  };

  await run.check('identifies itself with specificationVersion v1 and an id', () => {
    ensure(reranker.specificationVersion === 'v1', `specificationVersion is ${String(reranker.specificationVersion)}, expected 'v1'`);
    ensure(typeof reranker.id === 'string' && reranker.id.length > 0, 'id is empty');
  });
  await run.check('returns windows best first, with unique ids and finite scores, inputs untouched', async () => {
    const before = structuredClone({ evidence: fixture.evidence, vector: Array.from(fixture.context.queryVector) });
    all = await rerank({ topN: 1000 });
    ensure(Array.isArray(all?.windows) && all.windows.length > 1, 'fewer than two windows for the fixture evidence');
    const ids = all.windows.map((window) => window.id);
    ensure(new Set(ids).size === ids.length, 'a window appears twice');
    for (const window of all.windows) ensure(Number.isFinite(window.score), `window ${window.id} has score ${window.score}`);
    for (let i = 1; i < all.windows.length; i += 1)
      ensure(all.windows[i - 1].score >= all.windows[i].score, `window ${all.windows[i].id} ranks below a lower score`);
    ensureSame({ evidence: fixture.evidence, vector: Array.from(fixture.context.queryVector) }, before, 'the evidence or query vector was modified');
  });
  await run.check('respects topN', async () => {
    ensure(windows().length > topN, `the fixture evidence reaches only ${windows().length} windows; need more than ${topN}`);
    for (const n of [0, 1, topN]) {
      const { windows: some } = await rerank({ topN: n });
      ensure(some.length <= n && (n === 0 || some.length > 0), `topN ${n} returned ${some.length} windows`);
    }
  });
  await run.check('keeps provenance: evidenceIds name input units whose chunks overlap the window', () => {
    const units = new Map(fixture.evidence.map((unit) => [unit.id, unit]));
    for (const window of windows()) {
      ensure(new Set(window.evidenceIds).size === window.evidenceIds.length, `window ${window.id} repeats an evidence id`);
      if (!options.allowWindowsWithoutEvidence) ensure(window.evidenceIds.length > 0, `window ${window.id} is reached by no evidence`);
      const stored = fixture.index.chunks.getWindow(window.id);
      if (stored) {
        ensureSame(
          [window.text, window.documentId, window.start, window.end],
          [stored.text, stored.documentId, stored.start, stored.end],
          `window ${window.id} differs from the stored window`,
        );
      }
      for (const evidenceId of window.evidenceIds) {
        const unit = units.get(evidenceId);
        ensure(unit, `window ${window.id}: unknown evidence id ${evidenceId}`);
        ensure(overlaps(fixture.index, unit, window), `${evidenceId} does not reach ${window.id}`);
      }
    }
    ensure(
      windows().some((window) => window.evidenceIds.length > 0),
      'no window cites the evidence',
    );
  });
  await run.check('handles empty evidence', async () => {
    const { windows: some } = await rerank({ evidence: [] });
    ensure(some.length <= topN, `${some.length} windows for topN ${topN}`);
    if (!options.allowWindowsWithoutEvidence) ensure(some.length === 0, `${some.length} windows without evidence`);
    for (const window of some) ensure(window.evidenceIds.length === 0, `window ${window.id} cites evidence that was not given`);
  });
  await run.check('rejects with MosaicAbortedError when the signal is already aborted', () => ensureAbortHonoured((abortSignal) => rerank({ abortSignal })));
  await run.check('is deterministic for identical inputs', async () => {
    const again = await rerank({ topN: 1000 });
    ensureSame(again.windows, windows(), 'a second run returned other windows');
  });
  await run.check('returns a trace consistent with its windows', () => {
    ensure(all, 'rerank() failed');
    ensureSame(all.trace?.windows, all.windows, 'trace.windows differs from windows');
    ensure(typeof all.trace.reranker === 'string', 'trace.reranker is not a string');
    ensure(all.trace.candidateWindows >= all.windows.length, `candidateWindows ${all.trace.candidateWindows} < ${all.windows.length} windows`);
  });
  return run.report();
}

function overlaps(index: CorpusIndex, unit: EvidenceUnit, window: RankedWindow): boolean {
  return unit.chunkIds.some((chunkId) => {
    const chunk = index.chunks.getChunk(chunkId);
    return chunk !== undefined && chunk.documentId === window.documentId && chunk.start < window.end && window.start < chunk.end;
  });
}
