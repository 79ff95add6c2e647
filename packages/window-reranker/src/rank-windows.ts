import { InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type { AbortOptions, CorpusIndex, QueryContext, RankedWindow, RerankTrace, SourceWindow } from '@mosaic/spec';
import type { CandidateWindow, CandidateWindows } from './candidate-windows.js';
import { denseScores, type DenseSource } from './dense-scores.js';
import { lexicalScores, type LexicalSource } from './lexical-scores.js';

/** The RerankTrace every reranker of this package returns, with what it looked at. */
export interface WindowRerankTrace extends RerankTrace {
  /** Evidence units received. */
  evidenceUnits: number;
  /** Distinct source chunks the units pointed to. */
  chunks: number;
  /** Chunk ids that resolved to no window. */
  unresolvedChunks: string[];
  /** How dense scores were obtained. */
  dense: DenseSource;
  /** Windows encoded at query time (0 on a complete index with precomputed windows). */
  encodedWindows: number;
  /** Hybrid only: the BM25 weight and where BM25 came from. */
  lexicalWeight?: number;
  lexical?: LexicalSource;
}

export interface Ranking {
  /** Every candidate, ranked (best first). */
  ranked: RankedWindow[];
  dense: DenseSource;
  lexical?: LexicalSource;
  encoded: number;
}

/** Best first; ties broken by document order, then id, so results are deterministic. */
export function compareRankedWindows(a: RankedWindow, b: RankedWindow): number {
  if (b.score !== a.score) return b.score - a.score;
  if (a.documentId !== b.documentId) return a.documentId < b.documentId ? -1 : 1;
  if (a.start !== b.start) return a.start - b.start;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Windows returned when a caller leaves `topN` undefined (the report's 15). */
export const DEFAULT_TOP_N = 15;

/** `topN` with the default applied; InvalidArgumentError unless it is a non-negative integer. */
export function resolveTopN(topN: number | undefined): number {
  const value = topN ?? DEFAULT_TOP_N;
  if (!Number.isInteger(value) || value < 0) {
    throw new InvalidArgumentError({ argument: 'topN', message: `must be a non-negative integer, got ${value}` });
  }
  return value;
}

/** Throws InvalidArgumentError unless the weight lies in [0, 1]. */
export function checkLexicalWeight(lexicalWeight: number): void {
  if (!(lexicalWeight >= 0 && lexicalWeight <= 1)) {
    throw new InvalidArgumentError({ argument: 'lexicalWeight', message: `must lie in [0, 1], got ${lexicalWeight}` });
  }
}

/**
 * Score candidates: dense cosine to the question vector, optionally fused with max-normalised BM25:
 * score = (1 − λ)·dense + λ·bm25 / max(bm25 over the candidates).
 */
export async function rankWindows(
  options: {
    index: CorpusIndex;
    context: QueryContext;
    candidates: readonly CandidateWindow[];
    /** λ; 0 = dense only (no BM25 computed). */
    lexicalWeight: number;
    /** False when the candidates were cut at query time. */
    precomputed?: boolean;
  } & AbortOptions,
): Promise<Ranking> {
  const { index, context, candidates, lexicalWeight, abortSignal } = options;
  const windows = candidates.map((candidate) => candidate.window);
  const dense = await denseScores({ index, queryVector: context.queryVector, windows, precomputed: options.precomputed, abortSignal });
  throwIfAborted(abortSignal, 'rerank');
  const lexical = lexicalWeight > 0 ? lexicalScores({ index, question: context.question.text, windows, precomputed: options.precomputed }) : undefined;
  let maxBm25 = 0;
  if (lexical) for (const score of lexical.scores.values()) maxBm25 = Math.max(maxBm25, score);
  const ranked = candidates.map(({ window, evidenceIds }): RankedWindow => {
    const denseScore = dense.scores.get(window.id) ?? 0;
    const scores: Record<string, number> = { dense: denseScore };
    let score = denseScore;
    if (lexical) {
      const bm25 = lexical.scores.get(window.id) ?? 0;
      const normalised = maxBm25 > 0 ? bm25 / maxBm25 : 0;
      scores.bm25 = bm25;
      scores.lexical = normalised;
      score = (1 - lexicalWeight) * denseScore + lexicalWeight * normalised;
    }
    return rankedWindow(window, evidenceIds, score, scores);
  });
  ranked.sort(compareRankedWindows);
  return { ranked, dense: dense.source, lexical: lexical?.source, encoded: dense.encoded };
}

/** A candidate window with its score and score terms, as the rerankers return it. */
export function rankedWindow(window: SourceWindow, evidenceIds: readonly string[], score: number, scores: Record<string, number>): RankedWindow {
  return {
    id: window.id,
    text: window.text,
    score,
    documentId: window.documentId,
    start: window.start,
    end: window.end,
    evidenceIds: [...evidenceIds],
    scores,
  };
}

/** The trace fields every reranker of this package fills: what it received, what it ranked and how. */
export function rankingTrace(options: {
  id: string;
  candidateWindows: number;
  windows: RankedWindow[];
  evidenceUnits: number;
  collected: Pick<CandidateWindows, 'chunks' | 'unresolvedChunks'>;
  dense: DenseSource;
  encodedWindows: number;
}): WindowRerankTrace {
  return {
    reranker: options.id,
    candidateWindows: options.candidateWindows,
    windows: options.windows,
    evidenceUnits: options.evidenceUnits,
    chunks: options.collected.chunks,
    unresolvedChunks: options.collected.unresolvedChunks,
    dense: options.dense,
    encodedWindows: options.encodedWindows,
  };
}

/** The trace of a reranker that ranks with `rankWindows`: `rankingTrace` plus the lexical blend when it has one. */
export function rankWindowsTrace(options: {
  id: string;
  candidateWindows: number;
  windows: RankedWindow[];
  evidenceUnits: number;
  collected: Pick<CandidateWindows, 'chunks' | 'unresolvedChunks'>;
  ranking: Awaited<ReturnType<typeof rankWindows>>;
  lexicalWeight: number;
}): WindowRerankTrace {
  const { ranking, lexicalWeight } = options;
  return {
    ...rankingTrace({ ...options, dense: ranking.dense, encodedWindows: ranking.encoded }),
    ...(lexicalWeight > 0 ? { lexicalWeight, lexical: ranking.lexical } : {}),
  };
}
