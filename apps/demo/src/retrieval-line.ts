import type { Retrieval } from '@mosaic/pipeline';
import { CONTROL_FIELDS } from '@mosaic/policy-schema';
import type { PolicyControls } from '@mosaic/spec';

/** One line of `mosaic retrieve` output; other programs read these names, keep them. */
export interface RetrievalLine {
  id: string;
  contexts: string[];
  policy: Partial<PolicyControls> | null;
  latency_ms: number;
  paths_evaluated: number;
  depth_reached: number;
  evidence_units: number;
}

/**
 * Builds the output line of one retrieval. `latency_ms` covers retrieval only: an LLM analyzer's
 * time is excluded (an offline or forced analyzer is part of retrieval and counted).
 */
export function retrievalLine(id: string, retrieval: Retrieval): RetrievalLine {
  const { timings, analysis, policy } = retrieval;
  const llmAnalyzer = analysis.analyzer.startsWith('openai') && !analysis.fallback && !analysis.cacheHit;
  // The executable controls only (diagnostics and the baseline-only fixedDepth flag are left out).
  const controls = Object.fromEntries(CONTROL_FIELDS.map((field) => [field, policy[field]])) as Partial<PolicyControls>;

  return {
    id,
    contexts: retrieval.windows.map((w) => w.text),
    policy: controls,
    latency_ms: Math.round((llmAnalyzer ? timings.total - timings.analyze : timings.total) * 100) / 100,
    paths_evaluated: retrieval.effort.pathsEvaluated,
    depth_reached: retrieval.effort.depthReached,
    evidence_units: retrieval.effort.retainedEvidence,
  };
}
