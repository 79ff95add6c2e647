import { DimensionMismatchError, InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type { EvidenceUnit, RankedWindow, RerankOptions, RerankTrace, SourceWindow } from '@mosaic/spec';
import { collectCandidateWindows } from './candidate-windows.js';
import { denseScores } from './dense-scores.js';
import { checkDiversity, diversify } from './diversify.js';
import { defineWindowReranker, type EvidenceWindowReranker } from './evidence-window-reranker.js';
import { indexScoresOf, lexicalScores, type LexicalSource } from './lexical-scores.js';
import { compareRankedWindows, rankedWindow, rankingTrace, type WindowRerankTrace } from './rank-windows.js';
import { checkTuning } from '@mosaic/stage-utils/internal';

/** The weights of the three signals the fusion reranker adds up. */
export interface FusionWeights {
  /** BM25 of the question, divided by the best BM25 among the candidates. */
  lexical: number;
  /** Cosine(question vector, window vector), min-max normalised over the candidates. */
  dense: number;
  /** 1 / (1 + r), r = rank of the best evidence unit reaching the window; 0 when no unit reaches it. */
  graph: number;
}

/**
 * BM25 carries the ranking, dense similarity breaks its near-ties, and graph evidence adds a prior.
 *
 * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
 */
export const DEFAULT_FUSION_WEIGHTS: Readonly<FusionWeights> = Object.freeze({ lexical: 1, dense: 0.3, graph: 0.3 });

/** Whole-corpus hits taken from each of the BM25 and dense searches when none is given. */
export const DEFAULT_FUSION_POOL = 50;

/**
 * λ of the maximal-marginal-relevance choice of the returned windows (see `diversify`).
 *
 * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
 */
export const DEFAULT_FUSION_DIVERSITY = 0.3;

/**
 * The options of `createFusionReranker` whose defaults were tuned for the offline stack (embedded
 * encoder, offline extractor) on the GraphRAG-Bench development split (docs/experiments.md). Another
 * encoder or extractor may want other values.
 */
export interface FusionRerankerTuning {
  /**
   * Signal weights; missing ones take DEFAULT_FUSION_WEIGHTS (lexical 1, dense 0.3, graph 0.3).
   *
   * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
   */
  weights?: Partial<FusionWeights>;
  /**
   * λ in [0, 1) of the maximal-marginal-relevance choice of the returned windows: each next window
   * maximises (1 − λ)·(its fused score, min-max normalised) − λ·(the largest share of its text that
   * it has in common with a window already chosen; `sharedText`). Default `DEFAULT_FUSION_DIVERSITY`
   * (0.3); 0 returns the top N by fused score.
   *
   * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
   */
  diversity?: number;
}

export interface FusionRerankerOptions {
  /**
   * Windows added from each whole-corpus search: the BM25 top `pool` (when the index has a lexical
   * window index) and the dense top `pool` (default 50). 0 = rank only the windows reached from evidence.
   */
  pool?: number;
  /** The options tuned for the offline stack (see `FusionRerankerTuning`); unknown keys are rejected. */
  tuning?: FusionRerankerTuning;
}

/** Where a candidate window came from. */
export type FusionSource = 'graph' | 'lexical' | 'dense';

/** The fusion reranker's trace. */
export interface FusionRerankTrace extends WindowRerankTrace {
  weights: FusionWeights;
  pool: number;
  /** Candidates contributed by each source (a window found by several sources counts for each). */
  sources: Record<FusionSource, number>;
  /** For every returned window id, the sources that proposed it (graph = reached from evidence). */
  origins: Record<string, FusionSource[]>;
  /**
   * The diversity weight λ, and the windows of the plain top N (by fused score) that the diversified
   * choice left out for overlapping windows already chosen. Each returned window's
   * `scores.redundancy` is its largest overlap with the windows chosen before it.
   */
  diversity: { lambda: number; passedOver: string[] };
  /** Ids of the returned windows not reached from evidence (proposed by the whole-corpus BM25 or dense search). */
  expanded: string[];
}

interface Candidate {
  window: SourceWindow;
  evidenceIds: string[];
  origins: FusionSource[];
}

/**
 * Graph evidence fused with whole-corpus retrieval. Candidates are the windows reached from the evidence
 * units (as for the bi-encoder), plus the BM25 top `pool` and the dense top `pool` of the whole window
 * index, so that a window the graph did not reach can still be ranked. Each candidate w is scored
 *
 *   score(w) = w_lex · bm25(w) / max_c bm25(c)
 *            + w_dense · (cos(w) − min_c cos(c)) / (max_c cos(c) − min_c cos(c))
 *            + w_graph · 1 / (1 + r(w))
 *
 * (c over the candidates; r(w) = 0-based rank, by score then input order, of the best evidence unit
 * reaching w; the graph term is 0 for windows no unit reaches). Windows reached from evidence keep their
 * `evidenceIds`; the others have none and are listed in `trace.expanded`; `trace.origins` says which
 * source(s) proposed each returned window. Name 'fusion'.
 */
/** Whether a rerank trace is the fusion reranker's (e.g. `retrieval.trace.rerank` of the default pipeline). */
export function isFusionRerankTrace(trace: RerankTrace): trace is FusionRerankTrace {
  const fields = trace as Partial<FusionRerankTrace>;
  return trace.reranker === 'fusion' && typeof fields.origins === 'object' && Array.isArray(fields.expanded);
}

const FUSION_RERANKER_TUNING_KEYS: (keyof FusionRerankerTuning)[] = ['weights', 'diversity'];

export function createFusionReranker(options: FusionRerankerOptions = {}): EvidenceWindowReranker<FusionRerankTrace> {
  const tuning = checkTuning<FusionRerankerTuning>(options, FUSION_RERANKER_TUNING_KEYS);
  const weights = resolveWeights(tuning.weights);
  const pool = checkPool(options.pool ?? DEFAULT_FUSION_POOL);
  const diversity = checkDiversity(tuning.diversity ?? DEFAULT_FUSION_DIVERSITY, 'tuning.diversity');
  const id = 'fusion';
  return defineWindowReranker(id, async ({ context, index, evidence, topN, abortSignal }) => {
    if (context.queryVector.length !== index.windowIndex.dimension) {
      throw new DimensionMismatchError({ expected: index.windowIndex.dimension, actual: context.queryVector.length, what: 'Query vector' });
    }
    const {
      candidates,
      bm25: lexicalHits,
      collected,
    } = await proposeCandidates({ index, evidence, question: context.question.text, queryVector: context.queryVector, pool, abortSignal });
    let bm25 = lexicalHits;
    const list = [...candidates.values()];
    const windowsList = list.map((candidate) => candidate.window);
    const dense = await denseScores({ index, queryVector: context.queryVector, windows: windowsList, abortSignal });
    throwIfAborted(abortSignal, 'rerank');
    let lexicalSource: LexicalSource = 'index';
    if (!bm25) {
      const scored = lexicalScores({ index, question: context.question.text, windows: windowsList });
      bm25 = scored.scores;
      lexicalSource = scored.source;
    }
    const graph = graphPrior(evidence);
    const ranked = fuse({ list, bm25, dense: dense.scores, graph, weights });
    const { windows, passedOver } = diversify(ranked, topN, diversity);
    const sources: Record<FusionSource, number> = { graph: 0, lexical: 0, dense: 0 };
    for (const candidate of list) for (const source of candidate.origins) sources[source] += 1;
    const origins: Record<string, FusionSource[]> = {};
    for (const window of windows) origins[window.id] = [...(candidates.get(window.id) as Candidate).origins];
    const trace: FusionRerankTrace = {
      ...rankingTrace({
        id,
        candidateWindows: list.length,
        windows,
        evidenceUnits: evidence.length,
        collected,
        dense: dense.source,
        encodedWindows: dense.encoded,
      }),
      lexical: lexicalSource,
      expanded: windows.filter((window) => window.evidenceIds.length === 0).map((window) => window.id),
      weights: { ...weights },
      pool,
      diversity: { lambda: diversity, passedOver },
      sources,
      origins,
    };
    return { windows, trace };
  });
}

/**
 * The windows the fusion reranker ranks for a question (`pool` defaults to DEFAULT_FUSION_POOL):
 * those reached from the evidence units, in first-reached order, then the whole-corpus BM25 top
 * `pool` and the dense top `pool` that the evidence did not reach, each window once. The reranker
 * scores exactly these; `mosaic bench` uses them to say how much of the evidence they hold.
 */
export async function fusionCandidates(options: {
  index: RerankOptions['index'];
  evidence: readonly EvidenceUnit[];
  question: string;
  queryVector: Float32Array;
  pool?: number;
  abortSignal?: AbortSignal;
}): Promise<SourceWindow[]> {
  const pool = checkPool(options.pool ?? DEFAULT_FUSION_POOL);
  const { candidates } = await proposeCandidates({ ...options, pool });
  return [...candidates.values()].map((candidate) => candidate.window);
}

/**
 * The candidate windows: those reached from the evidence units, then the whole-corpus BM25 top `pool`
 * and the dense top `pool`; a window proposed again records the new source. Then the BM25 of every
 * candidate, read from one unsorted scoring of the question (`indexScoresOf`): the windows sharing a
 * term with a question are most of a large corpus, and are never ranked in full.
 */
async function proposeCandidates(options: {
  index: RerankOptions['index'];
  evidence: readonly EvidenceUnit[];
  question: string;
  queryVector: Float32Array;
  pool: number;
  abortSignal?: AbortSignal;
}): Promise<{ candidates: Map<string, Candidate>; bm25: Map<string, number> | undefined; collected: ReturnType<typeof collectCandidateWindows> }> {
  const { index, evidence, pool } = options;
  // The whole-corpus dense search starts first (a faiss index searches on the thread pool) and is
  // read after the graph's and BM25's candidates, in the same order as when it was awaited here.
  const k = Math.min(pool, index.windowIndex.size);
  const densePending = k > 0 ? index.windowIndex.search(options.queryVector, k) : undefined;
  densePending?.catch(() => undefined); // read below; not an unhandled rejection if what comes first throws
  const collected = collectCandidateWindows({ index, evidence });
  const candidates = new Map<string, Candidate>();
  for (const { window, evidenceIds } of collected.candidates) {
    candidates.set(window.id, { window, evidenceIds: [...evidenceIds], origins: ['graph'] });
  }
  const propose = (label: number, source: FusionSource) => {
    const windowId = index.windowIds[label];
    if (windowId === undefined) return;
    const known = candidates.get(windowId);
    if (known) {
      if (!known.origins.includes(source)) known.origins.push(source);
      return;
    }
    const window = index.chunks.getWindow(windowId);
    if (window) candidates.set(windowId, { window, evidenceIds: [], origins: [source] });
  };

  // Whole-corpus BM25 top `pool`.
  const lexicalIndex = index.lexical?.windows;
  if (lexicalIndex && pool > 0) for (const hit of lexicalIndex.search(options.question, pool)) propose(hit.label, 'lexical');
  // Whole-corpus dense top `pool`.
  if (densePending) {
    for (const hit of await densePending) if (hit.label >= 0) propose(hit.label, 'dense');
    throwIfAborted(options.abortSignal, 'rerank');
  }
  // The BM25 of every candidate (one scoring of the question, read for the candidates only).
  const bm25 = lexicalIndex ? indexScoresOf({ lexical: lexicalIndex, windowIds: index.windowIds, question: options.question, wanted: candidates }) : undefined;
  return { candidates, bm25, collected };
}

function checkPool(pool: number): number {
  if (!Number.isInteger(pool) || pool < 0) {
    throw new InvalidArgumentError({ argument: 'pool', message: `must be a non-negative integer, got ${pool}` });
  }
  return pool;
}

function resolveWeights(partial: Partial<FusionWeights> | undefined): FusionWeights {
  const weights: FusionWeights = { ...DEFAULT_FUSION_WEIGHTS, ...stripUndefined(partial ?? {}) };
  for (const [name, value] of Object.entries(weights)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new InvalidArgumentError({ argument: `tuning.weights.${name}`, message: `must be a finite number ≥ 0, got ${value}` });
    }
  }
  if (weights.lexical + weights.dense + weights.graph === 0) {
    throw new InvalidArgumentError({ argument: 'tuning.weights', message: 'at least one weight must be positive' });
  }
  return weights;
}

function stripUndefined(partial: Partial<FusionWeights>): Partial<FusionWeights> {
  return Object.fromEntries(Object.entries(partial).filter(([, value]) => value !== undefined));
}

/** 1 / (1 + rank) per evidence unit id; units ranked by score (higher first), ties by input order. */
function graphPrior(evidence: readonly EvidenceUnit[]): Map<string, number> {
  const order = evidence.map((unit, position) => ({ unit, position }));
  order.sort((a, b) => b.unit.score - a.unit.score || a.position - b.position);
  const prior = new Map<string, number>();
  order.forEach(({ unit }, rank) => {
    if (!prior.has(unit.id)) prior.set(unit.id, 1 / (1 + rank));
  });
  return prior;
}

function fuse(options: {
  list: readonly Candidate[];
  bm25: ReadonlyMap<string, number>;
  dense: ReadonlyMap<string, number>;
  graph: ReadonlyMap<string, number>;
  weights: FusionWeights;
}): RankedWindow[] {
  const { list, bm25, dense, graph, weights } = options;
  let maxBm25 = 0;
  let minDense = Number.POSITIVE_INFINITY;
  let maxDense = Number.NEGATIVE_INFINITY;
  for (const { window } of list) {
    maxBm25 = Math.max(maxBm25, bm25.get(window.id) ?? 0);
    const cosine = dense.get(window.id) ?? 0;
    minDense = Math.min(minDense, cosine);
    maxDense = Math.max(maxDense, cosine);
  }
  const denseRange = maxDense - minDense;
  const ranked = list.map(({ window, evidenceIds }): RankedWindow => {
    const raw = bm25.get(window.id) ?? 0;
    const lexical = maxBm25 > 0 ? raw / maxBm25 : 0;
    const cosine = dense.get(window.id) ?? 0;
    const denseNormalised = denseRange > 0 ? (cosine - minDense) / denseRange : 1;
    let prior = 0;
    for (const evidenceId of evidenceIds) prior = Math.max(prior, graph.get(evidenceId) ?? 0);
    const score = weights.lexical * lexical + weights.dense * denseNormalised + weights.graph * prior;
    return rankedWindow(window, evidenceIds, score, { bm25: raw, lexical, dense: cosine, denseNormalised, graph: prior });
  });
  ranked.sort(compareRankedWindows);
  return ranked;
}
