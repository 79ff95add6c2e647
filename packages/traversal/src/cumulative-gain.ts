import type { RelationEdge, StopReason } from '@mosaic/spec';
import { entityOf, hopsOfCandidate, type Candidate, type TraversalState } from './traversal-state.js';

/** Equation (9) at one depth: the kept beam's novelty and the cumulative completeness. */
export interface DepthGain {
  /** g_d = (|new nodes| + |new edges|) / max(1, |accumulated nodes| + |accumulated edges|). */
  gain: number;
  newNodes: number;
  newEdges: number;
  /** c_d after adding the new nodes and edges. */
  completeness: number;
}

/**
 * Equation (9): the novelty g_d of the kept beam against everything accumulated before this depth,
 * then the accumulation of its new nodes and edges into the completeness tracker (c_d).
 */
export function cumulativeGain(state: TraversalState, kept: readonly Candidate[]): DepthGain {
  const { accumulatedNodes, accumulatedEdges, tracker, features } = state;
  const newNodes = new Set<string>();
  const newEdges = new Set<string>();
  const keptRelations = new Map<string, RelationEdge>();
  for (const candidate of kept) {
    const path = candidate.path;
    for (const node of path.nodes) if (!accumulatedNodes.has(node)) newNodes.add(node);
    for (const edge of path.edges) if (!accumulatedEdges.has(edge)) newEdges.add(edge);
    for (let hop = hopsOfCandidate(candidate); hop; hop = hop.parent) keptRelations.set(hop.relation.id, hop.relation);
  }
  const gain = (newNodes.size + newEdges.size) / Math.max(1, accumulatedNodes.size + accumulatedEdges.size);
  for (const node of newNodes) {
    accumulatedNodes.add(node);
    tracker.addNode(features.node(entityOf(state, node)));
  }
  for (const edge of newEdges) {
    accumulatedEdges.add(edge);
    const relation = keptRelations.get(edge)!;
    tracker.addEdge(features.edge(relation), relation.source, relation.target);
  }
  return { gain, newNodes: newNodes.size, newEdges: newEdges.size, completeness: tracker.value() };
}

/** Whether the search ends after a depth, and why. */
export interface StopDecision {
  stop: boolean;
  /** Set when `stop`. */
  reason?: StopReason;
}

/**
 * The stopping rule (report §5.5): stop on low gain — from depth 2, when g_d ≤ ε of the policy's
 * regime and c_d ≥ the completeness threshold, unless the policy fixes the depth — at the depth
 * cap, or when nothing is left to grow.
 */
export function stopDecision(state: TraversalState, step: { depth: number; gain: DepthGain; keptCount: number; grownCount: number }): StopDecision {
  const { policy, threshold, completenessThreshold, maxDepth } = state.settings;
  const lowGain = !policy.fixedDepth && step.depth >= 2 && step.gain.gain <= threshold && step.gain.completeness >= completenessThreshold;
  const atCap = step.depth >= maxDepth;
  const exhausted = step.grownCount === 0 && state.regions.every((region) => region.frontier.length === 0);
  if (!(lowGain || atCap || exhausted)) return { stop: false };
  const reason: StopReason = exhausted && step.keptCount === 0 ? 'exhausted' : lowGain ? 'low-gain' : atCap ? 'max-depth' : 'exhausted';
  return { stop: true, reason };
}
