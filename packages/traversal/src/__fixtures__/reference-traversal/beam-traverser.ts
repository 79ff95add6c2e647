// Test oracle: this file as it was before the performance work (commit d6aeda6), unchanged.
// The optimised implementation must return deep-equal results; see performance-equivalence.test.ts.

import { InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type {
  DepthTrace,
  EntityNode,
  Neighbor,
  RelationEdge,
  ScoredPath,
  StopReason,
  StopRegime,
  Traversal,
  TraversalTrace,
  TraverseOptions,
  Traverser,
} from '@mosaic/spec';
import { CompletenessTracker } from './completeness-tracker.js';
import { DEFAULT_MATCH_THRESHOLDS, FeatureCache, type MatchThresholds } from './path-features.js';
import { ANCHOR_ACTIVATION, DEFAULT_PATH_WEIGHTS, anchorAdjustedWeights, pathScore, pathTerms, type PathWeights } from './path-scorer.js';
import { buildQuestionSignals } from './question-signals.js';

/** ε_r of the cumulative-gain stopping rule (report §5.5). */
export const DEFAULT_STOP_THRESHOLDS: Readonly<Record<StopRegime, number>> = Object.freeze({
  shallow: 5.0,
  medium: 0.35,
  deep: 0.24,
});

export interface BeamTraverserOptions {
  /** Overrides of the equation (8) weights (defaults: DEFAULT_PATH_WEIGHTS). */
  weights?: Partial<PathWeights>;
  /** ε per stop regime (defaults: shallow 5.00, medium 0.35, deep 0.24). */
  stopThresholds?: Partial<Record<StopRegime, number>>;
  /** Minimum cumulative completeness c_d for a low-gain stop (default 0.35). */
  completenessThreshold?: number;
  /** Keep only the best M one-edge expansions of each retained path (default: all). */
  maxCandidatesPerPath?: number;
  /** Anchor strength at or above which w_t, w_a, w_x, w_h are multiplied by (1 + a) (default 0.4). */
  anchorActivation?: number;
  /** When a node/edge counts as matching a target or facet (defaults: lexical 0.5, dense 0.8). */
  matchThresholds?: Partial<MatchThresholds>;
  /** Region frontier nodes expanded per seed and depth in the connector view (default: the beam width). */
  connectorFrontier?: number;
  /** Connector candidates added to the pool per depth (default: twice the beam width). */
  maxConnectorCandidates?: number;
  /** Cap on k of the per-question index searches (default: whole index). */
  searchLimit?: number;
  /**
   * Let dead ends pass their beam slot on (default true): the paths grown at the next depth are
   * the best W beam candidates whose end node has another edge (degree > 1), one per node sequence
   * (parallel edges), so a beam whose best candidates are leaves does not end the search. The kept
   * beam (trace, g_d, c_d) is unchanged.
   * false: grow exactly the kept beam paths.
   */
  refillBeam?: boolean;
  /** Traverser id (default 'beam'). */
  id?: string;
}

/** DepthTrace plus which targets/facets (by policy text) the accumulated evidence covers. */
export interface BeamDepthTrace extends DepthTrace {
  coveredTargets: string[];
  coveredFacets: string[];
  /** Ids of the paths extended at the next depth (the kept beam paths, refilled past dead ends). */
  grown: string[];
}

/** TraversalTrace plus the thresholds used and every graph call (neighbor batches and node fetches). */
export interface BeamTraversalTrace extends TraversalTrace {
  depths: BeamDepthTrace[];
  stopThreshold: number;
  completenessThreshold: number;
  /** All graph calls: neighbor batches (roundTrips) plus node fetches. */
  graphCalls: number;
}

interface PartialPath {
  nodes: string[];
  edges: string[];
  seed: string;
}

interface HalfPath {
  nodes: string[];
  edges: string[];
}

interface Region {
  seed: string;
  group: string;
  reached: Map<string, HalfPath>;
  /** Nodes first reached at the last depth. */
  fresh: string[];
  /** Nodes whose neighbours are fetched at the next depth. */
  frontier: string[];
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Path id: node and edge ids interleaved, joined by '|'. */
export function pathId(nodes: readonly string[], edges: readonly string[]): string {
  const parts: string[] = [];
  for (let i = 0; i < nodes.length; i += 1) {
    parts.push(nodes[i]);
    if (i < edges.length) parts.push(edges[i]);
  }
  return parts.join('|');
}

/** Direction-insensitive key: the smaller of the forward and reversed ids. */
export function canonicalPathKey(nodes: readonly string[], edges: readonly string[]): string {
  const forward = pathId(nodes, edges);
  const backward = pathId([...nodes].reverse(), [...edges].reverse());
  return forward <= backward ? forward : backward;
}

/** Best first: score descending, then id ascending. */
export function comparePaths(a: ScoredPath, b: ScoredPath): number {
  return b.score - a.score || compareStrings(a.id, b.id);
}

function finite(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value)) throw new InvalidArgumentError({ argument: name, message: 'must be a finite number' });
  return value;
}

function positiveInteger(value: number | undefined, name: string, fallback?: number): number {
  if (value === undefined) {
    if (fallback === undefined) throw new InvalidArgumentError({ argument: name, message: 'is required' });
    return fallback;
  }
  if (!Number.isFinite(value) || value < 1) {
    throw new InvalidArgumentError({ argument: name, message: 'must be a number ≥ 1' });
  }
  return Math.floor(value);
}

/**
 * Beam traversal with the connector view and cumulative-gain stopping (report §5.4–5.5).
 * One `graph.neighbors` call per depth for every frontier node (beam ends and connector
 * region frontiers), one `graph.getNodes` call per depth for nodes seen for the first time.
 */
export function createBeamTraverser(options: BeamTraverserOptions = {}): Traverser {
  const baseWeights: PathWeights = { ...DEFAULT_PATH_WEIGHTS };
  for (const [key, value] of Object.entries(options.weights ?? {})) {
    if (!(key in baseWeights)) throw new InvalidArgumentError({ argument: `weights.${key}`, message: 'unknown weight' });
    baseWeights[key as keyof PathWeights] = finite(value, `weights.${key}`, baseWeights[key as keyof PathWeights]);
  }
  const stopThresholds: Record<StopRegime, number> = { ...DEFAULT_STOP_THRESHOLDS };
  for (const [key, value] of Object.entries(options.stopThresholds ?? {})) {
    if (!(key in stopThresholds)) throw new InvalidArgumentError({ argument: `stopThresholds.${key}`, message: 'unknown regime' });
    stopThresholds[key as StopRegime] = finite(value, `stopThresholds.${key}`, 0);
  }
  const completenessThreshold = finite(options.completenessThreshold, 'completenessThreshold', 0.35);
  if (completenessThreshold < 0 || completenessThreshold > 1) {
    throw new InvalidArgumentError({ argument: 'completenessThreshold', message: 'must lie in [0,1]' });
  }
  const maxCandidatesPerPath =
    options.maxCandidatesPerPath === undefined ? undefined : positiveInteger(options.maxCandidatesPerPath, 'maxCandidatesPerPath');
  const anchorActivation = finite(options.anchorActivation, 'anchorActivation', ANCHOR_ACTIVATION);
  const matchThresholds: MatchThresholds = {
    lexical: finite(options.matchThresholds?.lexical, 'matchThresholds.lexical', DEFAULT_MATCH_THRESHOLDS.lexical),
    dense: finite(options.matchThresholds?.dense, 'matchThresholds.dense', DEFAULT_MATCH_THRESHOLDS.dense),
  };
  const connectorFrontierOption =
    options.connectorFrontier === undefined ? undefined : positiveInteger(options.connectorFrontier, 'connectorFrontier');
  const maxConnectorOption =
    options.maxConnectorCandidates === undefined ? undefined : positiveInteger(options.maxConnectorCandidates, 'maxConnectorCandidates');
  const refillBeam = options.refillBeam ?? true;
  const searchLimit = options.searchLimit === undefined ? undefined : positiveInteger(options.searchLimit, 'searchLimit');

  async function traverse(traverseOptions: TraverseOptions): Promise<Traversal> {
    const { context, index, seeds, abortSignal } = traverseOptions;
    throwIfAborted(abortSignal, 'traversal');
    const policy = context.policy;
    const maxDepth = positiveInteger(policy.maxDepth, 'policy.maxDepth');
    const width = positiveInteger(policy.beamWidth, 'policy.beamWidth');
    const threshold = stopThresholds[policy.stopRegime];
    if (threshold === undefined) {
      throw new InvalidArgumentError({ argument: 'policy.stopRegime', message: `unknown regime ${String(policy.stopRegime)}` });
    }
    const weights = anchorAdjustedWeights(baseWeights, policy.anchorStrength, anchorActivation);
    const weightRecord: Record<string, number> = { ...weights };
    const connectorFrontier = connectorFrontierOption ?? width;
    const maxConnectorCandidates = maxConnectorOption ?? 2 * width;
    const graph = index.graph;
    let roundTrips = 0;
    let graphCalls = 0;

    const emptyTrace = (): BeamTraversalTrace => ({
      depths: [],
      stopReason: 'no-seeds',
      depthReached: 0,
      pathsEvaluated: 0,
      weights: weightRecord,
      roundTrips,
      stopThreshold: threshold,
      completenessThreshold,
      graphCalls,
    });

    const seedIds: string[] = [];
    const seedTarget = new Map<string, number | undefined>();
    for (const seed of seeds) {
      if (seedTarget.has(seed.nodeId)) continue;
      seedTarget.set(seed.nodeId, seed.targetIndex);
      seedIds.push(seed.nodeId);
    }
    if (seedIds.length === 0) return { paths: [], trace: emptyTrace() };

    const entities = new Map<string, EntityNode>();
    const relations = new Map<string, RelationEdge>();
    for (const node of await graph.getNodes(seedIds)) entities.set(node.id, node);
    graphCalls += 1;
    throwIfAborted(abortSignal, 'traversal');
    const validSeeds = seedIds.filter((id) => entities.has(id));
    if (validSeeds.length === 0) return { paths: [], trace: emptyTrace() };

    const signals = await buildQuestionSignals({ index, context, searchLimit, abortSignal });
    const seedSet = new Set(validSeeds);
    const features = new FeatureCache(signals, { hubDegree: graph.hubDegree, maxDegree: graph.maxDegree }, seedSet, matchThresholds);
    const tracker = new CompletenessTracker(signals.targets.length, signals.facets.length, seedSet);
    const accumulatedNodes = new Set<string>(validSeeds);
    const accumulatedEdges = new Set<string>();
    for (const id of validSeeds) tracker.addNode(features.node(entities.get(id)!));

    const score = (nodes: string[], edges: string[], seed: string, origin: ScoredPath['origin'], depth: number): ScoredPath => {
      const terms = pathTerms(
        nodes.map((id) => features.node(entities.get(id)!)),
        edges.map((id) => features.edge(relations.get(id)!)),
      );
      return { id: pathId(nodes, edges), nodes, edges, score: pathScore(terms, edges.length, weights), terms, seed, origin, depth };
    };

    // Connector view: one region per seed, grouped by target; only when two groups exist.
    let regions: Region[] = [];
    if (policy.useConnector) {
      regions = validSeeds.map((seed) => {
        const explicit = seedTarget.get(seed);
        const matched = features.node(entities.get(seed)!).targetMatch.findIndex(Boolean);
        const group = explicit !== undefined ? `target:${explicit}` : matched >= 0 ? `target:${matched}` : `seed:${seed}`;
        return { seed, group, reached: new Map([[seed, { nodes: [seed], edges: [] }]]), fresh: [seed], frontier: [seed] };
      });
      if (new Set(regions.map((region) => region.group)).size < 2) regions = [];
    }
    const relationScore = (edgeId: string): number => features.edge(relations.get(edgeId)!).relation;

    let beam: PartialPath[] = validSeeds.map((seed) => ({ nodes: [seed], edges: [], seed }));
    const scored = new Map<string, ScoredPath>();
    const depths: BeamDepthTrace[] = [];
    let pathsEvaluated = 0;
    let stopReason: StopReason = 'max-depth';
    let depthReached = 0;

    for (let depth = 1; depth <= maxDepth; depth += 1) {
      throwIfAborted(abortSignal, 'traversal');
      const frontierSet = new Set<string>();
      for (const path of beam) frontierSet.add(path.nodes[path.nodes.length - 1]);
      for (const region of regions) for (const node of region.frontier) frontierSet.add(node);
      const frontier = [...frontierSet].sort(compareStrings);
      if (frontier.length === 0) {
        stopReason = 'exhausted';
        break;
      }
      const neighbors = await graph.neighbors(frontier);
      roundTrips += 1;
      graphCalls += 1;
      throwIfAborted(abortSignal, 'traversal');
      const missing = new Set<string>();
      for (const list of neighbors.values()) {
        for (const neighbor of list) {
          if (!relations.has(neighbor.edge.id)) relations.set(neighbor.edge.id, neighbor.edge);
          if (!entities.has(neighbor.node)) missing.add(neighbor.node);
        }
      }
      if (missing.size > 0) {
        for (const node of await graph.getNodes([...missing].sort(compareStrings))) entities.set(node.id, node);
        graphCalls += 1;
        throwIfAborted(abortSignal, 'traversal');
      }
      const usable = (neighbor: Neighbor): boolean => entities.has(neighbor.node);

      // Beam view: every retained path grows by one edge, never revisiting a node.
      const beamCandidates: ScoredPath[] = [];
      for (const path of beam) {
        const last = path.nodes[path.nodes.length - 1];
        let expansions: ScoredPath[] = [];
        for (const neighbor of neighbors.get(last) ?? []) {
          if (!usable(neighbor) || path.nodes.includes(neighbor.node)) continue;
          expansions.push(score([...path.nodes, neighbor.node], [...path.edges, neighbor.edge.id], path.seed, 'beam', depth));
        }
        if (maxCandidatesPerPath !== undefined && expansions.length > maxCandidatesPerPath) {
          expansions = expansions.sort(comparePaths).slice(0, maxCandidatesPerPath);
        }
        beamCandidates.push(...expansions);
      }

      // Connector view: grow each seed's region by one level, join regions of different targets where they meet.
      const connectorCandidates: ScoredPath[] = [];
      if (regions.length > 0) {
        for (const region of regions) {
          const next = new Map<string, HalfPath>();
          for (const node of region.frontier) {
            const half = region.reached.get(node)!;
            for (const neighbor of neighbors.get(node) ?? []) {
              if (!usable(neighbor) || region.reached.has(neighbor.node) || next.has(neighbor.node)) continue;
              next.set(neighbor.node, { nodes: [...half.nodes, neighbor.node], edges: [...half.edges, neighbor.edge.id] });
            }
          }
          for (const [node, half] of next) region.reached.set(node, half);
          region.fresh = [...next.keys()];
          region.frontier = [...next.entries()]
            .sort(
              (a, b) =>
                relationScore(b[1].edges[b[1].edges.length - 1]) - relationScore(a[1].edges[a[1].edges.length - 1]) ||
                compareStrings(a[0], b[0]),
            )
            .slice(0, connectorFrontier)
            .map(([node]) => node);
        }
        const joins = new Map<string, { nodes: string[]; edges: string[]; seed: string }>();
        for (let i = 0; i < regions.length; i += 1) {
          for (let j = i + 1; j < regions.length; j += 1) {
            const a = regions[i];
            const b = regions[j];
            if (a.group === b.group) continue;
            const meets = new Set<string>();
            for (const node of a.fresh) if (b.reached.has(node)) meets.add(node);
            for (const node of b.fresh) if (a.reached.has(node)) meets.add(node);
            for (const meet of [...meets].sort(compareStrings)) {
              const left = a.reached.get(meet)!;
              const right = b.reached.get(meet)!;
              const nodes = [...left.nodes, ...right.nodes.slice(0, -1).reverse()];
              if (new Set(nodes).size !== nodes.length) continue;
              const edges = [...left.edges, ...[...right.edges].reverse()];
              const key = canonicalPathKey(nodes, edges);
              if (scored.has(key) || joins.has(key)) continue;
              joins.set(key, { nodes, edges, seed: a.seed });
            }
          }
        }
        const ordered = [...joins.values()]
          .sort((x, y) => x.edges.length - y.edges.length || compareStrings(pathId(x.nodes, x.edges), pathId(y.nodes, y.edges)))
          .slice(0, maxConnectorCandidates);
        for (const join of ordered) connectorCandidates.push(score(join.nodes, join.edges, join.seed, 'connector', depth));
      }

      // One pool: score all candidates together, keep the best W.
      const pool = new Map<string, ScoredPath>();
      for (const candidate of [...beamCandidates, ...connectorCandidates]) {
        const key = canonicalPathKey(candidate.nodes, candidate.edges);
        const existing = pool.get(key);
        if (!existing || comparePaths(candidate, existing) < 0) pool.set(key, candidate);
        const known = scored.get(key);
        if (!known || comparePaths(candidate, known) < 0) scored.set(key, candidate);
      }
      const candidateCount = beamCandidates.length + connectorCandidates.length;
      pathsEvaluated += candidateCount;
      const ranked = [...pool.values()].sort(comparePaths);
      const kept = ranked.slice(0, width);

      // Equation (9): novelty of the kept beam against everything accumulated before this depth.
      const newNodes = new Set<string>();
      const newEdges = new Set<string>();
      for (const path of kept) {
        for (const node of path.nodes) if (!accumulatedNodes.has(node)) newNodes.add(node);
        for (const edge of path.edges) if (!accumulatedEdges.has(edge)) newEdges.add(edge);
      }
      const gain = (newNodes.size + newEdges.size) / Math.max(1, accumulatedNodes.size + accumulatedEdges.size);
      for (const node of newNodes) {
        accumulatedNodes.add(node);
        tracker.addNode(features.node(entities.get(node)!));
      }
      for (const edge of newEdges) {
        accumulatedEdges.add(edge);
        const relation = relations.get(edge)!;
        tracker.addEdge(features.edge(relation), relation.source, relation.target);
      }
      const completeness = tracker.value();
      if (kept.length > 0) depthReached = depth;

      // The paths grown at the next depth: the kept beam paths, or — with refill — the best W
      // candidates that can still grow (kept dead ends and connector paths pass their slot on;
      // of paths with the same node sequence — parallel edges — only the best is grown).
      const growable = (path: ScoredPath): boolean =>
        path.origin === 'beam' && (entities.get(path.nodes[path.nodes.length - 1])?.degree ?? 0) > 1;
      let grown: ScoredPath[];
      if (refillBeam) {
        // Parallel edges give paths with the same node sequence; growing one of them is enough.
        const sequences = new Set<string>();
        grown = [];
        for (const path of ranked) {
          if (grown.length >= width) break;
          const sequence = path.nodes.join('|');
          if (!growable(path) || sequences.has(sequence)) continue;
          sequences.add(sequence);
          grown.push(path);
        }
      } else {
        grown = kept.filter((path) => path.origin === 'beam');
      }
      beam = grown.map((path) => ({ nodes: path.nodes, edges: path.edges, seed: path.seed }));
      const lowGain = !policy.fixedDepth && depth >= 2 && gain <= threshold && completeness >= completenessThreshold;
      const atCap = depth >= maxDepth;
      const exhausted = beam.length === 0 && regions.every((region) => region.frontier.length === 0);
      const stop = lowGain || atCap || exhausted;
      depths.push({
        depth,
        candidates: candidateCount,
        connectorCandidates: connectorCandidates.length,
        beam: kept,
        gain,
        completeness,
        newNodes: newNodes.size,
        newEdges: newEdges.size,
        threshold,
        stop,
        coveredTargets: tracker.coveredTargets().map((i) => signals.targets[i].text),
        coveredFacets: tracker.coveredFacets().map((i) => signals.facets[i].text),
        grown: grown.map((path) => path.id),
      });
      if (stop) {
        stopReason = exhausted && kept.length === 0 ? 'exhausted' : lowGain ? 'low-gain' : atCap ? 'max-depth' : 'exhausted';
        break;
      }
    }

    const trace: BeamTraversalTrace = {
      depths,
      stopReason,
      depthReached,
      pathsEvaluated,
      weights: weightRecord,
      roundTrips,
      stopThreshold: threshold,
      completenessThreshold,
      graphCalls,
    };
    return { paths: [...scored.values()].sort(comparePaths), trace };
  }

  return {
    specificationVersion: 'v1',
    id: options.id ?? 'beam',
    traverse,
  };
}
