import { coverContexts, type GoldQuestion, type RetrievalRecord } from '@mosaic/evaluation';
import type { CorpusIndex, EvidenceUnit } from '@mosaic/spec';
import { collectCandidateWindows } from '@mosaic/window-reranker/internal';

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
 * Reach figures over the gold questions, overall and per question type. `er` is METRICS.md's (as
 * `evaluateRetrieval` scores it, with no topK: every reached window is a context); a question without
 * a line counts as reaching nothing. With `bestOf: k`, also `best`: the er of each question's best k
 * reached windows (greedy coverage). One `coverContexts` pass per question gives both, so each
 * window is tokenised once (the traversal's windows run to hundreds per question).
 */
export function summarizeReach(gold: readonly GoldQuestion[], reached: readonly RetrievalRecord[], options: { bestOf?: number } = {}): GraphReach {
  const byId = new Map(reached.map((line) => [line.id, line.contexts]));
  const k = options.bestOf ?? 0;
  const rows = gold.map((q) => {
    const contexts = byId.get(q.id) ?? [];
    const cover = coverContexts({ gold: q, contexts, k });
    return {
      type: q.question_type ?? 'unknown',
      windows: contexts.length,
      er: cover.statements === 0 ? null : cover.coverable / cover.statements,
      best: cover.er,
    };
  });
  const figures = (list: typeof rows): ReachFigures => ({
    windowsPerQuestion: list.length === 0 ? 0 : list.reduce((sum, row) => sum + row.windows, 0) / list.length,
    er: meanOf(list.map((row) => row.er)),
  });
  const types = [...new Set(rows.map((row) => row.type))].sort();
  return {
    ...figures(rows),
    byType: Object.fromEntries(types.map((type) => [type, figures(rows.filter((row) => row.type === type))])),
    ...(options.bestOf === undefined ? {} : { best: { k, er: meanOf(rows.map((row) => row.best)) } }),
  };
}

/** The mean of the values that are not null (questions without evidence statements), as `summarize` takes it; null when none is. */
function meanOf(values: readonly (number | null)[]): number | null {
  const present = values.filter((value): value is number => value !== null);
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0) / present.length;
}
