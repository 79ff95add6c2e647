import { metricTokenSet } from '@mosaic/stage-utils';
import { evidenceStatements } from './evidence-statements.js';

/** A gold record in GraphRAG-Bench format. */
export interface GoldQuestion {
  id: string;
  source?: string;
  question: string;
  answer?: string;
  question_type?: string;
  evidence?: string | string[];
}

/** One retrieval result line (METRICS.md exchange format). */
export interface RetrievalRecord {
  id: string;
  contexts: string[];
  [key: string]: unknown;
}

export interface QuestionScores {
  id: string;
  questionType: string;
  /** Share of evidence statements covered ≥ tau by one single context; null when no statement qualifies. */
  er: number | null;
  er_soft: number | null;
  /** Answer-token recall by the union of contexts; null for types other than Fact Retrieval / Complex Reasoning. */
  ans: number | null;
  chars: number;
}

export interface MetricSummary {
  n: number;
  er: number | null;
  er_soft: number | null;
  ans: number | null;
  /** Questions that had an ans value. */
  n_ans: number;
  /** Questions that had an er value. */
  n_er: number;
  chars: number;
}

export interface MetricsReport {
  overall: MetricSummary;
  byType: Record<string, MetricSummary>;
  perQuestion: QuestionScores[];
}

export const ANSWER_TYPES: ReadonlySet<string> = new Set(['Fact Retrieval', 'Complex Reasoning']);

/** @internal Share of a statement's tokens that a context holds (shared with `coverContexts`). */
export function coverage(statement: Set<string>, context: Set<string>): number {
  if (statement.size === 0) return 0;
  let hit = 0;
  for (const t of statement) if (context.has(t)) hit += 1;
  return hit / statement.size;
}

/** Scores one question. `tau` defaults to 0.6 as METRICS.md fixes. */
export function scoreQuestion(gold: GoldQuestion, contexts: readonly string[], tau = 0.6): QuestionScores {
  const contextTokens = contexts.map(metricTokenSet);
  const statements = evidenceStatements(gold.evidence).map(metricTokenSet);
  let er: number | null = null;
  let erSoft: number | null = null;
  if (statements.length > 0) {
    let covered = 0;
    let soft = 0;
    for (const statement of statements) {
      let best = 0;
      for (const ctx of contextTokens) best = Math.max(best, coverage(statement, ctx));
      soft += best;
      if (best >= tau) covered += 1;
    }
    er = covered / statements.length;
    erSoft = soft / statements.length;
  }
  const type = gold.question_type ?? 'unknown';
  let ans: number | null = null;
  if (ANSWER_TYPES.has(type) && gold.answer) {
    const answer = metricTokenSet(gold.answer);
    if (answer.size > 0) {
      const union = new Set<string>();
      for (const ctx of contextTokens) for (const t of ctx) union.add(t);
      ans = coverage(answer, union);
    }
  }
  const chars = contexts.reduce((sum, c) => sum + c.length, 0);
  return { id: gold.id, questionType: type, er, er_soft: erSoft, ans, chars };
}

function mean(values: number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

export function summarize(scores: readonly QuestionScores[]): MetricSummary {
  const er = scores.map((s) => s.er).filter((v): v is number => v !== null);
  const soft = scores.map((s) => s.er_soft).filter((v): v is number => v !== null);
  const ans = scores.map((s) => s.ans).filter((v): v is number => v !== null);
  return {
    n: scores.length,
    er: mean(er),
    er_soft: mean(soft),
    ans: mean(ans),
    n_er: er.length,
    n_ans: ans.length,
    chars: mean(scores.map((s) => s.chars)) ?? 0,
  };
}

export interface EvaluateOptions {
  gold: readonly GoldQuestion[];
  results: readonly RetrievalRecord[];
  /** Use only the first k contexts of each result (e.g. 5 or 15). */
  topK?: number;
  tau?: number;
}

/**
 * Scores retrieval results against gold questions (METRICS.md). Questions without a result
 * are scored with no contexts (they count, with zero recall).
 */
export function evaluateRetrieval(options: EvaluateOptions): MetricsReport {
  const byId = new Map(options.results.map((r) => [r.id, r]));
  const perQuestion = options.gold.map((g) => {
    const contexts = byId.get(g.id)?.contexts ?? [];
    return scoreQuestion(g, options.topK === undefined ? contexts : contexts.slice(0, options.topK), options.tau);
  });
  const types = [...new Set(perQuestion.map((s) => s.questionType))].sort();
  const byType: Record<string, MetricSummary> = {};
  for (const t of types) byType[t] = summarize(perQuestion.filter((s) => s.questionType === t));
  return { overall: summarize(perQuestion), byType, perQuestion };
}
