import { throwIfAborted } from '@mosaic/spec';
import type { RerankOptions, Reranking, WindowReranker } from '@mosaic/spec';
import { collectCandidateWindows } from './candidate-windows.js';
import type { WindowGeometry } from '@mosaic/stage-utils';
import { checkLexicalWeight, rankWindowsTrace, resolveTopN, rankWindows, type WindowRerankTrace } from './rank-windows.js';

/** The trace-carrying result of this package's rerankers (`T`: the reranker's own trace type). */
export interface WindowReranking<T extends WindowRerankTrace = WindowRerankTrace> extends Reranking {
  trace: T;
}

/** A WindowReranker whose rerank result carries its precise trace, readable without a cast. */
export interface EvidenceWindowReranker<T extends WindowRerankTrace = WindowRerankTrace> extends WindowReranker {
  rerank(options: RerankOptions): Promise<WindowReranking<T>>;
}

/** Shared by the bi-encoder and hybrid rerankers. */
export interface EvidenceWindowRerankerSettings {
  id: string;
  /** λ of the fusion; 0 = dense only. */
  lexicalWeight: number;
  /**
   * Cut the candidate chunks into windows of this geometry at query time (the report's literal
   * description) instead of using the index's precomputed windows. Costs one encoder call per question.
   */
  cutChunks?: WindowGeometry;
}

/**
 * A reranker of this package: the abort check and the `topN` default are done here, `rank` gets the
 * request with `topN` resolved and returns the windows with the reranker's own trace.
 */
export function defineWindowReranker<T extends WindowRerankTrace>(
  id: string,
  rank: (options: RerankOptions & { topN: number }) => Promise<WindowReranking<T>>,
): EvidenceWindowReranker<T> {
  return {
    specificationVersion: 'v1',
    id,
    async rerank(options) {
      throwIfAborted(options.abortSignal, 'rerank');
      return rank({ ...options, topN: resolveTopN(options.topN) });
    },
  };
}

/** Evidence → chunks → windows → ranked by the question → top N. */
export function createEvidenceWindowReranker(settings: EvidenceWindowRerankerSettings): EvidenceWindowReranker {
  checkLexicalWeight(settings.lexicalWeight);
  const { id, lexicalWeight, cutChunks } = settings;
  return defineWindowReranker(id, async ({ context, index, evidence, topN, abortSignal }) => {
    const collected = collectCandidateWindows({ index, evidence, cutChunks });
    const ranking = await rankWindows({
      index,
      context,
      candidates: collected.candidates,
      lexicalWeight,
      precomputed: cutChunks === undefined,
      abortSignal,
    });
    const windows = ranking.ranked.slice(0, topN);
    const trace: WindowRerankTrace = {
      ...rankWindowsTrace({ id, candidateWindows: collected.candidates.length, windows, evidenceUnits: evidence.length, collected, ranking, lexicalWeight }),
    };
    return { windows, trace };
  });
}
