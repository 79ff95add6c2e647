import type { RelationEdge, TextSpan } from './graph.js';
import type { Policy, ValidationChange } from './policy.js';
import type { SourceLocation } from './corpus.js';

/** The question as it flows through the pipeline. */
export interface Question {
  id?: string;
  text: string;
}

/** Per-question state shared by the stages: the question, its vector, the policy. */
export interface QueryContext {
  question: Question;
  /** The question encoded once by the index's encoder. */
  queryVector: Float32Array;
  policy: Policy;
  /**
   * What the stages of this one question compute once and share (created by the pipeline for each
   * question over one index). Optional: a stage given none computes the same values itself.
   */
  state?: QuestionState;
}

/**
 * The per-question values that more than one stage reads, carried explicitly in `QueryContext.state`
 * rather than cached in a module. One object per question and index; never shared between questions.
 */
export interface QuestionState {
  /**
   * Passage relevance per query text (the question, a seed query), written by the first stage that
   * computes it with `passageRelevance(index, query, state)` of @mosaic/stage-utils; `undefined` when
   * the index has no lexical window index. Seed selection, traversal and evidence selection share it.
   */
  readonly passageRelevance: Map<string, PassageRelevance | undefined>;
  /**
   * Optional: what to run once the question's stages are over (after reranking, also when one
   * fails). A stage that takes arrays the index reuses (a passage relevance's chunk scores) returns
   * them here, and the values that read them must not be read afterwards. Without it, such a stage
   * makes its own arrays. The pipeline gives one; a caller that makes states may too.
   */
  readonly onDone?: (() => void)[];
}

/** How relevant to one query the passages are that hold a chunk or state a relation, each in [0, 1]. */
export interface PassageRelevance {
  /** BM25 of the query over the best window overlapping the chunk, divided by the query's best window. */
  chunk(chunkId: string): number;
  /** The best `chunk` score over the chunks of the relation's first sentences (its `chunkIds` when it has no spans). */
  relation(relation: Pick<RelationEdge, 'spans' | 'chunkIds'>): number;
}

/** The analyzer's output: a validated policy and how it was obtained. */
export interface Analysis {
  policy: Policy;
  /** What validation changed in the analyzer's raw output. */
  changes: ValidationChange[];
  /** Which analyzer produced the policy (e.g. 'offline', 'openai:gpt-4o-mini', 'fixed:wide'). */
  analyzer: string;
  latencyMs: number;
  /** Set when the configured analyzer failed and a fallback produced the policy. */
  fallback?: { from: string; reason: string };
  cacheHit?: boolean;
}

/** A selected seed node with both index scores. */
export interface Seed {
  nodeId: string;
  name: string;
  /** s_ent(v, q) */
  entityScore: number;
  /** s_rel(v, q) */
  relationScore: number;
  /** s_seed(v, q) */
  score: number;
  /** The seed query that found it (the full question, compact keywords, or one target's query). */
  query: string;
  /** Index of the target in per-target mode, else undefined. */
  targetIndex?: number;
}

/** The terms of equation (8), each in [0,1]. */
export interface PathScoreTerms {
  relation: number;
  target: number;
  specificity: number;
  anchor: number;
  transition: number;
  coherence: number;
  hub: number;
  /** ρ_rep: repeated nodes/labels count (before division by h). */
  repetition: number;
  /** ρ_ql: question-like labels on the path, in [0,1]. */
  questionLike: number;
}

/** A path v0 –e1→ v1 … –eh→ vh with its score and breakdown. */
export interface ScoredPath {
  /** Stable id: node and edge ids joined. */
  id: string;
  nodes: string[];
  edges: string[];
  score: number;
  terms: PathScoreTerms;
  /** Seed (node id) the path grew from. */
  seed: string;
  /** 'beam' for outward growth, 'connector' for a path joining two seeds' regions. */
  origin: 'beam' | 'connector';
  depth: number;
}

export type PathRole = 'core' | 'connector' | 'uncovered-target' | 'uncovered-facet' | 'new-relation' | 'fill';

export interface SelectedPath extends ScoredPath {
  role: PathRole;
  rank: number;
}

/** One deduplicated unit of evidence with provenance. */
export interface EvidenceUnit {
  id: string;
  kind: 'entity' | 'relation';
  /** Entity or relation id in the graph. */
  refId: string;
  text: string;
  /** Source chunks. */
  chunkIds: string[];
  /**
   * The sentences the unit stands on (a relation: the sentences that state it; an entity: its
   * mentions that best match the question). When present, grounding maps the unit to the windows
   * holding these sentences instead of every window of its chunks.
   */
  spans?: TextSpan[];
  /** Ids of the selected paths that contributed it. */
  pathIds: string[];
  /** Rank-derived score (higher is better). */
  score: number;
  /** True when restored by the minimum-evidence floor (or by filling the evidence budget from paths beyond the selection). */
  restored?: boolean;
}

/** A source window ranked against the question. */
export interface RankedWindow {
  id: string;
  text: string;
  score: number;
  documentId: string;
  start: number;
  end: number;
  /** Evidence units that led to this window. */
  evidenceIds: string[];
  /** Per-component scores (e.g. { dense: 0.71, bm25: 0.4 }). */
  scores?: Record<string, number>;
  /** Where the window sits: document, title, section, line/page span (set by the pipeline when the index keeps outlines). */
  source?: SourceLocation;
}

export interface Citation {
  /** 1-based index into the windows handed to the generator. */
  window: number;
  windowId: string;
}

export interface Answer {
  text: string;
  citations: Citation[];
  /** e.g. 'openai:gpt-4o-mini' or 'extractive'. */
  generator: string;
  /** True when the text is an extract of the windows, not a generated answer. */
  extractive: boolean;
  fallback?: { from: string; reason: string };
  /** The sentences quoted, in answer order, each with where it stands (extractive answers). */
  quotes?: AnswerQuote[];
  /**
   * True when the corpus does not support an answer (nothing matched the question, or the question is
   * one the encoder cannot read): `text` says so plainly and `reason` says why.
   */
  abstained?: boolean;
  /** Why the answer abstained: a stable code (see `AbstentionReason`). */
  reason?: AbstentionReason;
  /** Plain-language warnings about the question or the answer (e.g. a script the encoder cannot read). */
  warnings?: string[];
}

/**
 * Why an answer abstained: 'no-content-words' (the question has no word to search for, e.g. `a` or `?`),
 * 'unreadable-script' (no Latin letters: a script or symbols the encoder cannot read), 'no-match' (no
 * content word of the question is in any top window), 'unknown-name' (the question names something, a
 * capitalised word such as "Kubernetes", that the corpus never mentions), 'weak-match' (the best window
 * holds too little of the question's distinctive words), 'no-windows' (nothing was retrieved).
 */
export type AbstentionReason = 'no-content-words' | 'unreadable-script' | 'no-match' | 'unknown-name' | 'weak-match' | 'no-windows';

/** One quoted sentence of an answer and its source. */
export interface AnswerQuote {
  text: string;
  /** Document, title/section where known, character offsets (and lines where the index kept them). */
  source: SourceLocation;
  /** 1-based index of the window it was quoted from (as in `Citation.window`). */
  window: number;
}
