import type { Retrieval } from '@mosaic/pipeline';
import { CONTROL_FIELDS } from '@mosaic/policy-schema';
import type { PolicyControls, StageTimings } from '@mosaic/spec';

/** One line of `mosaic retrieve` output; other programs read these names, keep them. */
export interface RetrievalLine {
  id: string;
  contexts: string[];
  policy: Partial<PolicyControls> | null;
  latency_ms: number;
  paths_evaluated: number;
  depth_reached: number;
  evidence_units: number;
  /** With `stages: true` (`mosaic retrieve --timings`): each stage's milliseconds, as `trace.timings` has them. */
  stage_ms?: StageMilliseconds;
}

/** The stages of `stage_ms`, in pipeline order (`ground`: focusing, locating and the support judgement). */
const LINE_STAGES = ['analyze', 'encode', 'seeds', 'traverse', 'evidence', 'rerank', 'ground', 'retrieval', 'total'] as const;

export type StageMilliseconds = Partial<Record<(typeof LINE_STAGES)[number], number>>;

const hundredths = (ms: number) => Math.round(ms * 100) / 100;

/** A retrieval's stage timings for `stage_ms`, to the hundredth of a millisecond (a stage not timed is left out). */
function stageMilliseconds(timings: StageTimings): StageMilliseconds {
  const out: StageMilliseconds = {};
  for (const stage of LINE_STAGES) {
    const ms = timings[stage];
    if (typeof ms === 'number' && Number.isFinite(ms)) out[stage] = hundredths(ms);
  }
  return out;
}

/**
 * Builds the output line of one retrieval. `latency_ms` covers retrieval only: an LLM analyzer's
 * time is excluded (an offline or forced analyzer is part of retrieval and counted).
 */
export function retrievalLine(id: string, retrieval: Retrieval, options: { stages?: boolean } = {}): RetrievalLine {
  const { timings, analysis, policy } = retrieval;
  const llmAnalyzer = analysis.analyzer.startsWith('openai') && !analysis.fallback && !analysis.cacheHit;
  // The executable controls only (diagnostics and the baseline-only fixedDepth flag are left out).
  const controls = Object.fromEntries(CONTROL_FIELDS.map((field) => [field, policy[field]])) as Partial<PolicyControls>;

  return {
    id,
    contexts: retrieval.windows.map((w) => w.text),
    policy: controls,
    latency_ms: hundredths(llmAnalyzer ? timings.total - timings.analyze : timings.total),
    paths_evaluated: retrieval.effort.pathsEvaluated,
    depth_reached: retrieval.effort.depthReached,
    evidence_units: retrieval.effort.retainedEvidence,
    ...(options.stages ? { stage_ms: stageMilliseconds(timings) } : {}),
  };
}
