import { pathId } from '@mosaic/spec';

// Identity and order of paths (ScoredPath of @mosaic/spec), shared by every stage that ranks or
// deduplicates paths.

/** Code-unit order of two strings (-1, 0, 1), as `<` compares them. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The nodes and edges interleaved (`n0|e0|n1|…`), forwards or reversed. */
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

/** Path id: node and edge ids interleaved, joined by '|' (`n0|e0|n1|e1|n2`); spec's, the helper traverser authors use. */
export { pathId } from '@mosaic/spec';

/** The id of the reversed path: `pathId` of the reversed node and edge lists. */
export function reversedPathId(nodes: readonly string[], edges: readonly string[]): string {
  return interleave(nodes, edges, true);
}

/**
 * Whether the forward id sorts before the reversed id, when the end node ids settle it: ids that
 * differ before either ends decide the string comparison there. Undefined when one is a prefix of
 * the other (or they are equal) and the whole ids must be compared.
 */
export function forwardFirst(first: string | undefined, last: string | undefined): boolean | undefined {
  if (first === undefined || last === undefined || first.startsWith(last) || last.startsWith(first)) return undefined;
  return first < last;
}

/** Direction-insensitive key: the smaller of the forward and reversed ids (built once when the end nodes decide). */
export function canonicalPathKey(nodes: readonly string[], edges: readonly string[]): string {
  const decided = forwardFirst(nodes[0], nodes[nodes.length - 1]);
  if (decided !== undefined) return interleave(nodes, edges, !decided);
  const forward = pathId(nodes, edges);
  const backward = interleave(nodes, edges, true);
  return forward <= backward ? forward : backward;
}

/** Best first: score descending, then id ascending (a total order on distinct ids). */
export function comparePaths(a: { score: number; id: string }, b: { score: number; id: string }): number {
  return b.score - a.score || compareStrings(a.id, b.id);
}
