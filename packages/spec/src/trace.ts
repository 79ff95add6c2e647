import type { Analysis, EvidenceUnit, RankedWindow, ScoredPath, Seed, SelectedPath } from './values.js';

export interface SeedTrace {
  /** The queries actually used. */
  queries: string[];
  /** Candidates considered with both scores, best first (bounded). */
  candidates: Seed[];
  seeds: Seed[];
  /** Entries dropped by node-level deduplication. */
  deduplicated: number;
}

export interface DepthTrace {
  depth: number;
  /** Candidates scored at this depth (beam + connector). */
  candidates: number;
  connectorCandidates: number;
  /** The kept beam with term breakdowns. */
  beam: ScoredPath[];
  /** Novelty gain g_d of equation (9). */
  gain: number;
  /** Cumulative completeness c_d. */
  completeness: number;
  newNodes: number;
  newEdges: number;
  /** ε of the regime at this depth. */
  threshold: number;
  stop: boolean;
}

export type StopReason = 'max-depth' | 'low-gain' | 'exhausted' | 'no-seeds';

export interface TraversalTrace {
  depths: DepthTrace[];
  stopReason: StopReason;
  depthReached: number;
  pathsEvaluated: number;
  /** Weights used after anchor adjustment. */
  weights: Record<string, number>;
  /** Graph round trips (neighbor batches). */
  roundTrips: number;
}

export interface EvidenceTrace {
  /** Paths after dedup, before the filter. */
  candidates: number;
  /** Paths the shared filter looked at (≤ 10). */
  considered: number;
  selected: SelectedPath[];
  units: EvidenceUnit[];
  /** Units cut by the evidence cap. */
  capped: number;
  /** Units restored by the floor (the floor L, or B when an evidence selector fills its budget). */
  restored: number;
}

export interface RerankTrace {
  reranker: string;
  candidateWindows: number;
  windows: RankedWindow[];
}

/** Counts of the report's Table 9. */
export interface EffortCounts {
  pathsEvaluated: number;
  depthReached: number;
  selectedPaths: number;
  retainedEvidence: number;
}

export interface StageTimings {
  analyze: number;
  encode: number;
  seeds: number;
  traverse: number;
  evidence: number;
  rerank: number;
  /**
   * After reranking: the windows focused on their sentences, placed in their sources and the
   * corpus's support for an answer judged (absent from timings made before it was measured).
   */
  ground?: number;
  generate?: number;
  /** Retrieval only (everything but analysis and generation). */
  retrieval: number;
  /** Wall time of the whole call, from the question to the result returned. */
  total: number;
}

/**
 * Requests a retrieval sent to the index's backing store, per stage (from `CorpusIndex.roundTrips`;
 * exact when retrievals on that index run one at a time).
 */
export interface StageRoundTrips {
  analyze: number;
  seeds: number;
  traverse: number;
  evidence: number;
  rerank: number;
  total: number;
}

/** Everything a retrieval did, and why. */
export interface RetrievalTrace {
  question: string;
  analysis: Analysis;
  seeds: SeedTrace;
  traversal: TraversalTrace;
  evidence: EvidenceTrace;
  rerank: RerankTrace;
  effort: EffortCounts;
  timings: StageTimings;
  /** Requests to the index's store per stage, when the index counts them (`CorpusIndex.roundTrips`). */
  roundTrips?: StageRoundTrips;
}

export type { Seed, ScoredPath };
