import type { Answer, Analysis, EvidenceUnit, QueryContext, Question, RankedWindow, ScoredPath, Seed, SelectedPath } from './values.js';
import type { CorpusIndex } from './index-bundle.js';
import type { EvidenceTrace, RerankTrace, SeedTrace, TraversalTrace } from './trace.js';
import type { AbortOptions } from './models.js';

/** Graph facts an analyzer may consult (which named targets exist, how they connect). */
export interface AnalyzerGraphView {
  /** Resolve surface mentions to node ids (exact/alias match); unknown mentions omitted. */
  lookup(mentions: readonly string[]): Promise<Map<string, string>>;
  /** Whether two nodes are within `hops` edges of each other. */
  connected?(a: string, b: string, hops: number): Promise<boolean>;
}

export interface AnalyzeOptions extends AbortOptions {
  question: Question;
  graph?: AnalyzerGraphView;
}

/** Question → validated policy. */
export interface Analyzer {
  readonly specificationVersion: 'v1';
  readonly id: string;
  analyze(options: AnalyzeOptions): Promise<Analysis>;
}

export interface StageOptions extends AbortOptions {
  context: QueryContext;
  index: CorpusIndex;
}

export interface SeedSelection {
  seeds: Seed[];
  trace: SeedTrace;
}

export interface SeedSelector {
  readonly specificationVersion: 'v1';
  readonly id: string;
  selectSeeds(options: StageOptions): Promise<SeedSelection>;
}

export interface TraverseOptions extends StageOptions {
  seeds: readonly Seed[];
}

export interface Traversal {
  /** All distinct paths scored during the search, best first. */
  paths: ScoredPath[];
  trace: TraversalTrace;
}

export interface Traverser {
  readonly specificationVersion: 'v1';
  readonly id: string;
  traverse(options: TraverseOptions): Promise<Traversal>;
}

export interface SelectEvidenceOptions extends StageOptions {
  paths: readonly ScoredPath[];
  seeds: readonly Seed[];
}

export interface EvidenceSelection {
  paths: SelectedPath[];
  units: EvidenceUnit[];
  trace: EvidenceTrace;
}

export interface EvidenceSelector {
  readonly specificationVersion: 'v1';
  readonly id: string;
  selectEvidence(options: SelectEvidenceOptions): Promise<EvidenceSelection>;
}

export interface RerankOptions extends StageOptions {
  evidence: readonly EvidenceUnit[];
  /** Windows to return (15 by default). */
  topN: number;
}

export interface Reranking {
  windows: RankedWindow[];
  trace: RerankTrace;
}

export interface WindowReranker {
  readonly specificationVersion: 'v1';
  readonly id: string;
  rerank(options: RerankOptions): Promise<Reranking>;
}

export interface GenerateOptions extends AbortOptions {
  question: Question;
  windows: readonly RankedWindow[];
}

export interface Generator {
  readonly specificationVersion: 'v1';
  readonly id: string;
  generate(options: GenerateOptions): Promise<Answer>;
}
