import type { ScoredPath } from '@mosaic/spec';
import { canonicalPathKey, comparePaths, firstInOrder } from '@mosaic/stage-utils/internal';

/** A deduplicated path with its key and its position among the deduplicated paths. */
export interface RankedEntry {
  key: string;
  path: ScoredPath;
  order: number;
}

/** Rank order: comparePaths, then first seen (a stable sort's order). */
function compareEntries(a: RankedEntry, b: RankedEntry): number {
  return comparePaths(a.path, b.path) || a.order - b.order;
}

/** Step 1's result: the deduplicated paths, the filter's candidates in rank order, and the full ranking on demand. */
export interface PathRanking {
  /** Every deduplicated path, in first-seen order. */
  entries: RankedEntry[];
  /** The first `filterWidth` in rank order. */
  considered: RankedEntry[];
  /** All entries in rank order (built on first call). */
  ranked(): RankedEntry[];
}

/**
 * Step 1 (report §5.6): deduplicate paths — the same node/edge sequence in either direction keeps
 * its best-scoring version; single-node paths are dropped — and rank them. Only the filter's
 * candidates are ranked up front (a bounded selection); the full ranking is built only when the
 * floor or the connector reservation looks beyond them.
 */
export function rankPaths(paths: readonly ScoredPath[], filterWidth: number): PathRanking {
  const byKey = new Map<string, ScoredPath>();
  for (const path of paths) {
    if (path.edges.length === 0) continue;
    const key = canonicalPathKey(path.nodes, path.edges);
    const existing = byKey.get(key);
    if (!existing || comparePaths(path, existing) < 0) byKey.set(key, path);
  }
  const entries: RankedEntry[] = [];
  for (const [key, path] of byKey) entries.push({ key, path, order: entries.length });
  let fullRanking: RankedEntry[] | undefined;
  return { entries, considered: firstInOrder(entries, filterWidth, compareEntries), ranked: () => (fullRanking ??= [...entries].sort(compareEntries)) };
}
