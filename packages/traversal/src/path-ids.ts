import { pathId } from '@mosaic/spec';
import type { ScoredPath } from '@mosaic/spec';

/** Code-unit order of two strings (the order `<` gives), as a comparator. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Path id (node and edge ids interleaved, joined by '|'): spec's, where the helpers for traverser authors live. */
export { pathId } from '@mosaic/spec';

/** The id of the reversed path: pathId of the reversed node and edge lists. */
export function reversedPathId(nodes: readonly string[], edges: readonly string[]): string {
  const n = nodes.length;
  const e = edges.length;
  let out = '';
  for (let i = 0; i < n; i += 1) {
    if (i > 0) out += '|';
    out += nodes[n - 1 - i];
    if (i < e) out += `|${edges[e - 1 - i]}`;
  }
  return out;
}

/**
 * Whether the forward id sorts before the reversed id, when the end node ids settle it: ids that
 * differ before either ends decide the string comparison there. Undefined when one is a prefix
 * of the other (or they are equal) and the whole ids must be compared.
 */
export function forwardFirst(first: string | undefined, last: string | undefined): boolean | undefined {
  if (first === undefined || last === undefined || first.startsWith(last) || last.startsWith(first)) return undefined;
  return first < last;
}

/** The smaller of a path's forward id and reversed id (given both, and its end node ids). */
export function smallerId(forward: string, backward: string, first: string | undefined, last: string | undefined): string {
  const decided = forwardFirst(first, last);
  if (decided !== undefined) return decided ? forward : backward;
  return forward <= backward ? forward : backward;
}

/** Direction-insensitive key: the smaller of the forward and reversed ids. */
export function canonicalPathKey(nodes: readonly string[], edges: readonly string[]): string {
  const forward = pathId(nodes, edges);
  const backward = reversedPathId(nodes, edges);
  return forward <= backward ? forward : backward;
}

/** Best first: score descending, then id ascending. */
export function comparePaths(a: ScoredPath, b: ScoredPath): number {
  return b.score - a.score || compareStrings(a.id, b.id);
}

/**
 * The first `k` items in `compare` order — the same items, in the same order, as sorting all
 * of them would give when `compare` is a total order — without sorting them all when k is small.
 */
export function firstInOrder<T>(items: readonly T[], k: number, compare: (a: T, b: T) => number): T[] {
  if (k <= 0) return [];
  if (k >= items.length || k > 64) return [...items].sort(compare).slice(0, k);
  const top: T[] = [];
  for (const item of items) {
    if (top.length >= k && compare(item, top[top.length - 1]) >= 0) continue;
    let low = 0;
    let high = top.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(top[middle], item) <= 0) low = middle + 1;
      else high = middle;
    }
    top.splice(low, 0, item);
    if (top.length > k) top.pop();
  }
  return top;
}
