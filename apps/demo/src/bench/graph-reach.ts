import { coverContexts, evaluateRetrieval, type GoldQuestion, type RetrievalRecord } from '@mosaic/evaluation';
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
  /**
   * When asked for (`bestOf`): METRICS.md `er` of the best `k` of each question's reached windows,
   * chosen by greedy coverage of its gold statements (`coverContexts`): what a ranker that put the
   * right windows first would score with k windows. A lower bound on that; exact when it equals `er`.
   */
  best?: { k: number; er: number | null };
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
 * With `bestOf: k`, also `best`: the er of each question's best k reached windows (greedy coverage).
 */
export function summarizeReach(gold: readonly GoldQuestion[], reached: readonly RetrievalRecord[], options: { bestOf?: number } = {}): GraphReach {
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
    ...(options.bestOf === undefined ? {} : { best: bestOfReach(gold, reached, options.bestOf) }),
  };
}

function bestOfReach(gold: readonly GoldQuestion[], reached: readonly RetrievalRecord[], k: number): NonNullable<GraphReach['best']> {
  const byId = new Map(reached.map((line) => [line.id, line.contexts]));
  const chosen = gold.map((q): RetrievalRecord => {
    const contexts = byId.get(q.id) ?? [];
    return { id: q.id, contexts: coverContexts({ gold: q, contexts, k }).chosen.map((c) => contexts[c]!) };
  });
  return { k, er: evaluateRetrieval({ gold, results: chosen }).overall.er };
}
