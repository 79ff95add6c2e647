import type { RunMetadata } from './run-metadata.js';
import { summarizePolicies, type PolicySummary } from '@mosaic/analyzer';
import { evaluateRetrieval, type GoldQuestion, type MetricSummary, type RetrievalRecord } from '@mosaic/evaluation';
import type { CorpusIndex, IndexManifest, StageTimings } from '@mosaic/spec';
import type { RetrievalLine } from '../retrieval-line.js';
import type { AnswerJudgement } from './answer-judge.js';
import { reachedWindows, summarizeReach, type GraphReach } from './graph-reach.js';
import { comparePolicies, type PolicyComparison, type ScoredSystem } from './policy-comparison.js';
import { mean, percentile } from './stats.js';
import { type BenchSystem, windowTexts } from './systems.js';

export interface LatencyFigures {
  p50: number;
  p95: number;
  mean: number;
}

export interface SystemReport {
  name: string;
  description: string;
  /** METRICS.md figures at each windows budget (e.g. 15 and 5). */
  metrics: Record<string, { overall: MetricSummary; byType: Record<string, MetricSummary> }>;
  /** The report's Table 9 quantities (means per question), graph systems only. */
  effort?: { pathsEvaluated: number; depthReached: number; selectedPaths: number; retainedEvidence: number };
  /**
   * Graph reach, graph systems only: the windows the retained evidence maps to (as the rerankers map it),
   * per question, and METRICS.md `er` with all of them as contexts (overall and per question type).
   */
  reach?: GraphReach;
  /**
   * Beam reach, graph systems only: the same figures for the evidence that every path the traversal
   * scored would yield (the evidence selector run again over all of them with no budget cut).
   * Against `reach`, it says whether evidence was lost in traversal or in selection.
   */
  beamReach?: GraphReach;
  /**
   * Fusion-ranked graph systems only: the same figures for every window the reranker ranked (the
   * evidence's windows plus the whole-corpus BM25 and dense top 50), with their best k: what a
   * perfect choice among the fusion's own candidates would hold.
   */
  rankedCandidates?: GraphReach;
  latency: Partial<Record<keyof StageTimings, LatencyFigures>>;
  policy?: PolicySummary;
  /** Retrieval latency of every question (ms), for the distribution chart. */
  retrievalLatencies: number[];
  errors: { id: string; message: string }[];
}

export interface BenchReport {
  createdAt: string;
  /** The command, commit, date and machine of the run (set by `mosaic bench`), for the results page. */
  run?: RunMetadata;
  /** Whether the Mosaic systems used graph evidence (false: `bench --graph off`, names end in `-nograph`). */
  graph?: boolean;
  /** The reranker of the Mosaic systems that do not name their own (`bench --reranker`). */
  reranker?: string;
  questions: number;
  windows: number[];
  indexes: (IndexManifest & { peakRssBytes?: number })[];
  systems: SystemReport[];
  /**
   * The most any retriever of these windows can score: METRICS.md `er` with every window of each
   * question's corpus index as a context (overall and per question type). A statement no single window
   * covers (τ = 0.6) is out of every system's reach.
   */
  ceiling?: { er: number | null; byType: Record<string, number | null> };
  /**
   * Per reranker, the graph systems that ran a fixed policy against those whose policy an analyzer
   * chose, question by question at the largest windows budget, with the oracle (the best fixed policy
   * per question). Present when some reranker ran a fixed policy and at least one other graph system,
   * and the graph was on.
   */
  policyComparison?: PolicyComparison[];
  /** LLM-judged answer correctness per judged system (bench --judge). */
  answerCorrectness?: Record<string, AnswerJudgement>;
}

export interface RunBenchOptions {
  systems: readonly BenchSystem[];
  questions: readonly GoldQuestion[];
  /** The corpus index of a question. */
  indexOf(question: GoldQuestion): CorpusIndex;
  /** Windows budgets to score; the largest is what systems retrieve. */
  windows?: number[];
  onProgress?(event: { system: string; done: number; total: number }): void;
  /** Receives every output line (for the raw runs). */
  onLine?(system: string, line: RetrievalLine): void;
  /** Recorded in the report (see BenchReport). */
  graph?: boolean;
  reranker?: string;
}

const STAGES: (keyof StageTimings)[] = ['analyze', 'encode', 'seeds', 'traverse', 'evidence', 'rerank', 'ground', 'retrieval', 'total'];

export async function runBench(options: RunBenchOptions): Promise<BenchReport> {
  const budgets = [...new Set(options.windows ?? [15, 5])].sort((a, b) => b - a);
  const k = budgets[0];
  const reports: SystemReport[] = [];
  const scored: ScoredSystem[] = [];
  const manifests = new Map<string, IndexManifest>();
  for (const q of options.questions) {
    const m = options.indexOf(q).manifest;
    manifests.set(m.corpus, m);
  }
  for (const system of options.systems) {
    const lines: RetrievalLine[] = [];
    const timings: Partial<StageTimings>[] = [];
    const effort: { p: number; d: number; s: number; e: number }[] = [];
    const analyses: { policy: import('@mosaic/spec').Policy; latencyMs?: number; fallback?: unknown }[] = [];
    const errors: { id: string; message: string }[] = [];
    const reached: RetrievalRecord[] = [];
    const beamReached: RetrievalRecord[] = [];
    const candidateLines: RetrievalRecord[] = [];
    let done = 0;
    for (const q of options.questions) {
      try {
        const index = options.indexOf(q);
        const answer = await system.run({ id: q.id, question: q.question, index, windows: k });
        lines.push(answer.line);
        timings.push(answer.timings);
        options.onLine?.(system.name, answer.line);
        if (answer.retrieval) {
          const r = answer.retrieval;
          effort.push({ p: r.effort.pathsEvaluated, d: r.effort.depthReached, s: r.effort.selectedPaths, e: r.effort.retainedEvidence });
          analyses.push({ policy: r.policy, latencyMs: r.analysis.latencyMs, fallback: r.analysis.fallback });
          reached.push(reachedWindows(q.id, index, r.evidence));
          beamReached.push(reachedWindows(q.id, index, answer.beamEvidence ?? []));
          if (answer.rankedCandidates) candidateLines.push({ id: q.id, contexts: answer.rankedCandidates });
        }
      } catch (error) {
        errors.push({ id: q.id, message: (error as Error).message });
      }
      done += 1;
      options.onProgress?.({ system: system.name, done, total: options.questions.length });
    }
    const metrics: SystemReport['metrics'] = {};
    for (const budget of budgets) {
      const { overall, byType, perQuestion } = evaluateRetrieval({
        gold: options.questions,
        results: lines.map((l) => ({ id: l.id, contexts: l.contexts })),
        topK: budget,
      });
      metrics[String(budget)] = { overall, byType };
      if (budget === k && system.graph && system.reranker !== undefined) {
        // Per-question ER at the largest budget, for the policy comparison; a failed question (no line) is left out.
        const answered = new Set(lines.map((l) => l.id));
        const scores = new Map(perQuestion.filter((q) => answered.has(q.id)).map((q) => [q.id, q.er]));
        scored.push({ name: system.name, reranker: system.reranker, fixedPolicy: system.fixedPolicy, scores });
      }
    }
    const latency: SystemReport['latency'] = {};
    for (const stage of STAGES) {
      const values = timings.map((t) => t[stage]).filter((v): v is number => typeof v === 'number');
      if (values.length > 0) latency[stage] = { p50: percentile(values, 0.5), p95: percentile(values, 0.95), mean: mean(values) };
    }
    reports.push({
      name: system.name,
      description: system.description,
      metrics,
      effort: system.graph
        ? {
            pathsEvaluated: mean(effort.map((x) => x.p)),
            depthReached: mean(effort.map((x) => x.d)),
            selectedPaths: mean(effort.map((x) => x.s)),
            retainedEvidence: mean(effort.map((x) => x.e)),
          }
        : undefined,
      reach: system.graph ? summarizeReach(options.questions, reached, { bestOf: k }) : undefined,
      beamReach: system.graph ? summarizeReach(options.questions, beamReached, { bestOf: k }) : undefined,
      ...(candidateLines.length > 0 ? { rankedCandidates: summarizeReach(options.questions, candidateLines, { bestOf: k }) } : {}),
      latency,
      policy: system.graph ? summarizePolicies(analyses) : undefined,
      retrievalLatencies: lines.map((l) => l.latency_ms),
      errors,
    });
  }
  // With the graph off every Mosaic system ranks the same windows: nothing to compare.
  const policyComparison = options.graph === false ? [] : comparePolicies(scored);
  return {
    createdAt: new Date().toISOString(),
    ceiling: ceilingOf(options),
    ...(policyComparison.length > 0 ? { policyComparison } : {}),
    ...(options.graph === undefined ? {} : { graph: options.graph }),
    ...(options.reranker === undefined ? {} : { reranker: options.reranker }),
    questions: options.questions.length,
    windows: budgets,
    indexes: [...manifests.values()],
    systems: reports,
  };
}

/** METRICS.md `er` with every window of each question's index as a context (see `BenchReport.ceiling`). */
function ceilingOf(options: Pick<RunBenchOptions, 'questions' | 'indexOf'>): BenchReport['ceiling'] {
  const texts = new Map<CorpusIndex, string[]>();
  const allWindows = (index: CorpusIndex) => {
    let list = texts.get(index);
    if (!list) {
      list = windowTexts(
        index,
        index.windowIds.map((_, label) => label),
      );
      texts.set(index, list);
    }
    return list;
  };
  const results = options.questions.map((q) => ({ id: q.id, contexts: allWindows(options.indexOf(q)) }));
  const { overall, byType } = evaluateRetrieval({ gold: options.questions, results });
  return { er: overall.er, byType: Object.fromEntries(Object.entries(byType).map(([type, summary]) => [type, summary.er])) };
}
