import { describe, expect, it } from 'vitest';
import { createOfflineAnalyzer } from '@mosaic/analyzer';
import { fixedPolicy } from '@mosaic/policy-schema';
import { createSeedSelector } from '@mosaic/seed-selection';
import { createFusionReranker } from '@mosaic/window-reranker';
import { InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type {
  Analyzer,
  AnalyzerWarmUpOptions,
  ChunkStore,
  CorpusIndex,
  GraphStore,
  SentenceTokens,
  Generator,
  RankedWindow,
  RerankOptions,
  ScoredPath,
  SeedSelector,
  Traversal,
  TraverseOptions,
  Traverser,
  WindowReranker,
} from '@mosaic/spec';
import { MATCH_TOKENS_ID } from '@mosaic/stage-utils/internal';
import { createMosaic } from './create-mosaic.js';
import type { StageEndEvent, StageStartEvent } from './stage-hooks.js';
import { buildMedicalIndex, MULTI_HOP } from './__fixtures__/medical-index.js';

const TERMS = { relation: 1, target: 0, specificity: 1, anchor: 0, transition: 0, coherence: 1, hub: 0, repetition: 0, questionLike: 0 };

/** A traverser written here, against the spec only: every one-hop path from every seed, scored by rank. */
function oneHopTraverser(): Traverser & { calls: TraverseOptions[]; produced: ScoredPath[] } {
  const traverser = {
    specificationVersion: 'v1' as const,
    id: 'test:one-hop',
    calls: [] as TraverseOptions[],
    produced: [] as ScoredPath[],
    async traverse(options: TraverseOptions): Promise<Traversal> {
      traverser.calls.push(options);
      const neighbors = await options.index.graph.neighbors(options.seeds.map((seed) => seed.nodeId));
      const paths: ScoredPath[] = [];
      for (const seed of options.seeds) {
        for (const { edge, node } of neighbors.get(seed.nodeId) ?? []) {
          paths.push({
            id: `one-hop:${seed.nodeId}>${edge.id}>${node}`,
            nodes: [seed.nodeId, node],
            edges: [edge.id],
            score: 1 / (paths.length + 1),
            terms: TERMS,
            seed: seed.nodeId,
            origin: 'beam',
            depth: 1,
          });
        }
      }
      traverser.produced = paths;
      return {
        paths,
        trace: { depths: [], stopReason: 'exhausted', depthReached: 1, pathsEvaluated: paths.length, weights: { oneHop: 1 }, roundTrips: 1 },
      };
    },
  };
  return traverser;
}

/** A reranker written here: every window of the evidence's chunks, in document order, score 1/(rank). */
function documentOrderReranker(): WindowReranker & { calls: RerankOptions[] } {
  const reranker = {
    specificationVersion: 'v1' as const,
    id: 'test:document-order',
    calls: [] as RerankOptions[],
    async rerank(options: RerankOptions) {
      reranker.calls.push(options);
      const seen = new Map<string, RankedWindow>();
      for (const unit of options.evidence) {
        for (const chunkId of unit.chunkIds) {
          for (const window of options.index.chunks.windowsOfChunk(chunkId)) {
            const existing = seen.get(window.id);
            if (existing) existing.evidenceIds.push(unit.id);
            else seen.set(window.id, { ...window, score: 0, evidenceIds: [unit.id] });
          }
        }
      }
      const windows = [...seen.values()]
        .sort((a, b) => a.start - b.start)
        .slice(0, options.topN)
        .map((window, rank) => ({ ...window, score: 1 / (rank + 1) }));
      return { windows, trace: { reranker: reranker.id, candidateWindows: seen.size, windows } };
    },
  };
  return reranker;
}

function countingAnalyzer(inner: Analyzer = createOfflineAnalyzer()): Analyzer & { calls: number } {
  const analyzer = {
    specificationVersion: 'v1' as const,
    id: inner.id,
    calls: 0,
    analyze: (options: Parameters<Analyzer['analyze']>[0]) => {
      analyzer.calls += 1;
      return inner.analyze(options);
    },
  };
  return analyzer;
}

function countingEncoder(index: CorpusIndex): { index: CorpusIndex; calls: string[][] } {
  const calls: string[][] = [];
  const encoder = {
    ...index.encoder,
    specificationVersion: 'v1' as const,
    id: index.encoder.id,
    dimension: index.encoder.dimension,
    encode: (texts: readonly string[], options?: { abortSignal?: AbortSignal }) => {
      calls.push([...texts]);
      return index.encoder.encode(texts, options);
    },
  };
  return { index: { ...index, encoder }, calls };
}

describe('createMosaic with the offline defaults', () => {
  it('retrieves the windows holding both hops of a multi-hop question', async () => {
    const index = await buildMedicalIndex();
    const mosaic = createMosaic({ index });
    const result = await mosaic.retrieve({ question: MULTI_HOP.question });
    expect(result.windows.length).toBeGreaterThan(0);
    expect(result.windows.length).toBeLessThanOrEqual(15);
    for (const fact of MULTI_HOP.facts) expect(result.windows.some((window) => window.text.includes(fact))).toBe(true);
    expect(result.analysis.analyzer).toBe(mosaic.stages.analyzer.id);
    expect(result.policy).toBe(result.analysis.policy);
    expect(result.seeds.length).toBeGreaterThan(0);
    expect(result.evidence.length).toBeGreaterThan(0);
  });

  it('reports effort and timings consistent with the stage traces', async () => {
    const index = await buildMedicalIndex();
    const result = await createMosaic({ index }).retrieve({ question: MULTI_HOP.question });
    expect(result.effort).toEqual({
      pathsEvaluated: result.trace.traversal.pathsEvaluated,
      depthReached: result.trace.traversal.depthReached,
      selectedPaths: result.paths.length,
      retainedEvidence: result.evidence.length,
    });
    expect(result.trace.effort).toEqual(result.effort);
    expect(result.trace.question).toBe(MULTI_HOP.question);
    // The focus step reorders the reranker's windows (and names their sources); the same windows come back.
    expect(result.trace.rerank.windows.map((w) => w.id).sort()).toEqual(result.windows.map((w) => w.id).sort());
    const t = result.timings;
    for (const value of [t.analyze, t.encode, t.seeds, t.traverse, t.evidence, t.rerank, t.retrieval, t.total]) expect(value).toBeGreaterThanOrEqual(0);
    expect(t.ground).toBeGreaterThanOrEqual(0);
    expect(t.retrieval).toBeCloseTo(t.encode + t.seeds + t.traverse + t.evidence + t.rerank + t.ground!, 6);
    expect(t.total).toBeGreaterThanOrEqual(t.seeds + t.traverse + t.evidence + t.rerank + t.ground!);
    expect(t.generate).toBeUndefined();
    expect(result.trace.timings).toEqual(t);
  });

  it('counts the grounding after reranking (focus, sources, support) in the retrieval and total times', async () => {
    const index = await buildMedicalIndex();
    // Placing the windows in their sources reads each document's outline: make that slow.
    const slowMs = 40;
    const chunks = Object.create(index.chunks) as typeof index.chunks;
    chunks.documentOutline = (documentId: string) => {
      const until = performance.now() + slowMs;
      while (performance.now() < until) {
        // busy: the wall time the grounding must count
      }
      return index.chunks.documentOutline?.(documentId);
    };
    const result = await createMosaic({ index: { ...index, chunks } }).retrieve({ question: MULTI_HOP.question });
    const t = result.timings;
    expect(result.windows.length).toBeGreaterThan(0);
    expect(t.ground).toBeGreaterThanOrEqual(slowMs * result.windows.length);
    expect(t.retrieval).toBeGreaterThanOrEqual(t.ground!);
    expect(t.total).toBeGreaterThanOrEqual(t.encode + t.seeds + t.traverse + t.evidence + t.rerank + t.ground!);
  });

  it("weighs each window's title and section trail against the question (the focus step's heading term), from the index's outline", async () => {
    const index = await buildMedicalIndex({ lexical: true });
    const plain = await createMosaic({ index }).retrieve({ question: MULTI_HOP.question });
    expect(plain.trace.focus?.windows.every((w) => w.heading === 0)).toBe(true); // the fixture page has no outline
    // A section headed with words of the question, holding the start of the window the focus put second.
    const target = plain.windows[1]!;
    const chunks = Object.create(index.chunks) as typeof index.chunks;
    chunks.documentOutline = (documentId: string) =>
      documentId === target.documentId ? { sections: [{ path: ['Veltrane dust exposure'], start: target.start, end: target.start + 1 }] } : undefined;
    const result = await createMosaic({ index: { ...index, chunks } }).retrieve({ question: MULTI_HOP.question });
    expect(result.windows.map((w) => w.id).sort()).toEqual(plain.windows.map((w) => w.id).sort());
    const headed = result.trace.focus!.windows.find((entry) => entry.id === target.id)!.heading;
    expect(headed).toBeGreaterThan(0);
    expect(headed).toBeLessThan(1);
    for (const entry of result.trace.focus!.windows) {
      const window = result.windows.find((w) => w.id === entry.id)!;
      // A window starting in the section has its heading (a cosine with the question in (0, 1)), and so
      // has one that holds the section's start (sectionsWithin); any other has none.
      if (window.start === target.start) {
        expect(window.source?.section).toEqual(['Veltrane dust exposure']);
        expect(entry.heading).toBe(headed);
      } else if (window.documentId === target.documentId && window.start < target.start && target.start < window.end) {
        expect(window.source?.section).toBeUndefined();
        expect(entry.heading).toBe(headed);
      } else {
        expect(entry.heading).toBe(0);
      }
      expect(entry.score).toBeCloseTo(entry.proximity + entry.document + entry.heading, 5);
    }
  });

  it('asks the lexical window index how many windows hold a word once per question, for the focus step and the support judgement together', async () => {
    const index = await buildMedicalIndex({ lexical: true });
    const lexical = index.lexical!.windows!;
    const matchCount = lexical.matchCount!.bind(lexical);
    const asked: string[] = [];
    lexical.matchCount = (query: string) => {
      asked.push(query);
      return matchCount(query);
    };
    const result = await createMosaic({ index }).retrieve({ question: MULTI_HOP.question });
    // The support judgement weighs the question's words, the heading term weighs them too (no outline here,
    // so only the question's): each is asked once.
    expect(result.support.questionTokens.length).toBeGreaterThan(0);
    expect(asked.length).toBeGreaterThan(0);
    expect(new Set(asked).size).toBe(asked.length);
  });

  it("weighs the headings of the sections that begin inside a window (the focus step's heading term), from the index's outline", async () => {
    const index = await buildMedicalIndex({ lexical: true });
    const plain = await createMosaic({ index }).retrieve({ question: MULTI_HOP.question });
    const target = plain.windows[1]!;
    const sectionStart = target.start + 1; // inside the window, after its start
    const chunks = Object.create(index.chunks) as typeof index.chunks;
    chunks.documentOutline = (documentId: string) =>
      documentId === target.documentId ? { sections: [{ path: ['Veltrane dust exposure'], start: sectionStart, end: sectionStart + 1 }] } : undefined;
    const result = await createMosaic({ index: { ...index, chunks } }).retrieve({ question: MULTI_HOP.question });
    const headed = result.trace.focus!.windows.find((entry) => entry.id === target.id)!.heading;
    // The window does not start in the section, but holds its opening.
    expect(result.windows.find((w) => w.id === target.id)!.source?.section).toBeUndefined();
    expect(headed).toBeGreaterThan(0);
    expect(headed).toBeLessThan(1);
    for (const entry of result.trace.focus!.windows) {
      const window = result.windows.find((w) => w.id === entry.id)!;
      const holds = window.documentId === target.documentId && window.start < sectionStart && sectionStart < window.end;
      expect(entry.heading).toBe(holds ? headed : 0);
    }
  });

  it('asks: the extractive generator answers from the retrieved windows', async () => {
    const index = await buildMedicalIndex();
    const result = await createMosaic({ index }).ask({ question: { id: MULTI_HOP.id, text: MULTI_HOP.question } });
    expect(result.question.id).toBe(MULTI_HOP.id);
    expect(result.answer.extractive).toBe(true);
    expect(result.answer.text.toLowerCase()).toContain('calditrex');
    for (const citation of result.answer.citations) expect(result.windows[citation.window - 1].id).toBe(citation.windowId);
    expect(result.timings.generate).toBeGreaterThanOrEqual(0);
    expect(result.trace.timings).toEqual(result.timings);
  });

  it('encodes the question once and hands that vector to every stage', async () => {
    const { index, calls } = countingEncoder(await buildMedicalIndex());
    const traverser = oneHopTraverser();
    const reranker = documentOrderReranker();
    await createMosaic({ index, traverser, reranker, policy: 'medium' }).retrieve({ question: MULTI_HOP.question });
    // 'medium' uses the full question as the seed query: nothing else needs encoding.
    expect(calls).toEqual([[MULTI_HOP.question]]);
    const [vector] = await index.encoder.encode([MULTI_HOP.question]);
    expect(Array.from(traverser.calls[0].context.queryVector)).toEqual(Array.from(vector));
    expect(reranker.calls[0].context.queryVector).toBe(traverser.calls[0].context.queryVector);
  });
});

describe('createMosaic with stages written in this test', () => {
  it('uses a custom traverser and a custom reranker without touching library code', async () => {
    const index = await buildMedicalIndex();
    const traverser = oneHopTraverser();
    const reranker = documentOrderReranker();
    const mosaic = createMosaic({ index, traverser, reranker, windows: 4 });
    expect(mosaic.stages.traverser).toBe(traverser);
    const result = await mosaic.ask({ question: MULTI_HOP.question });
    expect(traverser.calls).toHaveLength(1);
    expect(traverser.calls[0].seeds).toEqual(result.seeds);
    expect(traverser.calls[0].context.policy).toEqual(result.policy);
    expect(reranker.calls).toHaveLength(1);
    expect(reranker.calls[0].topN).toBe(4);
    expect(reranker.calls[0].evidence).toEqual(result.evidence);
    // The traverser's output reached the evidence selector; the reranker's output is the result.
    expect(result.trace.traversal.weights).toEqual({ oneHop: 1 });
    const produced = new Set(traverser.produced.map((path) => path.id));
    expect(result.paths.length).toBeGreaterThan(0);
    for (const path of result.paths) expect(produced.has(path.id)).toBe(true);
    for (const unit of result.evidence) for (const pathId of unit.pathIds) expect(produced.has(pathId)).toBe(true);
    expect(result.windows.map((w) => w.score).sort((a, b) => b - a)).toEqual(result.windows.map((_, rank) => 1 / (rank + 1)));
    expect(result.trace.rerank.reranker).toBe('test:document-order');
    expect(result.effort.pathsEvaluated).toBe(traverser.produced.length);
  });

  it('forces a fixed policy: the analyzer is skipped and the analysis names the policy', async () => {
    const index = await buildMedicalIndex();
    const analyzer = countingAnalyzer();
    const traverser = oneHopTraverser();
    const mosaic = createMosaic({ index, analyzer, traverser });
    const wide = await mosaic.retrieve({ question: MULTI_HOP.question, policy: 'wide' });
    expect(analyzer.calls).toBe(0);
    expect(wide.analysis.analyzer).toBe('fixed:wide');
    expect(wide.policy).toEqual(fixedPolicy('wide'));
    expect(traverser.calls[0].context.policy.beamWidth).toBe(16);
    const custom = await mosaic.retrieve({ question: MULTI_HOP.question, policy: { seedLimit: 2, maxDepth: 2 } });
    expect(custom.analysis.analyzer).toBe('fixed:custom');
    expect(custom.policy.seedLimit).toBe(2);
    expect(custom.seeds.length).toBeLessThanOrEqual(2);
    expect(custom.analysis.changes.map((change) => change.field)).not.toContain('seedLimit');
    expect(custom.analysis.changes.map((change) => change.field)).toContain('beamWidth');
    await mosaic.retrieve({ question: MULTI_HOP.question });
    expect(analyzer.calls).toBe(1);
    const forcedForAll = createMosaic({ index, analyzer, policy: 'narrow' });
    expect((await forcedForAll.retrieve({ question: 'What is Morrow syndrome?' })).analysis.analyzer).toBe('fixed:narrow');
    expect(analyzer.calls).toBe(1);
  });

  it('rejects unusable options with InvalidArgumentError', async () => {
    const index = await buildMedicalIndex();
    const invalid = { name: 'MosaicInvalidArgumentError' };
    expect(() => createMosaic({ index, windows: 0 })).toThrowError(expect.objectContaining(invalid));
    expect(() => createMosaic({ index, policy: 'huge' as 'wide' })).toThrowError(expect.objectContaining(invalid));
    const mosaic = createMosaic({ index });
    await expect(mosaic.retrieve({ question: '  ' })).rejects.toMatchObject(invalid);
    await expect(mosaic.retrieve({ question: MULTI_HOP.question, policy: { beamWidth: -1 } })).rejects.toMatchObject(invalid);
    await expect(mosaic.retrieve({ question: MULTI_HOP.question, policy: { stopRegime: 'never' as 'deep' } })).rejects.toMatchObject(invalid);
    await expect(mosaic.retrieve({ question: MULTI_HOP.question, windows: 1.5 })).rejects.toMatchObject(invalid);
  });

  it('calls hooks around every stage, in pipeline order', async () => {
    const index = await buildMedicalIndex();
    const events: Array<['start', StageStartEvent] | ['end', StageEndEvent]> = [];
    const mosaic = createMosaic({
      index,
      hooks: { onStageStart: (event) => events.push(['start', event]), onStageEnd: (event) => events.push(['end', event]) },
    });
    const result = await mosaic.ask({ question: MULTI_HOP.question });
    const stages = ['analyze', 'encode', 'seeds', 'traverse', 'evidence', 'rerank', 'generate'];
    for (const stage of stages) {
      expect(events.filter(([kind, event]) => kind === 'start' && event.stage === stage)).toHaveLength(1);
      expect(events.filter(([kind, event]) => kind === 'end' && event.stage === stage)).toHaveLength(1);
    }
    const position = (kind: 'start' | 'end', stage: string) => events.findIndex(([k, e]) => k === kind && e.stage === stage);
    // analyze and encode run concurrently; everything after waits for both.
    expect(position('start', 'seeds')).toBeGreaterThan(Math.max(position('end', 'analyze'), position('end', 'encode')));
    for (let i = 2; i < stages.length - 1; i += 1) expect(position('start', stages[i + 1])).toBeGreaterThan(position('end', stages[i]));
    const end = (stage: string) => events.find(([k, e]) => k === 'end' && e.stage === stage)![1] as StageEndEvent;
    expect(end('analyze').result).toEqual(result.analysis);
    expect((end('rerank').result as { windows: { id: string }[] }).windows.map((w) => w.id).sort()).toEqual(result.windows.map((w) => w.id).sort());
    expect(end('generate').result).toEqual(result.answer);
    expect(end('traverse').durationMs).toBe(result.timings.traverse);
    for (const [, event] of events) expect(event.question.text).toBe(MULTI_HOP.question);
  });

  it('calls the hooks of one call after the instance hooks, for that call only', async () => {
    const index = await buildMedicalIndex();
    const order: string[] = [];
    const mosaic = createMosaic({ index, hooks: { onStageEnd: ({ stage }) => order.push(`instance:${stage}`) } });
    const own: string[] = [];
    await mosaic.ask({
      question: MULTI_HOP.question,
      hooks: { onStageEnd: ({ stage }) => order.push(`call:${stage}`), onStageStart: ({ stage }) => own.push(stage) },
    });
    expect(own).toEqual(expect.arrayContaining(['analyze', 'encode', 'seeds', 'traverse', 'evidence', 'rerank', 'generate']));
    expect(order.indexOf('call:rerank')).toBe(order.indexOf('instance:rerank') + 1);
    expect(order.indexOf('call:generate')).toBe(order.indexOf('instance:generate') + 1);
    order.length = 0;
    await mosaic.retrieve({ question: MULTI_HOP.question });
    expect(order.filter((entry) => entry.startsWith('call:'))).toEqual([]);
    expect(order).toContain('instance:rerank');
  });

  it('propagates typed stage errors unchanged', async () => {
    const index = await buildMedicalIndex();
    const failure = new InvalidArgumentError({ argument: 'seeds', message: 'test failure' });
    const seedSelector: SeedSelector = {
      specificationVersion: 'v1',
      id: 'test:failing',
      async selectSeeds() {
        throw failure;
      },
    };
    await expect(createMosaic({ index, seedSelector }).retrieve({ question: MULTI_HOP.question })).rejects.toBe(failure);
  });

  it("runs the question state's onDone once the reranker is over, and also when a stage fails", async () => {
    const index = await buildMedicalIndex();
    const events: string[] = [];
    const traverser: Traverser = {
      ...oneHopTraverser(),
      async traverse(options) {
        options.context.state?.onDone?.push(() => events.push('done'));
        return oneHopTraverser().traverse(options);
      },
    };
    const reranker: WindowReranker = {
      ...documentOrderReranker(),
      async rerank(options) {
        events.push('rerank');
        return documentOrderReranker().rerank(options);
      },
    };
    await createMosaic({ index, traverser, reranker }).retrieve({ question: MULTI_HOP.question });
    expect(events).toEqual(['rerank', 'done']);
    const failure = new InvalidArgumentError({ argument: 'rerank', message: 'test failure' });
    const failing: WindowReranker = {
      ...reranker,
      async rerank() {
        throw failure;
      },
    };
    events.length = 0;
    await expect(createMosaic({ index, traverser, reranker: failing }).retrieve({ question: MULTI_HOP.question })).rejects.toBe(failure);
    expect(events).toEqual(['done']);
  });

  it('rejects a query vector whose dimension does not match the index with DimensionMismatchError', async () => {
    const index = await buildMedicalIndex();
    const manifest = { ...index.manifest, encoder: { ...index.manifest.encoder, dimension: index.manifest.encoder.dimension + 1 } };
    await expect(createMosaic({ index: { ...index, manifest } }).retrieve({ question: MULTI_HOP.question })).rejects.toMatchObject({
      name: 'MosaicDimensionMismatchError',
    });
  });

  it('honours aborts: before the start and in the middle of a stage', async () => {
    const index = await buildMedicalIndex();
    const aborted = new AbortController();
    aborted.abort();
    const mosaic = createMosaic({ index });
    await expect(mosaic.retrieve({ question: MULTI_HOP.question, abortSignal: aborted.signal })).rejects.toMatchObject({
      name: 'MosaicAbortedError',
    });
    // A traverser that waits until the signal fires; abort during traversal.
    const controller = new AbortController();
    let reachedRerank = false;
    const slowTraverser: Traverser = {
      specificationVersion: 'v1',
      id: 'test:slow',
      traverse: ({ abortSignal }) =>
        new Promise((_, reject) => {
          abortSignal?.addEventListener('abort', () => reject(abortSignal.reason));
          setTimeout(() => controller.abort(), 5);
        }),
    };
    const reranker: WindowReranker = {
      ...documentOrderReranker(),
      rerank: async () => ((reachedRerank = true), { windows: [], trace: { reranker: 'x', candidateWindows: 0, windows: [] } }),
    };
    const pending = createMosaic({ index, traverser: slowTraverser, reranker }).retrieve({ question: MULTI_HOP.question, abortSignal: controller.signal });
    await expect(pending).rejects.toMatchObject({ name: 'MosaicAbortedError' });
    expect(reachedRerank).toBe(false);
    // A stage that ignores the signal still cannot hand on to the next stage after an abort.
    const late = new AbortController();
    const ignoring: Traverser = {
      ...oneHopTraverser(),
      async traverse(options) {
        late.abort();
        return oneHopTraverser().traverse(options);
      },
    };
    await expect(
      createMosaic({ index, traverser: ignoring, reranker }).retrieve({ question: MULTI_HOP.question, abortSignal: late.signal }),
    ).rejects.toMatchObject({ name: 'MosaicAbortedError' });
    expect(reachedRerank).toBe(false);
  });
});

describe('warmUp', () => {
  it('prepares the lexical indexes and retrieves the opening words of the first window, unseen by the analyzer and the hooks; later answers are the same', async () => {
    const index = await buildMedicalIndex({ lexical: true });
    const questions = [MULTI_HOP.question, 'What is Morrow syndrome?', 'Which drug treats fever?'];
    const cold = createMosaic({ index: await buildMedicalIndex({ lexical: true }) });
    const expected = [];
    for (const question of questions) expected.push((await cold.retrieve({ question })).windows);

    const prepared: string[] = [];
    for (const [name, lexical] of Object.entries(index.lexical ?? {})) {
      const prepare = lexical?.prepare?.bind(lexical);
      if (!lexical || !prepare) continue;
      lexical.prepare = () => {
        prepared.push(name);
        return prepare();
      };
    }
    const analyzer = countingAnalyzer();
    const seen: string[] = [];
    // The seed selector of the pipeline, recording the seed queries it is asked with.
    const seedModes: string[] = [];
    const selector = createSeedSelector();
    const seedSelector = {
      ...selector,
      selectSeeds: (options: Parameters<typeof selector.selectSeeds>[0]) => {
        seedModes.push(`${options.context.policy.seedQueryMode}:${options.context.policy.perTargetQueries.length}`);
        return selector.selectSeeds(options);
      },
    };
    const mosaic = createMosaic({ index, analyzer, seedSelector, hooks: { onStageStart: (event) => seen.push(event.question.text) } });
    const warmed = await mosaic.warmUp();
    // The whole question, then one seed query per target (three, made of its words).
    expect(seedModes).toEqual(['full:0', 'per-target:3']);
    expect(warmed.retrievals).toBe(2);
    expect(prepared.sort()).toEqual(['entities', 'relations', 'windows']);
    expect(warmed.preparedBytes).toBeGreaterThan(0);
    const firstWindow = index.chunks.getWindow(index.windowIds[0]!)!.text;
    expect(warmed.question).toBeDefined();
    expect(warmed.question!.split(' ').length).toBeLessThanOrEqual(24);
    expect(firstWindow.startsWith(warmed.question!.split(' ')[0]!)).toBe(true);
    expect(analyzer.calls).toBe(0);
    expect(seen).toEqual([]);
    expect(warmed.durationMs).toBeGreaterThan(0);
    for (const [i, question] of questions.entries()) expect((await mosaic.retrieve({ question })).windows).toEqual(expected[i]);
    expect(seen.length).toBeGreaterThan(0);
  });

  it("has a graph store with span columns number their sentences in the chunk store's sentence tokens before it retrieves", async () => {
    const index = await buildMedicalIndex({ lexical: true });
    const log: string[] = [];
    const sentences: SentenceTokens = {
      tokenizer: MATCH_TOKENS_ID,
      vocabulary: [],
      tokenStart: Int32Array.of(0),
      tokens: new Int32Array(0),
      sentence: () => -1,
    };
    const inner = index.graph;
    const graph: GraphStore = {
      specificationVersion: 'v1',
      nodeCount: inner.nodeCount,
      edgeCount: inner.edgeCount,
      hubDegree: inner.hubDegree,
      maxDegree: inner.maxDegree,
      getNodes: (ids, options) => {
        log.push('getNodes');
        return (inner as GraphStore).getNodes(ids, options);
      },
      getEdges: (ids) => inner.getEdges(ids),
      neighbors: (ids) => inner.neighbors(ids),
      spanColumns: (kind, id) => ({
        count: 0,
        chunkId: () => '',
        start: () => 0,
        end: () => 0,
        sentenceNumbers: (table) => {
          log.push(table === sentences ? `numbers of ${kind} ${id}` : 'numbers of another table');
          return new Int32Array(0);
        },
      }),
    };
    const inner2 = index.chunks;
    const chunks: ChunkStore = {
      getChunk: (id) => inner2.getChunk(id),
      getWindow: (id) => inner2.getWindow(id),
      windowsOfChunk: (id) => inner2.windowsOfChunk(id),
      chunkCount: inner2.chunkCount,
      windowCount: inner2.windowCount,
      sentenceTokens: sentences,
    };
    await createMosaic({ index: { ...index, graph, chunks } }).warmUp();
    expect(log[0]).toBe(`numbers of node ${index.entityIds[0]}`);
    expect(log).toContain('getNodes');
    // Not for sentence tokens of another tokenizer, which evidence selection does not read.
    log.length = 0;
    await createMosaic({ index: { ...index, graph, chunks: { ...chunks, sentenceTokens: { ...sentences, tokenizer: 'other' } } } }).warmUp();
    expect(log.filter((line) => line.startsWith('numbers'))).toEqual([]);
  });

  it("warms the analyzer up through its own warmUp (never analyze) over the pipeline's graph view, and retrieves with each policy it gives", async () => {
    const index = await buildMedicalIndex({ lexical: true });
    const inner = createOfflineAnalyzer();
    const warmUps: AnalyzerWarmUpOptions[] = [];
    const graphs: unknown[] = [];
    const analyzer: Analyzer & { calls: number } = {
      specificationVersion: 'v1',
      id: inner.id,
      calls: 0,
      analyze: (options) => {
        analyzer.calls += 1;
        graphs.push(options.graph);
        return inner.analyze(options);
      },
      warmUp: (options) => {
        warmUps.push(options);
        return inner.warmUp!(options);
      },
    };
    const policies: string[] = [];
    const selector = createSeedSelector();
    const seedSelector = {
      ...selector,
      selectSeeds: (options: Parameters<typeof selector.selectSeeds>[0]) => {
        policies.push(JSON.stringify(options.context.policy));
        return selector.selectSeeds(options);
      },
    };
    const mosaic = createMosaic({ index, analyzer, seedSelector });
    const warmed = await mosaic.warmUp();
    expect(analyzer.calls).toBe(0);
    expect(warmUps).toHaveLength(1);
    const first = warmUps[0]!;
    const asked = first.questions.map((question) => question.text);
    expect(asked).toHaveLength(3);
    expect(asked[2]).toBe(warmed.question);
    // Named by the two ends of the index's first relation.
    const [edge] = await index.graph.getEdges([index.relationIds[0]!]);
    const ends = await index.graph.getNodes([edge!.source, edge!.target]);
    const [a, b] = [edge!.source, edge!.target].map((id) => ends.find((node) => node.id === id)!.name);
    expect(asked[0]).toBe(`What is ${a}?`);
    expect(asked[1]).toBe(`How is ${a} related to ${b}?`);
    // Without relations, the warm-up question's first words.
    const bare = createMosaic({ index: { ...index, relationIds: [] }, analyzer });
    warmUps.length = 0;
    await bare.warmUp();
    const words = warmed.question!.split(' ');
    expect(warmUps[0]!.questions.map((question) => question.text)).toEqual([
      `What is ${words.slice(0, 2).join(' ')}?`,
      `How is ${words.slice(0, 2).join(' ')} related to ${words.slice(2, 4).join(' ')}?`,
      warmed.question,
    ]);
    expect(warmed).toMatchObject({ analyses: 3, retrievals: 5 });
    // The two fixed retrievals, then one per analysis, with the analyzer's own policies.
    expect(policies).toHaveLength(5);
    const analyses = await inner.warmUp!({ questions: first.questions, graph: first.graph });
    expect(policies.slice(2)).toEqual(analyses.map((analysis) => JSON.stringify(analysis.policy)));
    // The graph view is the one retrieve gives the analyzer.
    await mosaic.retrieve({ question: MULTI_HOP.question });
    expect(graphs[0]).toBe(first.graph);
    // A policy given (to warmUp or to the instance): the analyzer is not asked at all.
    warmUps.length = 0;
    expect(await mosaic.warmUp({ policy: 'narrow' })).toMatchObject({ analyses: 0, retrievals: 1 });
    expect(await createMosaic({ index, analyzer, policy: 'wide' }).warmUp()).toMatchObject({ analyses: 0, retrievals: 2 });
    expect(warmUps).toHaveLength(0);
    // An analyzer without a warmUp: the two fixed retrievals (the test above).
    expect(await createMosaic({ index, analyzer: countingAnalyzer() }).warmUp()).toMatchObject({ analyses: 0, retrievals: 2 });
    // What its warm-up gives is checked as retrieve checks an analysis.
    const broken: Analyzer = { ...analyzer, id: 'test:broken', warmUp: async () => [{ analyzer: 'test:broken', changes: [] }] as never };
    await expect(createMosaic({ index, analyzer: broken }).warmUp()).rejects.toThrow(/policy/);
  });

  it('retrieves a question given, refuses an empty one or an unusable policy, and honours an abort', async () => {
    const index = await buildMedicalIndex();
    const mosaic = createMosaic({ index });
    const warmed = await mosaic.warmUp({ question: MULTI_HOP.question, policy: 'narrow' });
    expect(warmed.question).toBe(MULTI_HOP.question);
    // A policy given is the only one.
    expect(warmed.retrievals).toBe(1);
    // An index without windows has no default question: nothing is retrieved.
    const bare = await createMosaic({ index: { ...index, windowIds: [] } }).warmUp();
    expect(bare).toMatchObject({ retrievals: 0 });
    expect(bare.question).toBeUndefined();
    // No lexical index in this fixture: nothing to prepare.
    expect(warmed.preparedBytes).toBe(0);
    await expect(mosaic.warmUp({ question: '  ' })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError', argument: 'question' });
    await expect(mosaic.warmUp({ policy: 'huge' as 'wide' })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
    const controller = new AbortController();
    controller.abort();
    await expect(mosaic.warmUp({ abortSignal: controller.signal })).rejects.toMatchObject({ name: 'MosaicAbortedError' });
  });
});

describe('analyze', () => {
  it("asks the analyzer over the graph view retrieve gives it, with the instance's forced policy and hooks left out", async () => {
    const index = await buildMedicalIndex();
    const graphs: unknown[] = [];
    const inner = createOfflineAnalyzer();
    const analyzer: Analyzer = {
      specificationVersion: 'v1',
      id: inner.id,
      analyze: (options) => {
        graphs.push(options.graph);
        return inner.analyze(options);
      },
    };
    const seen: string[] = [];
    const mosaic = createMosaic({ index, analyzer, hooks: { onStageStart: (event) => seen.push(event.stage) } });
    const analysis = await mosaic.analyze({ question: MULTI_HOP.question });
    const direct = await inner.analyze({ question: { text: MULTI_HOP.question }, graph: graphs[0] as never });
    expect(analysis.policy).toEqual(direct.policy);
    expect(analysis.analyzer).toBe(inner.id);
    const retrieved = await mosaic.retrieve({ question: MULTI_HOP.question });
    expect(graphs).toHaveLength(2);
    expect(graphs[1]).toBe(graphs[0]);
    expect(retrieved.trace.analysis.policy).toEqual(analysis.policy);
    expect(seen.filter((stage) => stage === 'analyze')).toHaveLength(1);
    // A forced policy is for retrieve: analyze still asks the analyzer.
    const forced = createMosaic({ index, analyzer, policy: 'narrow' });
    expect((await forced.analyze({ question: { id: 'q1', text: MULTI_HOP.question } })).analyzer).toBe(inner.id);
  });

  it('checks what a passed-in analyzer returns, and refuses an empty question or an aborted call', async () => {
    const index = await buildMedicalIndex();
    const broken: Analyzer = { specificationVersion: 'v1', id: 'test:broken', analyze: async () => ({ analyzer: 'test:broken', changes: [] }) as never };
    await expect(createMosaic({ index, analyzer: broken }).analyze({ question: MULTI_HOP.question })).rejects.toThrow(/policy/);
    const mosaic = createMosaic({ index });
    await expect(mosaic.analyze({ question: ' ' })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError', argument: 'question' });
    const controller = new AbortController();
    controller.abort();
    await expect(mosaic.analyze({ question: MULTI_HOP.question, abortSignal: controller.signal })).rejects.toMatchObject({ name: 'MosaicAbortedError' });
  });
});

describe('createMosaic with the graph off (ablation)', () => {
  /** The default fusion reranker, recording what it receives: it also ranks whole-corpus BM25 and dense windows. */
  function recordingFusionReranker(): WindowReranker & { calls: RerankOptions[] } {
    const inner = createFusionReranker();
    const reranker = {
      specificationVersion: 'v1' as const,
      id: inner.id,
      calls: [] as RerankOptions[],
      rerank(options: RerankOptions) {
        reranker.calls.push(options);
        return inner.rerank(options);
      },
    };
    return reranker;
  }

  function recordStages(events: string[]) {
    return {
      onStageStart: ({ stage }: StageStartEvent) => events.push(`start:${stage}`),
      onStageEnd: ({ stage }: StageEndEvent) => events.push(`end:${stage}`),
    };
  }

  it('skips seeds, traversal and evidence; the reranker gets evidence: [] and still returns windows', async () => {
    const index = await buildMedicalIndex({ lexical: true });
    const analyzer = countingAnalyzer();
    const seedSelector: SeedSelector & { calls: number } = {
      specificationVersion: 'v1',
      id: 'test:counting-seeds',
      calls: 0,
      selectSeeds(options) {
        seedSelector.calls += 1;
        return createMosaic({ index }).stages.seedSelector.selectSeeds(options);
      },
    };
    const traverser = oneHopTraverser();
    const reranker = recordingFusionReranker();
    const events: string[] = [];
    const mosaic = createMosaic({ index, analyzer, seedSelector, traverser, reranker, graph: false, windows: 5, hooks: recordStages(events) });
    const result = await mosaic.retrieve({ question: MULTI_HOP.question });

    expect(reranker.calls).toHaveLength(1);
    expect(reranker.calls[0].evidence).toEqual([]);
    expect(reranker.calls[0].topN).toBe(5);
    expect(result.windows.length).toBeGreaterThan(0);
    expect(result.windows.length).toBeLessThanOrEqual(5);
    // The analyzer still ran and its policy is the one reported.
    expect(analyzer.calls).toBe(1);
    expect(reranker.calls[0].context.policy).toEqual(result.policy);
    // No graph stage ran.
    expect(seedSelector.calls).toBe(0);
    expect(traverser.calls).toHaveLength(0);
    expect(events).toEqual(expect.arrayContaining(['start:analyze', 'end:analyze', 'start:encode', 'end:encode', 'start:rerank', 'end:rerank']));
    for (const stage of ['seeds', 'traverse', 'evidence']) {
      expect(events).not.toContain(`start:${stage}`);
      expect(events).not.toContain(`end:${stage}`);
    }
    expect(result.seeds).toEqual([]);
    expect(result.paths).toEqual([]);
    expect(result.evidence).toEqual([]);
    expect([result.timings.seeds, result.timings.traverse, result.timings.evidence]).toEqual([0, 0, 0]);
    expect(result.timings.retrieval).toBeCloseTo(result.timings.encode + result.timings.rerank + result.timings.ground!, 6);
    expect(result.effort).toEqual({ pathsEvaluated: 0, depthReached: 0, selectedPaths: 0, retainedEvidence: 0 });
    expect(result.trace.graph).toBe('off');
    expect(result.trace.traversal.stopReason).toBe('no-seeds');
    // The focus step reorders the reranker's windows (and names their sources); the same windows come back.
    expect(result.trace.rerank.windows.map((w) => w.id).sort()).toEqual(result.windows.map((w) => w.id).sort());
    // Every window comes from the whole-corpus searches, none from graph evidence.
    for (const window of result.windows) expect(window.evidenceIds).toEqual([]);
  });

  it('is overridable per call, both ways; the default is on', async () => {
    const index = await buildMedicalIndex({ lexical: true });
    const reranker = recordingFusionReranker();
    const on = createMosaic({ index, reranker });
    const withGraph = await on.retrieve({ question: MULTI_HOP.question });
    expect(withGraph.trace.graph).toBe('on');
    expect(withGraph.evidence.length).toBeGreaterThan(0);
    expect(reranker.calls[0].evidence).toEqual(withGraph.evidence);
    const offForOne = await on.retrieve({ question: MULTI_HOP.question, graph: false });
    expect(offForOne.trace.graph).toBe('off');
    expect(reranker.calls[1].evidence).toEqual([]);
    const off = createMosaic({ index, reranker, graph: false });
    const onForOne = await off.retrieve({ question: MULTI_HOP.question, graph: true });
    expect(onForOne.trace.graph).toBe('on');
    expect(onForOne.evidence.length).toBeGreaterThan(0);
    const [item] = await off.retrieveBatch({ questions: [MULTI_HOP.question], graph: true });
    expect(item.ok && item.result.trace.graph).toBe('on');
    // @ts-expect-error a string where a boolean belongs (an untyped caller)
    expect(() => createMosaic({ index, graph: 'off' })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
  });
});

describe('retrieveBatch', () => {
  /** An analyzer that takes a while, counting how many run at once. */
  function slowAnalyzer(delayMs: number) {
    const inner = createOfflineAnalyzer();
    const state = { inFlight: 0, maxInFlight: 0, started: 0 };
    const analyzer: Analyzer = {
      specificationVersion: 'v1',
      id: 'test:slow-offline',
      async analyze(options) {
        state.started += 1;
        state.inFlight += 1;
        state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
        try {
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(resolve, delayMs);
            options.abortSignal?.addEventListener('abort', () => (clearTimeout(timer), reject(options.abortSignal!.reason)));
          });
          throwIfAborted(options.abortSignal, 'analyze');
          return await inner.analyze(options);
        } finally {
          state.inFlight -= 1;
        }
      },
    };
    return { analyzer, state };
  }

  const QUESTIONS = [
    MULTI_HOP.question,
    'What is Morrow syndrome?',
    'What are the symptoms of Morrow syndrome?',
    'How is Morrow syndrome diagnosed?',
    'Which test do patients taking calditrex need?',
  ];

  it('runs with a concurrency limit and returns results in input order', async () => {
    const index = await buildMedicalIndex();
    const { analyzer, state } = slowAnalyzer(20);
    const mosaic = createMosaic({ index, analyzer });
    const finished: number[] = [];
    const items = await mosaic.retrieveBatch({ questions: QUESTIONS, concurrency: 2, onResult: (item) => finished.push(item.index) });
    expect(state.maxInFlight).toBe(2);
    expect(items.map((item) => item.index)).toEqual([0, 1, 2, 3, 4]);
    expect(items.map((item) => item.input.text)).toEqual(QUESTIONS);
    expect([...finished].sort()).toEqual([0, 1, 2, 3, 4]);
    for (const item of items) {
      expect(item.ok).toBe(true);
      if (item.ok) expect(item.result.question.text).toBe(item.input.text);
    }
    // Same results as one at a time.
    const single = await mosaic.retrieve({ question: QUESTIONS[1] });
    expect(items[1].ok && items[1].result.windows).toEqual(single.windows);
  });

  it('records a failing question and goes on', async () => {
    const index = await buildMedicalIndex();
    const reranker = documentOrderReranker();
    const failing: WindowReranker = {
      ...reranker,
      async rerank(options) {
        if (options.context.question.text === QUESTIONS[2]) throw new InvalidArgumentError({ argument: 'x', message: 'test' });
        return reranker.rerank(options);
      },
    };
    const items = await createMosaic({ index, reranker: failing }).retrieveBatch({ questions: QUESTIONS, concurrency: 3 });
    expect(items.map((item) => item.ok)).toEqual([true, true, false, true, true]);
    expect(!items[2].ok && items[2].error).toMatchObject({ name: 'MosaicInvalidArgumentError' });
  });

  it('stops on abort mid-batch: no new question starts, the batch rejects with AbortedError', async () => {
    const index = await buildMedicalIndex();
    const { analyzer, state } = slowAnalyzer(30);
    const controller = new AbortController();
    const delivered: number[] = [];
    const pending = createMosaic({ index, analyzer }).retrieveBatch({
      questions: QUESTIONS,
      concurrency: 1,
      abortSignal: controller.signal,
      onResult: (item) => {
        delivered.push(item.index);
        if (item.index === 1) controller.abort();
      },
    });
    await expect(pending).rejects.toMatchObject({ name: 'MosaicAbortedError' });
    expect(delivered).toEqual([0, 1]);
    expect(state.started).toBe(2);
    // Abort while questions are in flight.
    const second = new AbortController();
    const { analyzer: slow, state: slowState } = slowAnalyzer(200);
    const inFlight = createMosaic({ index, analyzer: slow }).retrieveBatch({ questions: QUESTIONS, concurrency: 2, abortSignal: second.signal });
    setTimeout(() => second.abort(), 20);
    await expect(inFlight).rejects.toMatchObject({ name: 'MosaicAbortedError' });
    expect(slowState.started).toBe(2);
  });

  it('askBatch answers every question', async () => {
    const index = await buildMedicalIndex();
    const generator: Generator = {
      specificationVersion: 'v1',
      id: 'test:echo',
      async generate({ question, windows }) {
        return { text: `${question.text} (${windows.length})`, citations: [], generator: 'test:echo', extractive: false };
      },
    };
    const items = await createMosaic({ index, generator }).askBatch({ questions: QUESTIONS.slice(0, 2), concurrency: 2 });
    expect(items.map((item) => item.ok && item.result.answer.text)).toEqual(
      items.map((item) => item.ok && `${item.input.text} (${item.result.windows.length})`),
    );
  });
});
