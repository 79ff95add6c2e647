import { createMosaic, type Mosaic, type Retrieval } from '@mosaic/pipeline';
import type { FixedPolicyName } from '@mosaic/policy-schema';
import { createReranker, type RerankerName } from '@mosaic/window-reranker';
import { fusionCandidates } from '@mosaic/window-reranker/internal';
import type { Analyzer, CorpusIndex, EvidenceUnit, StageTimings } from '@mosaic/spec';
import type { RetrievalLine } from '../retrieval-line.js';
import { retrievalLine } from '../retrieval-line.js';
import { beamEvidence, createBeamRecorder } from './beam-reach.js';

/** What one system returns for one question. */
export interface SystemAnswer {
  line: RetrievalLine;
  timings: Partial<StageTimings>;
  /** Present for graph systems. */
  retrieval?: Retrieval;
  /** Graph systems: the evidence that every path the traversal scored would yield (see `beamEvidence`). */
  beamEvidence?: EvidenceUnit[];
  /**
   * Graph systems ranked by the fusion reranker, graph on: the texts of every window it ranked (its
   * candidates, `fusionCandidates`: the evidence's windows plus the whole-corpus BM25 and dense top 50).
   */
  rankedCandidates?: string[];
}

export interface BenchSystem {
  name: string;
  description: string;
  /** Whether it runs the Mosaic graph pipeline (effort, policy and reach figures apply; also with the graph off). */
  graph: boolean;
  /** Graph systems: the reranker that ranks their windows (the bench compares policies only under one reranker). */
  reranker?: string;
  /** Graph systems under a fixed policy: its name. Absent: the policy is the analyzer's (question-aware). */
  fixedPolicy?: FixedPolicyName;
  run(options: { id: string; question: string; index: CorpusIndex; windows: number }): Promise<SystemAnswer>;
}

/** The texts of the windows with these index labels, in order (labels without a window are skipped). */
export function windowTexts(index: CorpusIndex, labels: readonly number[]): string[] {
  const out: string[] = [];
  for (const label of labels) {
    const id = index.windowIds[label];
    const window = id === undefined ? undefined : index.chunks.getWindow(id);
    if (window) out.push(window.text);
  }
  return out;
}

function plainLine(id: string, contexts: string[], latency: number): RetrievalLine {
  return { id, contexts, policy: null, latency_ms: Math.round(latency * 100) / 100, paths_evaluated: 0, depth_reached: 0, evidence_units: 0 };
}

/** The index labels of search hits, best first. */
function labelsOf(hits: readonly { label: number }[]): number[] {
  return hits.map((hit) => hit.label);
}

/** BM25 over every window of the corpus (wink-bm25-text-search, built at index time). */
export function bm25System(): BenchSystem {
  return {
    name: 'bm25',
    description: 'BM25 over all windows (wink-bm25-text-search)',
    graph: false,
    async run({ id, question, index, windows }) {
      const lexical = index.lexical?.windows;
      if (!lexical) throw new Error(`index ${index.manifest.corpus} has no lexical window index`);
      const started = performance.now();
      const hits = lexical.search(question, windows);
      const latency = performance.now() - started;
      return { line: plainLine(id, windowTexts(index, labelsOf(hits)), latency), timings: { retrieval: latency, total: latency } };
    },
  };
}

/** Dense retrieval over every window with the index's encoder (the same vectors the reranker uses). */
export function denseSystem(): BenchSystem {
  return {
    name: 'dense',
    description: 'dense retrieval over all windows, same encoder',
    graph: false,
    async run({ id, question, index, windows }) {
      const started = performance.now();
      const [vector] = await index.encoder.encode([question]);
      const encoded = performance.now();
      const hits = await index.windowIndex.search(vector, windows);
      const done = performance.now();
      const timings = { encode: encoded - started, rerank: done - encoded, retrieval: done - started, total: done - started };
      return { line: plainLine(id, windowTexts(index, labelsOf(hits)), done - started), timings };
    },
  };
}

/** The Mosaic pipeline under a fixed policy or the adaptive analyzer, with a named reranker; `graph: false` is the no-graph ablation. */
export function mosaicSystem(options: {
  name: string;
  description: string;
  policy?: FixedPolicyName;
  analyzer: Analyzer;
  reranker?: RerankerName;
  /** Use graph evidence (default true); false runs the same pipeline and reranker with no graph evidence. */
  graph?: boolean;
  /** Put the answering window first (the pipeline's focus step; default true); false keeps the reranker's order. */
  focus?: boolean;
}): BenchSystem {
  const pipelines = new WeakMap<CorpusIndex, Mosaic>();
  const beams = createBeamRecorder();
  return {
    name: options.name,
    description: options.description,
    graph: true,
    // The pipeline's default reranker is fusion (createMosaic without `reranker`).
    reranker: options.reranker ?? 'fusion',
    ...(options.policy ? { fixedPolicy: options.policy } : {}),
    async run({ id, question, index, windows }) {
      let mosaic = pipelines.get(index);
      if (!mosaic) {
        mosaic = createMosaic({
          index,
          analyzer: options.analyzer,
          reranker: options.reranker ? createReranker({ name: options.reranker }) : undefined,
          windows,
          graph: options.graph,
          focus: options.focus,
          hooks: beams.hooks,
        });
        pipelines.set(index, mosaic);
      }
      let retrieval: Retrieval;
      try {
        retrieval = await mosaic.retrieve({ question: { id, text: question }, policy: options.policy });
      } catch (error) {
        beams.take(id); // a failed question leaves nothing recorded behind
        throw error;
      }
      const capture = beams.take(id);
      const beam = await beamEvidence({ selector: mosaic.stages.evidenceSelector, index, retrieval, capture });
      // After the timed retrieval, as the beam: what the fusion reranker chose its windows from.
      const fused = (options.reranker ?? 'fusion') === 'fusion' && options.graph !== false && capture.queryVector !== undefined;
      const rankedCandidates = fused
        ? (
            await fusionCandidates({
              index: index.forRetrieval?.() ?? index,
              evidence: retrieval.evidence,
              question: retrieval.question.text,
              queryVector: capture.queryVector!,
            })
          ).map((window) => window.text)
        : undefined;
      return {
        line: retrievalLine(id, retrieval),
        timings: retrieval.timings,
        retrieval,
        beamEvidence: beam,
        ...(rankedCandidates ? { rankedCandidates } : {}),
      };
    },
  };
}
