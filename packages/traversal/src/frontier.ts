import { InvalidArgumentError, throwIfAborted, type Neighbor, type NumberedEdgeView } from '@mosaic/spec';
import { compareStrings, insertPosition } from '@mosaic/stage-utils/internal';
import type { FeatureCache } from './path-features.js';
import { fetchNodes, type TraversalState } from './traversal-state.js';

/**
 * One depth's graph access: the neighbours of every frontier node (beam ends and connector region
 * frontiers) in one `neighbors` call; of a node with more than `settings.maxNeighborsPerNode`, only
 * that many are kept (see `keepBest`) and `cut` counts the others (such a node is read by edge number
 * instead, and left out of the call, when the store numbers its edges: `bestNeighborsOfEdges`); then the kept neighbours' nodes
 * seen for the first time in one `getNodeSummaries` (else `getNodes`) call (a hub's other neighbours
 * are never fetched).
 * Undefined when the frontier is empty. Neighbours whose node the graph did not return are dropped.
 */
export async function fetchFrontier(
  state: TraversalState,
  abortSignal: AbortSignal | undefined,
): Promise<{ neighbors: ReadonlyMap<string, readonly Neighbor[]>; cut: number; hubScanCut: number } | undefined> {
  const frontierSet = new Set<string>();
  for (const path of state.beam) frontierSet.add(path.nodes[path.nodes.length - 1]);
  for (const region of state.regions) for (const node of region.frontier) frontierSet.add(node);
  if (frontierSet.size === 0) return undefined;
  const ids = [...frontierSet].sort(compareStrings);
  const cap = state.settings.maxNeighborsPerNode;
  const scan = Math.max(state.settings.maxHubScan, cap);
  // A store that numbers its edges gives a node with more than `cap` relations as edge numbers: its
  // relations are ranked from numbers and only the kept ones built (see `bestNeighborsOfEdges`).
  const view = state.graph.numberedEdges;
  const numbered = new Map<string, Uint32Array>();
  if (view && state.features.canBoundEdges()) {
    for (const id of ids) {
      const edges = view.incidentEdges(id);
      if (edges && edges.length > cap) numbered.set(id, edges);
    }
  }
  const neighbors = await state.graph.neighbors(numbered.size === 0 ? ids : ids.filter((id) => !numbered.has(id)));
  state.roundTrips += 1;
  state.graphCalls += 1;
  throwIfAborted(abortSignal, 'traversal');
  let cut = 0;
  let hubScanCut = 0;
  const chosen = new Map<string, readonly Neighbor[]>();
  for (const node of ids) {
    const edges = numbered.get(node);
    const length = edges ? edges.length : neighbors.get(node)?.length;
    if (length === undefined) continue;
    if (length > cap) {
      chosen.set(
        node,
        keepBest(state, node, () =>
          edges
            ? bestNeighborsOfEdges(
                state.features,
                { view: view!, edgeCount: state.graph.edgeCount, node, edges },
                cap,
                state.settings.maxHubScan,
                state.scanArrays,
              )
            : bestNeighbors(state.features, neighbors.get(node)!, cap, state.settings.maxHubScan, state.scanArrays),
        ),
      );
      cut += length - cap;
      if (length > scan) hubScanCut += length - scan;
    } else {
      chosen.set(node, neighbors.get(node)!);
    }
  }
  const missing = new Set<string>();
  for (const list of chosen.values()) {
    for (const neighbor of list) if (!state.entities.has(neighbor.node)) missing.add(neighbor.node);
  }
  if (missing.size > 0) {
    for (const node of await fetchNodes(state.graph, [...missing].sort(compareStrings))) state.entities.set(node.id, node);
    state.graphCalls += 1;
    throwIfAborted(abortSignal, 'traversal');
  }
  const usable = new Map<string, readonly Neighbor[]>();
  for (const [node, list] of chosen) {
    let kept: Neighbor[] | undefined;
    for (let i = 0; i < list.length; i += 1) {
      if (state.entities.has(list[i].node)) {
        kept?.push(list[i]);
      } else if (!kept) {
        kept = list.slice(0, i);
      }
    }
    usable.set(node, kept ?? list);
  }
  return { neighbors: usable, cut, hubScanCut };
}

/**
 * The `cap` neighbours with the highest r(e) (the question–relation score of the path features,
 * computed once per relation and question), ties by position; returned in their original (edge id)
 * order, so expansion order is unchanged for the neighbours kept (`choose`: `bestNeighbors` of the
 * listed node, or `bestNeighborsOfEdges` of its edge numbers). The choice depends only on the
 * node's relations and the question, so it is kept per node for the traversal
 * (`state.keptNeighbors`): a hub on the frontier at several depths is ranked once.
 */
function keepBest(state: TraversalState, node: string, choose: () => Neighbor[]): readonly Neighbor[] {
  const known = state.keptNeighbors.get(node);
  if (known) return known;
  const kept = choose();
  state.keptNeighbors.set(node, kept);
  return kept;
}

/**
 * The `cap` neighbours of `list` with the highest `relationScore` (ties: earlier position first),
 * in list order: exactly the ones scoring every relation would choose, with fewer exact scores. A
 * hub has thousands of relations, and the dense part of r(e) is most of its cost, so every relation
 * first gets `relationScoreBound` (≥ its score, without the dense part). Relations are then scored
 * in the order of their bounds, highest first, keeping the `cap` best scores so far; once `cap` are
 * kept, the first relation whose bound is below the lowest of them ends the scan: it and every
 * relation after it (bounds no higher) score below `cap` relations already kept, so none of them can
 * be among the best (a bound equal to it is still scored: a tie may win by position).
 *
 * `scan` bounds the exact scores of a hub: of a node with more than `scan` relations, only the
 * `scan` with the highest bounds (ties: earlier position) can be scored and kept; the others are
 * left out unscored (`BeamDepthTrace.hubScanCut` counts them). Without it a hub whose bounds all
 * reach the threshold (a question with few lexical matches among its relations) is scored in full,
 * which grows with the corpus: the biggest hub of an offline graph gains relations with every
 * document that names it. Default: no bound.
 *
 * `arrays`: where the scan keeps its bounds, scores and heap (see `HubScanArrays`); by default, new
 * ones for the call.
 */
export function bestNeighbors(
  features: Pick<FeatureCache, 'relationScore' | 'relationScoreBound'> & Partial<Pick<FeatureCache, 'relationScoreBounds'>>,
  list: readonly Neighbor[],
  cap: number,
  scan = Number.POSITIVE_INFINITY,
  arrays = new HubScanArrays(),
): Neighbor[] {
  const n = list.length;
  if (n <= cap) return [...list];
  const bound = arrays.bounds(n);
  if (features.relationScoreBounds) features.relationScoreBounds(list, bound);
  else for (let i = 0; i < n; i += 1) bound[i] = features.relationScoreBound(list[i].edge);
  return bestPositions(
    bound,
    cap,
    scan,
    (a, b) => a < b,
    (i) => features.relationScore(list[i].edge),
    arrays,
  ).map((position) => list[position]);
}

/**
 * `bestNeighbors` of a node whose relations are given as edge numbers of a store's numbered view
 * (`edges`, in any order): the same neighbours in the same order as `bestNeighbors` of the node's
 * `neighbors` list (sorted by edge id), for `cap` < the number of edges. Bounds come from numbers
 * (`FeatureCache.relationScoreBoundsOfEdges`), ties go to the lower edge id as in the sorted list,
 * exact scores come from numbers as well (`FeatureCache.relationScoresOfEdges`), and only the kept
 * relations (and any relation numbers cannot score) are built (`view.neighbor`). Throws when the
 * features cannot bound relations by number (check `canBoundEdges` first).
 */
export function bestNeighborsOfEdges(
  features: Pick<FeatureCache, 'relationScore' | 'relationScoreBoundsOfEdges' | 'relationScoresOfEdges'>,
  of: { view: NumberedEdgeView; edgeCount: number; node: string; edges: Uint32Array },
  cap: number,
  scan = Number.POSITIVE_INFINITY,
  arrays = new HubScanArrays(),
): Neighbor[] {
  const { view, node, edges } = of;
  const n = edges.length;
  const bound = arrays.bounds(n);
  if (!features.relationScoreBoundsOfEdges(view, of.edgeCount, edges, bound, node))
    throw new InvalidArgumentError({ argument: 'features', message: 'cannot bound relations by edge number (check canBoundEdges first)' });
  // Position in the node's neighbour list: by edge id, then (a relation listed twice, a loop) as listed.
  const before = (a: number, b: number) => {
    const idA = view.edgeId(edges[a]);
    const idB = view.edgeId(edges[b]);
    return idA < idB || (idA === idB && a < b);
  };
  // Exact scores from numbers too (`relationScoresOfEdges`): only the kept relations are built.
  const exact = features.relationScoresOfEdges(view, of.edgeCount, edges, node);
  const built = new Map<number, Neighbor>();
  const scoreOf = (i: number) => {
    const score = exact?.(i);
    if (score !== undefined) return score;
    const neighbor = view.neighbor(node, edges[i]);
    built.set(i, neighbor);
    return features.relationScore(neighbor.edge);
  };
  return bestPositions(bound, cap, scan, before, scoreOf, arrays).map((position) => built.get(position) ?? view.neighbor(node, edges[position]));
}

/**
 * The scan `bestNeighbors` describes, over positions 0 … n − 1 with upper bounds `bound`: positions
 * are scored (`scoreOf`) in the order of their bounds, ties in `before` order (a position in the
 * node's neighbour list), the `cap` best scores are kept, and the first bound below the lowest of
 * them ends the scan (at most `scan` positions are scored). The kept positions, in `before` order.
 */
function bestPositions(
  bound: Float64Array,
  cap: number,
  scan: number,
  before: (a: number, b: number) => boolean,
  scoreOf: (position: number) => number,
  arrays: HubScanArrays,
): number[] {
  const n = bound.length;
  // Read only at positions scored (written first), so a lent array needs no clearing.
  const score = arrays.scores(n);
  const byScore = (a: number, b: number) => score[a] > score[b] || (score[a] === score[b] && before(a, b));
  // The `cap` best scored so far, in byScore order.
  const best: number[] = [];
  const below = (level: number) => best.length === cap && level < score[best[cap - 1]];
  for (const i of byBoundThenId(bound, Math.min(n, Math.max(scan, cap)), before, below, arrays)) {
    if (below(bound[i])) break;
    score[i] = scoreOf(i);
    if (!Number.isNaN(score[i])) insertPosition(best, i, cap, byScore);
  }
  return best.sort(comparing(before));
}

/** A sort comparator from a strict order. */
function comparing(before: (a: number, b: number) => boolean): (a: number, b: number) => number {
  return (a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0);
}

/**
 * The first `k` positions of `bound` by bound, highest first, ties in `before` order: the order of
 * `firstPositions(n, k, (a, b) => bound[a] > bound[b] || (bound[a] === bound[b] && before(a, b)))`,
 * given lazily, and ended early when `stop(level)` is true of the next bound level (no position of
 * it or below is given then). Positions are kept in a heap by bound (numbers); a run of equal bounds
 * is taken out and put in `before` order only when the caller reaches it, so the thousands of a
 * hub's relations that tie at a low bound are neither sorted nor ordered by id unless they are read.
 */
export function* byBoundThenId(
  bound: Float64Array,
  k: number,
  before: (a: number, b: number) => boolean,
  stop: (level: number) => boolean = () => false,
  arrays = new HubScanArrays(),
): Generator<number> {
  const n = bound.length;
  const heap = arrays.heap(n);
  for (let i = 0; i < n; i += 1) heap[i] = i;
  // A max-heap: higher bound first, then lower position.
  const higher = (a: number, b: number) => bound[a] > bound[b] || (bound[a] === bound[b] && a < b);
  let size = n;
  const siftDown = (from: number) => {
    let at = from;
    const item = heap[at];
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && higher(heap[child + 1], heap[child])) child += 1;
      if (!higher(heap[child], item)) break;
      heap[at] = heap[child];
      at = child;
    }
    heap[at] = item;
  };
  for (let at = (size >>> 1) - 1; at >= 0; at -= 1) siftDown(at);
  const pop = () => {
    const top = heap[0];
    size -= 1;
    if (size > 0) {
      heap[0] = heap[size];
      siftDown(0);
    }
    return top;
  };
  let given = 0;
  while (given < k && size > 0) {
    const level = bound[heap[0]];
    if (stop(level)) return;
    const run = [pop()];
    while (size > 0 && bound[heap[0]] === level) run.push(pop());
    if (run.length > 1) run.sort(comparing(before));
    for (const position of run) {
      if (given >= k) return;
      given += 1;
      yield position;
    }
  }
}

/**
 * The arrays a hub scan (`bestNeighbors`, `bestNeighborsOfEdges`, `byBoundThenId`) works in: its
 * relations' bounds and exact scores (Float64Array) and its heap of positions (Uint32Array), each
 * grown when a hub needs more and kept, so that one traverser's scans reuse them question after
 * question. A question that reaches dozens of hubs of tens of thousands of relations would
 * otherwise allocate megabytes of typed arrays per depth; V8 counts their memory as external, and
 * once that has grown 64 MB since the last full collection it starts marking the whole heap (at
 * 100 MB of text, a loaded index's heap is about 700 MB), work done in part inside allocations.
 * A scan borrows the arrays and is done with them before it returns (it runs without awaiting), so
 * questions in flight at once can share them. The arrays are handed out as views of the first `n`
 * entries, with whatever an earlier scan left in them.
 */
export class HubScanArrays {
  #bounds = new Float64Array(0);
  #scores = new Float64Array(0);
  #heap = new Uint32Array(0);

  /** The first `n` entries of the bounds array. */
  bounds(n: number): Float64Array {
    return (this.#bounds = holding(this.#bounds, n, (length) => new Float64Array(length))).subarray(0, n);
  }

  /** The first `n` entries of the scores array. */
  scores(n: number): Float64Array {
    return (this.#scores = holding(this.#scores, n, (length) => new Float64Array(length))).subarray(0, n);
  }

  /** The first `n` entries of the heap array. */
  heap(n: number): Uint32Array {
    return (this.#heap = holding(this.#heap, n, (length) => new Uint32Array(length))).subarray(0, n);
  }

  /** Entries held over the three arrays. */
  get size(): number {
    return this.#bounds.length + this.#scores.length + this.#heap.length;
  }
}

/** `array` when it holds `n` entries, else a new one of at least `n` and double its length (from 1,024): a few growths cover the largest hub. */
function holding<T extends Float64Array | Uint32Array>(array: T, n: number, make: (length: number) => T): T {
  return array.length >= n ? array : make(Math.max(n, 2 * array.length, 1024));
}
