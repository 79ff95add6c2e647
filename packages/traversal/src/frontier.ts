import { throwIfAborted, type Neighbor } from '@mosaic/spec';
import { compareStrings } from '@mosaic/stage-utils';
import type { TraversalState } from './traversal-state.js';

/**
 * One depth's graph access: the neighbours of every frontier node (beam ends and connector region
 * frontiers) in one `neighbors` call, then the nodes seen for the first time in one `getNodes`
 * call. Undefined when the frontier is empty. Neighbours whose node the graph did not return are
 * dropped.
 */
export async function fetchFrontier(
  state: TraversalState,
  abortSignal: AbortSignal | undefined,
): Promise<ReadonlyMap<string, readonly Neighbor[]> | undefined> {
  const frontierSet = new Set<string>();
  for (const path of state.beam) frontierSet.add(path.nodes[path.nodes.length - 1]);
  for (const region of state.regions) for (const node of region.frontier) frontierSet.add(node);
  if (frontierSet.size === 0) return undefined;
  const neighbors = await state.graph.neighbors([...frontierSet].sort(compareStrings));
  state.roundTrips += 1;
  state.graphCalls += 1;
  throwIfAborted(abortSignal, 'traversal');
  const missing = new Set<string>();
  for (const list of neighbors.values()) {
    for (const neighbor of list) if (!state.entities.has(neighbor.node)) missing.add(neighbor.node);
  }
  if (missing.size > 0) {
    for (const node of await state.graph.getNodes([...missing].sort(compareStrings))) state.entities.set(node.id, node);
    state.graphCalls += 1;
    throwIfAborted(abortSignal, 'traversal');
  }
  const usable = new Map<string, readonly Neighbor[]>();
  for (const [node, list] of neighbors) {
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
  return usable;
}
