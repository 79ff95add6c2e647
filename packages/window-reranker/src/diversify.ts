import { InvalidArgumentError } from '@mosaic/spec';
import type { RankedWindow } from '@mosaic/spec';

/** What `diversify` chose and what it passed over. */
export interface Diversification {
  /**
   * The chosen windows, in the order they were chosen. With λ > 0 a window's `score` is its marginal
   * relevance when chosen, which never rises from one choice to the next (so the list stays sorted by
   * score); `scores.relevance` keeps the score it was ranked by and `scores.redundancy` its largest
   * shared text with the windows chosen before it.
   */
  windows: RankedWindow[];
  /** Ids of windows in the plain top N (by score) that the diversified top N left out. */
  passedOver: string[];
}

/** λ of `diversify` must lie in [0, 1): 1 would ignore relevance altogether. */
export function checkDiversity(lambda: number, argument = 'diversity'): number {
  if (typeof lambda !== 'number' || !(lambda >= 0 && lambda < 1)) {
    throw new InvalidArgumentError({ argument, message: `must be a number in [0, 1), got ${String(lambda)}` });
  }
  return lambda;
}

/**
 * The share of text two windows have in common: the characters their offsets share in one document,
 * over the shorter window's length (0 for windows of different documents). Neighbouring windows of
 * the default geometry (1,600 characters, stride 800) share 0.5.
 */
export function sharedText(a: Pick<RankedWindow, 'documentId' | 'start' | 'end'>, b: Pick<RankedWindow, 'documentId' | 'start' | 'end'>): number {
  if (a.documentId !== b.documentId) return 0;
  const shared = Math.min(a.end, b.end) - Math.max(a.start, b.start);
  if (shared <= 0) return 0;
  return shared / Math.max(1, Math.min(a.end - a.start, b.end - b.start));
}

/**
 * Maximal marginal relevance (Carbonell and Goldstein, 1998) over ranked windows: take the best
 * window, then repeatedly the window maximising
 *
 *   (1 − λ) · relevance(w) − λ · max over chosen c of sharedText(w, c)
 *
 * until `topN` are chosen; relevance = the window's score min-max normalised over `ranked`. Windows
 * overlap by half (stride 800 of 1,600 characters), and a lexical ranking often puts both halves of
 * one passage at its top: the second half then gives way to a window that adds text, unless it is
 * much more relevant. λ = 0 returns the first `topN` of `ranked` unchanged. Ties go to the earlier
 * window in `ranked`, so the result is deterministic. `ranked` must be sorted best first.
 */
export function diversify(ranked: readonly RankedWindow[], topN: number, lambda: number): Diversification {
  checkDiversity(lambda, 'lambda');
  const n = Math.min(topN, ranked.length);
  if (lambda === 0 || n === 0) return { windows: ranked.slice(0, n), passedOver: [] };
  const best = ranked[0]!.score;
  const worst = ranked[ranked.length - 1]!.score;
  const range = best - worst;
  const relevance = ranked.map((window) => (range > 0 ? (window.score - worst) / range : 1));
  // redundancy[i] = the largest share of text window i has in common with a chosen window.
  const redundancy = new Float64Array(ranked.length);
  const chosen: number[] = [];
  const values: number[] = [];
  const open = new Set(ranked.map((_, i) => i));
  while (chosen.length < n) {
    let pick = -1;
    let pickValue = Number.NEGATIVE_INFINITY;
    for (const i of open) {
      const value = (1 - lambda) * relevance[i]! - lambda * redundancy[i]!;
      if (value > pickValue) {
        pick = i;
        pickValue = value;
      }
    }
    chosen.push(pick);
    values.push(pickValue);
    open.delete(pick);
    for (const i of open) redundancy[i] = Math.max(redundancy[i]!, sharedText(ranked[i]!, ranked[pick]!));
  }
  const windows = chosen.map((i, k) => ({
    ...ranked[i]!,
    score: values[k]!,
    scores: { ...ranked[i]!.scores, relevance: ranked[i]!.score, redundancy: redundancy[i]! },
  }));
  const kept = new Set(chosen);
  const passedOver: string[] = [];
  for (let i = 0; i < n; i += 1) if (!kept.has(i)) passedOver.push(ranked[i]!.id);
  return { windows, passedOver };
}
