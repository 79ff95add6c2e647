import { DimensionMismatchError, InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type { CorpusIndex, QueryContext } from '@mosaic/spec';
import { collectCandidateWindows, type CandidateWindow } from './candidate-windows.js';
import { defineWindowReranker, type EvidenceWindowReranker } from './evidence-window-reranker.js';
import { checkLexicalWeight, compareRankedWindows, rankWindowsTrace, rankWindows, type WindowRerankTrace } from './rank-windows.js';

export interface ExpandingRerankerOptions {
  /** λ of the dense/BM25 fusion, as in the hybrid reranker (default 0: dense only). */
  lexicalWeight?: number;
  /** Whole-index hits fetched per missing slot, per search (default 2). */
  poolFactor?: number;
}

/**
 * Like the bi-encoder (or hybrid, with `lexicalWeight` > 0), but when the evidence reaches fewer than
 * `topN` windows it fills the missing slots from the whole window index: a dense search with the
 * question vector and, when the index has one, a BM25 search of the question. Every window reached from
 * evidence is kept; added windows carry empty `evidenceIds` and are listed in `trace.expanded`.
 * Name 'bi-encoder+expand' (or 'hybrid+expand' when lexicalWeight > 0).
 */
export function createExpandingReranker(options: ExpandingRerankerOptions = {}): EvidenceWindowReranker {
  const lexicalWeight = options.lexicalWeight ?? 0;
  checkLexicalWeight(lexicalWeight);
  const poolFactor = options.poolFactor ?? 2;
  if (!Number.isInteger(poolFactor) || poolFactor < 1) {
    throw new InvalidArgumentError({ argument: 'poolFactor', message: `must be a positive integer, got ${poolFactor}` });
  }
  const id = lexicalWeight > 0 ? 'hybrid+expand' : 'bi-encoder+expand';
  return defineWindowReranker(id, async ({ context, index, evidence, topN, abortSignal }) => {
    const collected = collectCandidateWindows({ index, evidence });
    const fromEvidence = collected.candidates;
    const missing = Math.max(0, topN - fromEvidence.length);
    const extra = missing > 0 ? await expansionCandidates({ index, context, exclude: fromEvidence, pool: fromEvidence.length + missing * poolFactor }) : [];
    throwIfAborted(abortSignal, 'rerank');
    const ranking = await rankWindows({ index, context, candidates: [...fromEvidence, ...extra], lexicalWeight, abortSignal });
    const added = ranking.ranked.filter((window) => window.evidenceIds.length === 0).slice(0, missing);
    const kept = ranking.ranked.filter((window) => window.evidenceIds.length > 0);
    const windows = [...kept, ...added].sort(compareRankedWindows).slice(0, topN);
    const trace: WindowRerankTrace = {
      ...rankWindowsTrace({
        id,
        candidateWindows: fromEvidence.length + extra.length,
        windows,
        evidenceUnits: evidence.length,
        collected,
        ranking,
        lexicalWeight,
      }),
      expanded: added.map((window) => window.id),
    };
    return { windows, trace };
  });
}

/** Windows from whole-index dense (and lexical, when available) searches, minus those already reached. */
async function expansionCandidates(options: {
  index: CorpusIndex;
  context: QueryContext;
  exclude: readonly CandidateWindow[];
  pool: number;
}): Promise<CandidateWindow[]> {
  const { index, context, pool } = options;
  if (context.queryVector.length !== index.windowIndex.dimension) {
    throw new DimensionMismatchError({ expected: index.windowIndex.dimension, actual: context.queryVector.length, what: 'Query vector' });
  }
  const seen = new Set(options.exclude.map((candidate) => candidate.window.id));
  const out: CandidateWindow[] = [];
  const add = (label: number) => {
    const id = index.windowIds[label];
    if (id === undefined || seen.has(id)) return;
    seen.add(id);
    const window = index.chunks.getWindow(id);
    if (window) out.push({ window, evidenceIds: [] });
  };
  const k = Math.min(pool, index.windowIndex.size);
  if (k > 0) for (const hit of await index.windowIndex.search(context.queryVector, k)) if (hit.label >= 0) add(hit.label);
  const lexical = index.lexical?.windows;
  if (lexical) for (const hit of lexical.search(context.question.text, pool)) add(hit.label);
  return out;
}
