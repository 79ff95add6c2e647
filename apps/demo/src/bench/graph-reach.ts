import { evaluateRetrieval, type GoldQuestion, type RetrievalRecord } from '@mosaic/evaluation';
import type { CorpusIndex, EvidenceUnit } from '@mosaic/spec';
import { collectCandidateWindows } from '@mosaic/window-reranker';

/** What the graph reached for a set of questions: windows per question and METRICS.md `er` over all of them. */
export interface ReachFigures {
  /** Mean number of distinct windows the retained evidence maps to (questions without a retrieval count 0). */
  windowsPerQuestion: number;
  /** METRICS.md evidence recall with every reached window as a context (no top-k cut); null when no question has evidence statements. */
  er: number | null;
}

export interface GraphReach extends ReachFigures {
  byType: Record<string, ReachFigures>;
}

/**
 * The windows one retrieval's evidence reaches, mapped exactly as the rerankers map evidence to their
 * candidates (`collectCandidateWindows` of @mosaic/window-reranker, the index's own windows), as a
 * METRICS.md line whose contexts are all of them (in first-reached order).
 */
export function reachedWindows(id: string, index: CorpusIndex, evidence: readonly EvidenceUnit[]): RetrievalRecord {
  const { candidates } = collectCandidateWindows({ index, evidence });
  return { id, contexts: candidates.map((candidate) => candidate.window.text) };
}

/**
 * Reach figures over the gold questions, overall and per question type. `er` is `evaluateRetrieval`'s
 * (no topK: every reached window is a context); a question without a line counts as reaching nothing.
 */
export function summarizeReach(gold: readonly GoldQuestion[], reached: readonly RetrievalRecord[]): GraphReach {
  const { overall, byType } = evaluateRetrieval({ gold, results: reached });
  const count = new Map(reached.map((line) => [line.id, line.contexts.length]));
  const windowsPerQuestion = (questions: readonly GoldQuestion[]) =>
    questions.length === 0 ? 0 : questions.reduce((sum, q) => sum + (count.get(q.id) ?? 0), 0) / questions.length;
  const typeOf = (q: GoldQuestion) => q.question_type ?? 'unknown';
  return {
    windowsPerQuestion: windowsPerQuestion(gold),
    er: overall.er,
    byType: Object.fromEntries(
      Object.entries(byType).map(([type, summary]) => [
        type,
        { windowsPerQuestion: windowsPerQuestion(gold.filter((q) => typeOf(q) === type)), er: summary.er },
      ]),
    ),
  };
}
