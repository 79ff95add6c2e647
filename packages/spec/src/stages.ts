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

export interface AnalyzerWarmUpOptions extends AbortOptions {
  /** Questions to analyze (at least one). */
  questions: readonly Question[];
  graph?: AnalyzerGraphView;
}

/** Question → validated policy. */
export interface Analyzer {
  readonly specificationVersion: 'v1';
  readonly id: string;
  analyze(options: AnalyzeOptions): Promise<Analysis>;
  /**
   * Optional: analyze `questions` as `analyze` would, so that the analyzer is ready before the first
   * real question (its code compiled, its tables made), with nothing anyone else sees: no cache
   * entry, no log line, no request to a remote model. The analyses, in question order (a warm-up
   * retrieves with their policies). An analyzer that can only answer by asking a remote model
   * leaves it out (a wrapper forwards it when the analyzer it wraps has it).
   */
  warmUp?(options: AnalyzerWarmUpOptions): Promise<Analysis[]>;
}

export interface StageOptions extends AbortOptions {
  context: QueryContext;
  index: CorpusIndex;
}

/** A seed selection; `TTrace` is the selector's richer trace, when it has one. */
export interface SeedSelection<TTrace extends SeedTrace = SeedTrace> {
  seeds: Seed[];
  trace: TTrace;
}

/** Seeds for a question. A factory returns `SeedSelector<ItsTrace>`, so its trace reads without a cast. */
export interface SeedSelector<TTrace extends SeedTrace = SeedTrace> {
  readonly specificationVersion: 'v1';
  readonly id: string;
  selectSeeds(options: StageOptions): Promise<SeedSelection<TTrace>>;
}

export interface TraverseOptions extends StageOptions {
  seeds: readonly Seed[];
}

/** A traversal; `TTrace` is the traverser's richer trace, when it has one. */
export interface Traversal<TTrace extends TraversalTrace = TraversalTrace> {
  /** All distinct paths scored during the search, best first. */
  paths: ScoredPath[];
  trace: TTrace;
}

/** Paths from the seeds. A factory returns `Traverser<ItsTrace>`, so its trace reads without a cast. */
export interface Traverser<TTrace extends TraversalTrace = TraversalTrace> {
  readonly specificationVersion: 'v1';
  readonly id: string;
  traverse(options: TraverseOptions): Promise<Traversal<TTrace>>;
}

export interface SelectEvidenceOptions extends StageOptions {
  paths: readonly ScoredPath[];
  seeds: readonly Seed[];
}

/** An evidence selection; `TTrace` is the selector's richer trace, when it has one. */
export interface EvidenceSelection<TTrace extends EvidenceTrace = EvidenceTrace> {
  paths: SelectedPath[];
  units: EvidenceUnit[];
  trace: TTrace;
}

/** Paths → evidence units. A factory returns `EvidenceSelector<ItsTrace>`, so its trace reads without a cast. */
export interface EvidenceSelector<TTrace extends EvidenceTrace = EvidenceTrace> {
  readonly specificationVersion: 'v1';
  readonly id: string;
  selectEvidence(options: SelectEvidenceOptions): Promise<EvidenceSelection<TTrace>>;
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
