import type { Question } from '@mosaic/spec';

/** The stages a question goes through, in order ('analyze' and 'encode' run concurrently). */
export type StageName = 'analyze' | 'encode' | 'seeds' | 'traverse' | 'evidence' | 'rerank' | 'generate';

export interface StageStartEvent {
  stage: StageName;
  question: Question;
}

export interface StageEndEvent extends StageStartEvent {
  durationMs: number;
  /** The stage's output (Analysis, Float32Array, SeedSelection, Traversal, EvidenceSelection, Reranking, Answer). */
  result: unknown;
}

/** Observers called around every stage. They run inline: keep them cheap; an exception aborts the question. */
export interface MosaicHooks {
  onStageStart?(event: StageStartEvent): void;
  onStageEnd?(event: StageEndEvent): void;
}
