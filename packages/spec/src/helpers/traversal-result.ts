import type { Traversal } from '../stages.js';
import type { DepthTrace, StopReason, TraversalTrace } from '../trace.js';
import type { ScoredPath } from '../values.js';

export interface TraversalResultInput {
  /** Every distinct path scored; sorted here best first (score descending, then id). */
  paths: readonly ScoredPath[];
  /** Default: 'no-seeds' without paths, else 'exhausted'. */
  stopReason?: StopReason;
  /** Default: the number of paths. */
  pathsEvaluated?: number;
  /** Default 0. */
  roundTrips?: number;
  /** Default {}. */
  weights?: Record<string, number>;
  /** Per-depth traces; default: one per depth reached, its beam = that depth's paths, gains and thresholds 0. */
  depths?: DepthTrace[];
}

/**
 * A Traversal from a traverser's paths: sorts them best first and fills the trace (depths,
 * stopReason, depthReached, pathsEvaluated, weights, roundTrips) from what is given. The one
 * place a hand-written traverser needs to know about TraversalTrace.
 */
export function traversalResult(input: TraversalResultInput): Traversal {
  const paths = [...input.paths].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const depthReached = paths.reduce((deepest, path) => Math.max(deepest, path.depth), 0);
  const depths: DepthTrace[] =
    input.depths ??
    Array.from({ length: depthReached }, (_, index) => {
      const beam = paths.filter((path) => path.depth === index + 1);
      const nodesBefore = new Set(paths.filter((path) => path.depth <= index).flatMap((path) => path.nodes));
      const edgesBefore = new Set(paths.filter((path) => path.depth <= index).flatMap((path) => path.edges));
      return {
        depth: index + 1,
        candidates: beam.length,
        connectorCandidates: beam.filter((path) => path.origin === 'connector').length,
        beam,
        gain: 0,
        completeness: 0,
        newNodes: new Set(beam.flatMap((path) => path.nodes).filter((node) => !nodesBefore.has(node))).size,
        newEdges: new Set(beam.flatMap((path) => path.edges).filter((edge) => !edgesBefore.has(edge))).size,
        threshold: 0,
        stop: index + 1 === depthReached,
      };
    });
  const trace: TraversalTrace = {
    depths,
    stopReason: input.stopReason ?? (paths.length === 0 ? 'no-seeds' : 'exhausted'),
    depthReached,
    pathsEvaluated: input.pathsEvaluated ?? paths.length,
    weights: input.weights ?? {},
    roundTrips: input.roundTrips ?? 0,
  };
  return { paths, trace };
}
