import type { GraphStore, Neighbor, NodeSummary, Policy, RelationEdge, ScoredPath } from '@mosaic/spec';
import type { CompletenessTracker } from './completeness-tracker.js';
import type { HubScanArrays } from './frontier.js';
import type { FeatureCache } from './path-features.js';
import type { PathTermState, PathWeights } from './path-scorer.js';
import type { QuestionSignals } from './question-signals.js';
import type { BeamDepthTrace } from './traversal-trace.js';

/** A path of the beam, grown one edge per depth. */
export interface PartialPath {
  nodes: string[];
  edges: string[];
  seed: string;
  /** pathId(nodes, edges), and the id of the reversed path. */
  id: string;
  back: string;
  /** Running term sums (extended by one hop per expansion). */
  state: PathTermState;
  /** The relations of `edges`, last first. */
  hops: Hop | undefined;
}

/** A path's relations as a chain, last hop first. */
export interface Hop {
  relation: RelationEdge;
  parent: Hop | undefined;
}

/**
 * A scored candidate with its canonical key and reversed id. A beam candidate records the path
 * it grew from and the relation it grew by (its relations and term state follow from them, and
 * are only built for the few paths grown further); a connector candidate records its relations.
 */
export interface Candidate {
  path: ScoredPath;
  key: string;
  /** The reversed id (beam candidates: built when needed, from `from.back`). */
  back: string | undefined;
  from: PartialPath | undefined;
  relation: RelationEdge | undefined;
  hops: Hop | undefined;
}

/** The relations of a candidate, last first. */
export function hopsOfCandidate(candidate: Candidate): Hop | undefined {
  return candidate.from ? { relation: candidate.relation!, parent: candidate.from.hops } : candidate.hops;
}

/** A relation list as a hop chain (last hop first). */
export function hopsOf(relations: readonly RelationEdge[]): Hop | undefined {
  let hops: Hop | undefined;
  for (const relation of relations) hops = { relation, parent: hops };
  return hops;
}

/** A distinct path (by canonical key): its best version over all depths and its version in this depth's pool. */
export interface ScoredEntry {
  best: ScoredPath;
  pooled: Candidate;
  /** The depth whose pool `pooled` belongs to. */
  depth: number;
}

/** A region's path from its seed to a node, as parent links (node and edge lists are built only for joins). */
export interface HalfPath {
  node: string;
  relation: RelationEdge | undefined;
  parent: HalfPath | undefined;
  /** Edges from the seed. */
  length: number;
}

/** One seed's region of the connector view. */
export interface Region {
  seed: string;
  /** `target:<i>` for a seed of (or matching) target i, else `seed:<id>`; regions of one group never join. */
  group: string;
  reached: Map<string, HalfPath>;
  /** Nodes first reached at the last depth. */
  fresh: string[];
  /** Nodes whose neighbours are fetched at the next depth. */
  frontier: string[];
}

/** The settings of one traversal, fixed before the first depth. */
export interface TraversalSettings {
  policy: Policy;
  maxDepth: number;
  width: number;
  /** ε of the policy's stop regime. */
  threshold: number;
  completenessThreshold: number;
  weights: PathWeights;
  refillBeam: boolean;
  maxCandidatesPerPath: number | undefined;
  connectorFrontier: number;
  maxConnectorCandidates: number;
  /** Neighbours of a frontier node kept for expansion, best r(e) first (Infinity: all). */
  maxNeighborsPerNode: number;
  /** Relations of a hub that may be scored exactly when choosing its kept neighbours (Infinity: all). */
  maxHubScan: number;
}

/** Everything one traversal reads and grows, depth by depth. */
export interface TraversalState {
  readonly settings: TraversalSettings;
  readonly graph: GraphStore;
  readonly signals: QuestionSignals;
  readonly features: FeatureCache;
  /** Every node fetched so far, by id. */
  readonly entities: Map<string, NodeSummary>;
  readonly tracker: CompletenessTracker;
  /** Nodes and edges of the kept beams so far (equation 9's denominator). */
  readonly accumulatedNodes: Set<string>;
  readonly accumulatedEdges: Set<string>;
  /** The paths grown at the next depth. */
  beam: PartialPath[];
  /** Connector regions (empty when the view is off or all seeds share one group). */
  regions: Region[];
  /** Every distinct path scored so far, by canonical key. */
  readonly scored: Map<string, ScoredEntry>;
  /**
   * The neighbours `keepBest` kept of a node with more than `maxNeighborsPerNode` relations, by node
   * id: the graph does not change during a traversal, so a hub on the frontier at several depths is
   * ranked once, whichever graph store serves it.
   */
  readonly keptNeighbors: Map<string, Neighbor[]>;
  /** The arrays hub scans work in, the traverser's (kept across questions). */
  readonly scanArrays?: HubScanArrays;
  readonly depths: BeamDepthTrace[];
  pathsEvaluated: number;
  roundTrips: number;
  graphCalls: number;
}

/** The entity of a node already fetched. */
export function entityOf(state: TraversalState, id: string): NodeSummary {
  return state.entities.get(id)!;
}

/**
 * Nodes by id for the traversal, which reads no provenance: `getNodeSummaries` when the store has
 * it (no chunk ids or spans built), else `getNodes`.
 */
export function fetchNodes(graph: GraphStore, ids: readonly string[]): Promise<NodeSummary[]> {
  return graph.getNodeSummaries ? graph.getNodeSummaries(ids) : graph.getNodes(ids);
}
