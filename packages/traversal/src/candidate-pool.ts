import { byRank } from './beam-view.js';
import { comparePaths, firstInOrder } from '@mosaic/stage-utils/internal';
import type { Candidate, ScoredEntry, TraversalState } from './traversal-state.js';

/** One depth's pool: every distinct candidate, and the best few of them in rank order. */
export interface CandidatePool {
  /** The best version of each distinct path (by canonical key) among this depth's candidates. */
  all: Candidate[];
  /** The first 4·W of `all` in rank order (score descending, then id). */
  ranked: Candidate[];
  /** The kept beam: the first W of `ranked`. */
  kept: Candidate[];
}

/**
 * The shared pool (report §5.4): beam and connector candidates scored together. A path reached
 * again (either direction) competes in its best version; `state.scored` keeps every distinct
 * path's best version over all depths. The beam keeps the best W.
 */
export function poolCandidates(state: TraversalState, lists: readonly (readonly Candidate[])[], depth: number): CandidatePool {
  const entries: ScoredEntry[] = [];
  for (const list of lists) {
    for (const candidate of list) {
      const entry = state.scored.get(candidate.key);
      if (!entry) {
        const added: ScoredEntry = { best: candidate.path, pooled: candidate, depth };
        state.scored.set(candidate.key, added);
        entries.push(added);
        continue;
      }
      if (entry.depth !== depth) {
        entry.depth = depth;
        entry.pooled = candidate;
        entries.push(entry);
      } else if (comparePaths(candidate.path, entry.pooled.path) < 0) {
        entry.pooled = candidate;
      }
      if (comparePaths(candidate.path, entry.best) < 0) entry.best = candidate.path;
    }
  }
  const all = entries.map((entry) => entry.pooled);
  // The best few up front; the whole pool is ranked only if refilling the beam needs it.
  const ranked = firstInOrder(all, 4 * state.settings.width, byRank);
  return { all, ranked, kept: ranked.slice(0, state.settings.width) };
}
