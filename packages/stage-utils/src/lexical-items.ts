import type { LexicalIndex, LexicalScores, VectorHit } from '@mosaic/spec';
import { bestScoredPositions } from './top-k.js';

/**
 * Every item of `lexical` sharing a term with `query`, unsorted, with the scores `search` gives:
 * the index's `scoreAll` when it has one (no ranking of every item), else one `search` over all
 * `n` items.
 */
export function scoreEveryItem(lexical: LexicalIndex, query: string, n: number): LexicalScores {
  if (typeof lexical.scoreAll === 'function') return lexical.scoreAll(query);
  const hits = lexical.search(query, n);
  return { count: hits.length, labels: hits.map((hit) => hit.label), scores: hits.map((hit) => hit.score) };
}

/** Whether `lexical` gives every item's score unsorted (`withScores` or `scoreAll`): `readEveryItem` then ranks nothing. */
export function scoresEveryItem(lexical: LexicalIndex): boolean {
  return typeof lexical.withScores === 'function' || typeof lexical.scoreAll === 'function';
}

/**
 * `scoreEveryItem`'s scores given to `read`, which must not keep the arrays: lent by the index's
 * `withScores` when it has one (no arrays made for the query), else `scoreEveryItem`'s.
 */
export function readEveryItem<T>(lexical: LexicalIndex, query: string, n: number, read: (scores: LexicalScores) => T): T {
  if (typeof lexical.withScores === 'function') return lexical.withScores(query, read);
  return read(scoreEveryItem(lexical, query, n));
}

/**
 * `lexical.search(query, k)` read from the query's whole scores (`readEveryItem`: the same hits, best
 * first, ties by lower label) when the index gives them, else `search` itself. For a query whose
 * scores a later stage reads whole (the question: the traversal and the passage relevance do): an
 * index that keeps a query's scores (Bm25Index keeps the last few) then scores it once, where its own
 * `search` may answer from a pruned top k and leave the whole scoring to the later stage.
 */
export function searchWholeQuery(lexical: LexicalIndex, query: string, k: number, n: number): VectorHit[] {
  // Held, the query is scored whole and kept by the index (`holdScores`): its `search` then reads those
  // scores (Bm25Index ranks them where they were added, without a list of every score).
  const held = typeof lexical.holdScores === 'function' ? lexical.holdScores(query) : undefined;
  if (held) {
    try {
      return lexical.search(query, k);
    } finally {
      held.release();
    }
  }
  if (!scoresEveryItem(lexical)) return lexical.search(query, k);
  // Score descending, then label ascending (compareHits' order).
  return readEveryItem(lexical, query, n, ({ count, labels, scores }) =>
    bestScoredPositions(count, labels, scores, k).map((i) => ({ label: labels[i], score: scores[i] })),
  );
}

/** How many items `scoreEveryItem` would give: the index's `matchCount` when it has one, else a count of the lent or scored items. */
export function countEveryItem(lexical: LexicalIndex, query: string, n: number): number {
  if (typeof lexical.matchCount === 'function') return lexical.matchCount(query);
  return readEveryItem(lexical, query, n, (scores) => scores.count);
}

/**
 * id → label maps of id arrays, made once per array in a process and kept while the array lives
 * (an index's ids are read-only: several stages and the index's own vector lookups share one map,
 * 1.7 million entries for the relations of 100 MB of text).
 */
const sharedLabelMaps = new WeakMap<readonly string[], ReadonlyMap<string, number> | null>();

/**
 * Give `map` to every later `labelMapOf(ids)` without a cache of its own, instead of a map made from
 * `ids`: for a caller that holds one already (a graph's edge id → edge number, when `ids` are its edge
 * ids in edge order). The caller vouches that `map` holds exactly the ids, each to its position.
 */
export function shareLabelMap(ids: readonly string[], map: ReadonlyMap<string, number>): void {
  sharedLabelMaps.set(ids, map);
}

/**
 * id → label (its position in `ids`) when the ids are distinct, null when one repeats; kept per
 * `ids` array in `cache`, by default one shared by every caller (`ids` must not change afterwards).
 */
export function labelMapOf(
  ids: readonly string[],
  cache: WeakMap<readonly string[], ReadonlyMap<string, number> | null> = sharedLabelMaps,
): ReadonlyMap<string, number> | null {
  const cached = cache.get(ids);
  if (cached !== undefined) return cached;
  const map = new Map<string, number>();
  for (let label = 0; label < ids.length; label += 1) map.set(ids[label], label);
  const result = map.size === ids.length ? map : null;
  cache.set(ids, result);
  return result;
}
