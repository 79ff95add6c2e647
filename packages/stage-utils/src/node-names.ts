import type { GraphStore, NodeNames } from '@mosaic/spec';

/**
 * Id, name and aliases of the nodes `ids` names, in input order (unknown ids left out):
 * `getNodeNames` when the store has it, else whole nodes (a hub's node holds every chunk and span
 * that mentions it, which a caller of this never reads).
 */
export function readNodeNames(graph: GraphStore, ids: readonly string[]): Promise<NodeNames[]> {
  return graph.getNodeNames ? graph.getNodeNames(ids) : graph.getNodes(ids);
}
