import { throwIfAborted } from '@mosaic/spec';
import type { AbortOptions, AnalyzerGraphView, CorpusIndex, GraphStore, NodeNames, NumberedEdgeView } from '@mosaic/spec';
import { readNodeNames } from '@mosaic/stage-utils/internal';
import { NameTable } from './name-table.js';

/** Lower-case, trimmed, inner whitespace collapsed, surrounding punctuation dropped. */
export function normalizeMention(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

export interface IndexGraphViewOptions extends AbortOptions {
  index: CorpusIndex;
  /** Nodes fetched per getNodes call while building the name table (default 2,000). */
  batchSize?: number;
  /** Nodes a `connected` search may visit before it answers false (default 20,000). */
  maxVisited?: number;
}

/**
 * The neighbour node ids of each of `ids` (one per incident edge, as `neighbors` lists them): read
 * off the store's numbered edges when it has them, without building any edge (a hub has thousands),
 * else from one `neighbors` call.
 */
async function neighborNodes(graph: GraphStore, ids: readonly string[]): Promise<(id: string) => Iterable<string>> {
  const view = graph.numberedEdges;
  if (view) {
    return function* (id) {
      for (const edge of view.incidentEdges(id) ?? []) yield view.neighborNode(id, edge);
    };
  }
  const neighbors = await graph.neighbors(ids);
  return (id) => (neighbors.get(id) ?? []).map((neighbor) => neighbor.node);
}

/**
 * Whether nodes `a` and `b` (distinct) are at most `hops` (1 or 2) edges apart, read off a numbered
 * edge view: `b` a neighbour of `a`, or, within 2, a neighbour they share. The answer of the
 * breadth-first search below (whose one step for 2 hops finds exactly these), without its maps and
 * frontiers: the end with fewer edges is read into a set, and the other end's neighbours are looked
 * up in it, once each. The targets a question names are often hubs of a large corpus, with tens of
 * thousands of relations each.
 */
function withinTwoHops(view: NumberedEdgeView, a: string, b: string, hops: 1 | 2): boolean {
  const edgesA = view.incidentEdges(a);
  const edgesB = view.incidentEdges(b);
  if (!edgesA || !edgesB) return false;
  const [small, smallEdges, large, largeEdges] = edgesA.length <= edgesB.length ? [a, edgesA, b, edgesB] : [b, edgesB, a, edgesA];
  if (hops === 1) {
    for (let i = 0; i < smallEdges.length; i += 1) if (view.neighborNode(small, smallEdges[i]) === large) return true;
    return false;
  }
  // The smaller end and its neighbours: a neighbour of the larger end among them is the smaller end
  // itself (one hop) or a neighbour of both (two).
  const near = new Set<string>([small]);
  for (let i = 0; i < smallEdges.length; i += 1) near.add(view.neighborNode(small, smallEdges[i]));
  for (let i = 0; i < largeEdges.length; i += 1) if (near.has(view.neighborNode(large, largeEdges[i]))) return true;
  return false;
}

/** A node's name and aliases, normalised (`normalizeMention`; empty ones included). */
function normalizedNames(node: NodeNames): string[] {
  return [node.name, ...node.aliases].map(normalizeMention);
}

/** The analyzer's view of an index's graph, which can make its table of entity names before the first lookup. */
export interface IndexGraphView extends AnalyzerGraphView {
  /**
   * Make now the table of entity names `lookup` reads (made on the first lookup otherwise: seconds for
   * 500,000 entities). A failure is thrown and the next call tries again.
   */
  prepare(): Promise<void>;
}

/**
 * The graph facts an analyzer may consult, read from a corpus index: `lookup` resolves mentions by exact
 * (normalised) name or alias, `connected` is a bidirectional breadth-first search over the neighbours (`neighborNodes`)
 * (one batch for both ends per step: a 2-hop check is one call), or for 1 or 2 hops over numbered edges
 * `withinTwoHops`, the same answer without the search. The name table (`NameTable`: hashes of the
 * normalised names, no strings) is built on first use from `index.entityIds` and cached in this view; when
 * two nodes share a name, the first in `entityIds` order wins.
 */
export function createIndexGraphView(options: IndexGraphViewOptions): IndexGraphView {
  const { index } = options;
  const batchSize = options.batchSize ?? 2000;
  const maxVisited = options.maxVisited ?? 20000;
  let names: Promise<NameTable> | undefined;
  const nameTable = async (): Promise<NameTable> => {
    const table = new NameTable(index.entityIds.length);
    for (let i = 0; i < index.entityIds.length; i += batchSize) {
      throwIfAborted(options.abortSignal, 'analyze');
      const batch = index.entityIds.slice(i, i + batchSize);
      // In input order, unknown ids left out: each node's label is its id's position in the batch.
      let at = 0;
      for (const node of await readNodeNames(index.graph, batch)) {
        while (at < batch.length && batch[at] !== node.id) at += 1;
        if (at === batch.length) break;
        for (const key of normalizedNames(node)) if (key.length > 0) table.add(key, i + at);
      }
    }
    return table;
  };
  /** The name table, made once; a failed making is forgotten, so that the next call tries again. */
  const namesTable = async (): Promise<NameTable> => {
    names ??= nameTable();
    try {
      return await names;
    } catch (error) {
      names = undefined;
      throw error;
    }
  };
  return {
    async prepare() {
      await namesTable();
    },
    async lookup(mentions) {
      const table = await namesTable();
      // The table keeps hashes, not names: each entity found is checked to have a name normalised to the mention's.
      const candidates = new Map<string, { key: string; id: string }>();
      for (const mention of mentions) {
        const key = normalizeMention(mention);
        const label = key.length > 0 ? table.find(key) : -1;
        if (label >= 0) candidates.set(mention, { key, id: index.entityIds[label] });
      }
      const found = new Map<string, string>();
      if (candidates.size === 0) return found;
      const ids = [...new Set([...candidates.values()].map((candidate) => candidate.id))];
      const keysOf = new Map((await readNodeNames(index.graph, ids)).map((node) => [node.id, new Set(normalizedNames(node))]));
      for (const [mention, { key, id }] of candidates) if (keysOf.get(id)?.has(key)) found.set(mention, id);
      return found;
    },
    async connected(a, b, hops) {
      if (a === b) return true;
      const view = index.graph.numberedEdges;
      if (view && (hops === 1 || hops === 2)) return withinTwoHops(view, a, b, hops);
      // Bidirectional breadth-first search: each graph call expands the frontiers of both ends
      // together, so paths of up to `hops` edges are found in ⌈hops / 2⌉ calls (one for 2 hops).
      const reached = [new Map([[a, 0]]), new Map([[b, 0]])];
      const frontiers = [[a], [b]];
      let depths = [0, 0];
      // An exhausted side means its whole component was seen without meeting the other: no path.
      while (depths[0] + depths[1] < hops && frontiers[0].length > 0 && frontiers[1].length > 0) {
        throwIfAborted(options.abortSignal, 'analyze');
        // Expand the side(s) that may still grow without overshooting `hops`.
        const sides = depths[0] + depths[1] + 2 <= hops ? [0, 1] : [depths[0] <= depths[1] ? 0 : 1];
        const neighborsOf = await neighborNodes(
          index.graph,
          sides.flatMap((side) => frontiers[side]),
        );
        for (const side of sides) {
          const own = reached[side];
          const other = reached[1 - side];
          const next: string[] = [];
          for (const id of frontiers[side]) {
            for (const node of neighborsOf(id)) {
              if (other.has(node) && depths[side] + 1 + other.get(node)! <= hops) return true;
              if (!own.has(node)) {
                own.set(node, depths[side] + 1);
                next.push(node);
              }
            }
          }
          frontiers[side] = next;
        }
        depths = depths.map((depth, side) => (sides.includes(side) ? depth + 1 : depth));
        if (reached[0].size + reached[1].size > maxVisited) return false;
      }
      return false;
    },
  };
}
