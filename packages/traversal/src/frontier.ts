import { throwIfAborted, type Neighbor } from '@mosaic/spec';
import { compareStrings, firstPositions, insertPosition } from '@mosaic/stage-utils/internal';
import type { FeatureCache } from './path-features.js';
import { fetchNodes, type TraversalState } from './traversal-state.js';

/**
 * One depth's graph access: the neighbours of every frontier node (beam ends and connector region
 * frontiers) in one `neighbors` call; of a node with more than `settings.maxNeighborsPerNode`, only
 * that many are kept (see `keepBest`) and `cut` counts the others; then the kept neighbours' nodes
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
  const neighbors = await state.graph.neighbors([...frontierSet].sort(compareStrings));
  state.roundTrips += 1;
  state.graphCalls += 1;
  throwIfAborted(abortSignal, 'traversal');
  const cap = state.settings.maxNeighborsPerNode;
  const scan = Math.max(state.settings.maxHubScan, cap);
  let cut = 0;
  let hubScanCut = 0;
  const chosen = new Map<string, readonly Neighbor[]>();
  for (const [node, list] of neighbors) {
    if (list.length > cap) {
      chosen.set(node, keepBest(state, node, list, cap));
      cut += list.length - cap;
      if (list.length > scan) hubScanCut += list.length - scan;
    } else {
      chosen.set(node, list);
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
 * order, so expansion order is unchanged for the neighbours kept. The choice depends only on the
 * node's relations and the question, so it is kept per node for the traversal
 * (`state.keptNeighbors`): a hub on the frontier at several depths is ranked once.
 */
function keepBest(state: TraversalState, node: string, list: readonly Neighbor[], cap: number): readonly Neighbor[] {
  const known = state.keptNeighbors.get(node);
  if (known) return known;
  const kept = bestNeighbors(state.features, list, cap, state.settings.maxHubScan);
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
 */
export function bestNeighbors(
  features: Pick<FeatureCache, 'relationScore' | 'relationScoreBound'> & Partial<Pick<FeatureCache, 'relationScoreBounds'>>,
  list: readonly Neighbor[],
  cap: number,
  scan = Number.POSITIVE_INFINITY,
): Neighbor[] {
  const n = list.length;
  if (n <= cap) return [...list];
  const bound = new Float64Array(n);
  if (features.relationScoreBounds) features.relationScoreBounds(list, bound);
  else for (let i = 0; i < n; i += 1) bound[i] = features.relationScoreBound(list[i].edge);
  const byBound = (a: number, b: number) => bound[a] > bound[b] || (bound[a] === bound[b] && a < b);
  const score = new Float64Array(n);
  const byScore = (a: number, b: number) => score[a] > score[b] || (score[a] === score[b] && a < b);
  // The `cap` best scored so far, in byScore order.
  const best: number[] = [];
  for (const i of firstPositions(n, Math.min(n, Math.max(scan, cap)), byBound)) {
    if (best.length === cap && bound[i] < score[best[cap - 1]]) break;
    score[i] = features.relationScore(list[i].edge);
    if (!Number.isNaN(score[i])) insertPosition(best, i, cap, byScore);
  }
  return best.sort((a, b) => a - b).map((position) => list[position]);
}
