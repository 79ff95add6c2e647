import type { ScoredPath } from '@mosaic/spec';

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The nodes and edges interleaved (n0|e0|n1|…), as `interleave` of the method defines it. */
function interleave(nodes: readonly string[], edges: readonly string[], reverse: boolean): string {
  const n = nodes.length;
  const e = edges.length;
  let out = '';
  for (let i = 0; i < n; i += 1) {
    if (i > 0) out += '|';
    out += reverse ? nodes[n - 1 - i] : nodes[i];
    if (i < e) out += `|${reverse ? edges[e - 1 - i] : edges[i]}`;
  }
  return out;
}

/**
 * Whether the forward interleaving sorts before the reversed one, when the end node ids settle
 * it: ids that differ before either ends decide the string comparison there. Undefined when one
 * is a prefix of the other (or they are equal) and the whole strings must be compared.
 */
function forwardFirst(first: string | undefined, last: string | undefined): boolean | undefined {
  if (first === undefined || last === undefined || first.startsWith(last) || last.startsWith(first)) return undefined;
  return first < last;
}

/** Direction-insensitive key: the smaller of the forward and reversed interleavings. */
export function pathKey(nodes: readonly string[], edges: readonly string[]): string {
  const decided = forwardFirst(nodes[0], nodes[nodes.length - 1]);
  if (decided !== undefined) return interleave(nodes, edges, !decided);
  const forward = interleave(nodes, edges, false);
  const backward = interleave(nodes, edges, true);
  return forward <= backward ? forward : backward;
}

/** Best first: score descending, then id ascending. */
export function comparePaths(a: ScoredPath, b: ScoredPath): number {
  return b.score - a.score || compareStrings(a.id, b.id);
}

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

/** The first `k` entries in rank order, without sorting them all. */
function topEntries(entries: readonly RankedEntry[], k: number): RankedEntry[] {
  if (k > 64 || k >= entries.length) return [...entries].sort(compareEntries).slice(0, k);
  const top: RankedEntry[] = [];
  if (k <= 0) return top;
  for (const entry of entries) {
    if (top.length >= k && compareEntries(entry, top[top.length - 1]) >= 0) continue;
    let low = 0;
    let high = top.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareEntries(top[middle], entry) <= 0) low = middle + 1;
      else high = middle;
    }
    top.splice(low, 0, entry);
    if (top.length > k) top.pop();
  }
  return top;
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
    const key = pathKey(path.nodes, path.edges);
    const existing = byKey.get(key);
    if (!existing || comparePaths(path, existing) < 0) byKey.set(key, path);
  }
  const entries: RankedEntry[] = [];
  for (const [key, path] of byKey) entries.push({ key, path, order: entries.length });
  let fullRanking: RankedEntry[] | undefined;
  return { entries, considered: topEntries(entries, filterWidth), ranked: () => (fullRanking ??= [...entries].sort(compareEntries)) };
}
