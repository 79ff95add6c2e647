import { InvalidArgumentError, pathId, throwIfAborted } from '@mosaic/spec';
import type {
  DepthTrace,
  EntityNode,
  Neighbor,
  PathScoreTerms,
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
import { DEFAULT_MATCH_THRESHOLDS, FeatureCache, type EdgeFeatures, type MatchThresholds, type NodeFeatures } from './path-features.js';
import {
  ANCHOR_ACTIVATION,
  DEFAULT_PATH_WEIGHTS,
  anchorAdjustedWeights,
  extendTermState,
  extendTermStateInto,
  pathScore,
  pathTerms,
  startTermState,
  stateTerms,
  type PathTermState,
  type PathWeights,
} from './path-scorer.js';
import { buildQuestionSignals, type IndexVectorAccessors } from './question-signals.js';
import { TextFeaturesCache } from './text-features-cache.js';

/** ε_r of the cumulative-gain stopping rule (report §5.5). */
export const DEFAULT_STOP_THRESHOLDS: Readonly<Record<StopRegime, number>> = Object.freeze({
  shallow: 5.0,
  medium: 0.35,
  deep: 0.24,
});

/**
 * λ of r(e) = (1 − λ)·dense + λ·bm25. Tuned on the GraphRAG-Bench Medical development questions
 * (0, 0.5, 0.8, 1.0 tried; 0.8 best): the embedded 100-d word vectors alone cannot tell the sentence
 * that answers from its neighbours.
 */
export const DEFAULT_RELATION_LEXICAL_WEIGHT = 0.8;
/** κ of the passage term of r(e). Tuned on the Medical development questions (0, 0.3, 0.5 tried; 0.5 best). */
export const DEFAULT_RELATION_CONTEXT_WEIGHT = 0.5;

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
   * λ of the question–relation score r(e) = (1 − λ)·dense + λ·bm25 (and of the question–entity
   * score), BM25 from the index's lexical relation / entity indexes, divided by the question's best
   * hit. Default DEFAULT_RELATION_LEXICAL_WEIGHT (0.8). 0 = dense only.
   */
  lexicalWeight?: number;
  /**
   * Weight κ of the passage term of r(e): r(e) = (1 − κ)·own + κ·BM25 of the question over the best
   * window holding one of the relation's sentences. It gives a sentence the context an offline
   * extractor cannot write into it ("a blood test confirms …" in the CML chapter). Default
   * DEFAULT_RELATION_CONTEXT_WEIGHT (0.5); 0 = off.
   */
  contextWeight?: number;
  /**
   * Compute r(e), q(v) and the dense target/facet similarities from the index's stored vectors
   * (`entityVector` / `relationVector`, see `IndexVectorAccessors`) for the touched nodes and
   * relations only, when the index offers them and no `searchLimit` is set (default true).
   * false: always search the whole index once per question, target and facet.
   */
  useStoredVectors?: boolean;
  /**
   * Node/relation text features (token sets) cached across questions, per traverser (default
   * 200,000 entries per kind; 0 turns the cache off). Entries are reused only while the node's or
   * relation's texts are unchanged.
   */
  textCacheEntries?: number;
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
  /** Whole-index vector searches made for the question signals (0 with stored vectors). */
  indexSearches: number;
}

interface PartialPath {
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
interface Hop {
  relation: RelationEdge;
  parent: Hop | undefined;
}

/**
 * A scored candidate with its canonical key and reversed id. A beam candidate records the path
 * it grew from and the relation it grew by (its relations and term state follow from them, and
 * are only built for the few paths grown further); a connector candidate records its relations.
 */
interface Candidate {
  path: ScoredPath;
  key: string;
  /** The reversed id (beam candidates: built when needed, from `from.back`). */
  back: string | undefined;
  from: PartialPath | undefined;
  relation: RelationEdge | undefined;
  hops: Hop | undefined;
}

interface ScoredEntry {
  /** The best-scoring version of the path over all depths. */
  best: ScoredPath;
  /** The best version among the candidates of depth `depth` (the pool). */
  pooled: Candidate;
  depth: number;
}

function hopsOfCandidate(candidate: Candidate): Hop | undefined {
  return candidate.from ? { relation: candidate.relation!, parent: candidate.from.hops } : candidate.hops;
}

/** A region's path from its seed to a node, as parent links (node and edge lists are built only for joins). */
interface HalfPath {
  node: string;
  relation: RelationEdge | undefined;
  parent: HalfPath | undefined;
  /** Edges from the seed. */
  length: number;
}

function halfNodes(half: HalfPath): string[] {
  const out: string[] = [];
  for (let at: HalfPath | undefined = half; at; at = at.parent) out.push(at.node);
  return out.reverse();
}

function halfRelations(half: HalfPath): RelationEdge[] {
  const out: RelationEdge[] = [];
  for (let at: HalfPath | undefined = half; at && at.relation !== undefined; at = at.parent) out.push(at.relation);
  return out.reverse();
}

function hopsOf(relations: readonly RelationEdge[]): Hop | undefined {
  let hops: Hop | undefined;
  for (const relation of relations) hops = { relation, parent: hops };
  return hops;
}

/**
 * The first `k` items in `compare` order — the same items, in the same order, as sorting all
 * of them would give when `compare` is a total order — without sorting them all when k is small.
 */
function firstInOrder<T>(items: readonly T[], k: number, compare: (a: T, b: T) => number): T[] {
  if (k <= 0) return [];
  if (k >= items.length || k > 64) return [...items].sort(compare).slice(0, k);
  const top: T[] = [];
  for (const item of items) {
    if (top.length >= k && compare(item, top[top.length - 1]) >= 0) continue;
    let low = 0;
    let high = top.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(top[middle], item) <= 0) low = middle + 1;
      else high = middle;
    }
    top.splice(low, 0, item);
    if (top.length > k) top.pop();
  }
  return top;
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

/** The id of the reversed path: pathId of the reversed node and edge lists. */
function reversedPathId(nodes: readonly string[], edges: readonly string[]): string {
  const n = nodes.length;
  const e = edges.length;
  let out = '';
  for (let i = 0; i < n; i += 1) {
    if (i > 0) out += '|';
    out += nodes[n - 1 - i];
    if (i < e) out += `|${edges[e - 1 - i]}`;
  }
  return out;
}

/**
 * Whether the forward id sorts before the reversed id, when the end node ids settle it: ids that
 * differ before either ends decide the string comparison there. Undefined when one is a prefix
 * of the other (or they are equal) and the whole ids must be compared.
 */
function forwardFirst(first: string | undefined, last: string | undefined): boolean | undefined {
  if (first === undefined || last === undefined || first.startsWith(last) || last.startsWith(first)) return undefined;
  return first < last;
}

/** The smaller of a path's forward id and reversed id (given both, or its end node ids). */
function smallerId(forward: string, backward: string, first: string | undefined, last: string | undefined): string {
  const decided = forwardFirst(first, last);
  if (decided !== undefined) return decided ? forward : backward;
  return forward <= backward ? forward : backward;
}

/** Direction-insensitive key: the smaller of the forward and reversed ids. */
export function canonicalPathKey(nodes: readonly string[], edges: readonly string[]): string {
  const forward = pathId(nodes, edges);
  const backward = reversedPathId(nodes, edges);
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
  const lexicalWeight = options.lexicalWeight ?? DEFAULT_RELATION_LEXICAL_WEIGHT;
  const contextWeight = options.contextWeight ?? DEFAULT_RELATION_CONTEXT_WEIGHT;
  if (!(contextWeight >= 0 && contextWeight <= 1)) throw new InvalidArgumentError({ argument: 'contextWeight', message: `must lie in [0, 1], got ${options.contextWeight}` });
  if (!(lexicalWeight >= 0 && lexicalWeight <= 1)) throw new InvalidArgumentError({ argument: 'lexicalWeight', message: `must lie in [0, 1], got ${options.lexicalWeight}` });
  const useStoredVectors = options.useStoredVectors ?? true;
  const textCacheEntries = options.textCacheEntries === undefined ? 200_000 : Math.floor(finite(options.textCacheEntries, 'textCacheEntries', 0));
  if (textCacheEntries < 0) throw new InvalidArgumentError({ argument: 'textCacheEntries', message: 'must be ≥ 0' });
  // Shared across questions: question-independent text features and id → label maps.
  const sharedTextCache = textCacheEntries > 0 ? new TextFeaturesCache({ maxEntries: textCacheEntries }) : undefined;
  const labelMaps = new WeakMap<readonly string[], ReadonlyMap<string, number> | null>();

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
    let indexSearches = 0;

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
      indexSearches,
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
    for (const node of await graph.getNodes(seedIds)) entities.set(node.id, node);
    graphCalls += 1;
    throwIfAborted(abortSignal, 'traversal');
    const validSeeds = seedIds.filter((id) => entities.has(id));
    if (validSeeds.length === 0) return { paths: [], trace: emptyTrace() };

    const signals = await buildQuestionSignals({
      index: index as typeof index & IndexVectorAccessors,
      context,
      searchLimit,
      lexicalWeight,
      contextWeight,
      useStoredVectors,
      skipUnusedEntityScores: true,
      labelMaps,
      abortSignal,
    });
    indexSearches = signals.indexSearches;
    const seedSet = new Set(validSeeds);
    const features = new FeatureCache(
      signals,
      { hubDegree: graph.hubDegree, maxDegree: graph.maxDegree },
      seedSet,
      matchThresholds,
      sharedTextCache ?? new TextFeaturesCache(),
    );
    const tracker = new CompletenessTracker(signals.targets.length, signals.facets.length, seedSet);
    const accumulatedNodes = new Set<string>(validSeeds);
    const accumulatedEdges = new Set<string>();
    for (const id of validSeeds) tracker.addNode(features.node(entities.get(id)!));

    const scoredPath = (
      terms: PathScoreTerms,
      nodes: string[],
      edges: string[],
      id: string,
      seed: string,
      origin: ScoredPath['origin'],
      depth: number,
    ): ScoredPath => ({ id, nodes, edges, score: pathScore(terms, edges.length, weights), terms, seed, origin, depth });
    /** A whole path scored from scratch (connector joins). */
    const score = (
      nodes: string[],
      relationList: readonly RelationEdge[],
      id: string,
      seed: string,
      origin: ScoredPath['origin'],
      depth: number,
    ): ScoredPath => {
      const nodeFeatures: NodeFeatures[] = new Array<NodeFeatures>(nodes.length);
      for (let i = 0; i < nodes.length; i += 1) nodeFeatures[i] = features.node(entities.get(nodes[i])!);
      const edgeFeatures: EdgeFeatures[] = relationList.map((relation) => features.edge(relation));
      const edges = relationList.map((relation) => relation.id);
      return scoredPath(pathTerms(nodeFeatures, edgeFeatures), nodes, edges, id, seed, origin, depth);
    };
    const byRank = (a: Candidate, b: Candidate): number => comparePaths(a.path, b.path);

    // Connector view: one region per seed, grouped by target; only when two groups exist.
    let regions: Region[] = [];
    if (policy.useConnector) {
      regions = validSeeds.map((seed) => {
        const explicit = seedTarget.get(seed);
        const matched = features.node(entities.get(seed)!).targetMatch.findIndex(Boolean);
        const group = explicit !== undefined ? `target:${explicit}` : matched >= 0 ? `target:${matched}` : `seed:${seed}`;
        const start: HalfPath = { node: seed, relation: undefined, parent: undefined, length: 0 };
        return { seed, group, reached: new Map([[seed, start]]), fresh: [seed], frontier: [seed] };
      });
      if (new Set(regions.map((region) => region.group)).size < 2) regions = [];
    }
    // Scratch state for scoring expansions (only grown paths get a state of their own).
    const scratch = startTermState(features.node(entities.get(validSeeds[0])!));
    let beam: PartialPath[] = validSeeds.map((seed) => ({
      nodes: [seed],
      edges: [],
      seed,
      id: seed,
      back: seed,
      state: startTermState(features.node(entities.get(seed)!)),
      hops: undefined,
    }));
    // Every distinct path scored so far (best version kept), and the best version in this depth's pool.
    const scored = new Map<string, ScoredEntry>();
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
        for (const neighbor of list) if (!entities.has(neighbor.node)) missing.add(neighbor.node);
      }
      if (missing.size > 0) {
        for (const node of await graph.getNodes([...missing].sort(compareStrings))) entities.set(node.id, node);
        graphCalls += 1;
        throwIfAborted(abortSignal, 'traversal');
      }
      const usable = (neighbor: Neighbor): boolean => entities.has(neighbor.node);

      // Beam view: every retained path grows by one edge, never revisiting a node.
      const beamCandidates: Candidate[] = [];
      for (const path of beam) {
        const last = path.nodes[path.nodes.length - 1];
        let expansions: Candidate[] = [];
        for (const neighbor of neighbors.get(last) ?? []) {
          if (!usable(neighbor) || path.nodes.includes(neighbor.node)) continue;
          const node = neighbor.node;
          const edge = neighbor.edge.id;
          // Ids grow by one hop: forward appends, reversed prepends; the term sums likewise.
          const id = `${path.id}|${edge}|${node}`;
          const terms = stateTerms(extendTermStateInto(scratch, path.state, features.edge(neighbor.edge), features.node(entities.get(node)!)));
          const candidate = scoredPath(terms, [...path.nodes, node], [...path.edges, edge], id, path.seed, 'beam', depth);
          // The reversed id is built only when the end node ids do not decide the key.
          const decided = forwardFirst(path.nodes[0], node);
          let key = id;
          let back: string | undefined;
          if (decided !== true) {
            back = `${node}|${edge}|${path.back}`;
            if (decided === false || back < id) key = back;
          }
          expansions.push({ path: candidate, key, back, from: path, relation: neighbor.edge, hops: undefined });
        }
        if (maxCandidatesPerPath !== undefined && expansions.length > maxCandidatesPerPath) {
          expansions = firstInOrder(expansions, maxCandidatesPerPath, byRank);
        }
        for (const expansion of expansions) beamCandidates.push(expansion);
      }

      // Connector view: grow each seed's region by one level, join regions of different targets where they meet.
      const connectorCandidates: Candidate[] = [];
      if (regions.length > 0) {
        for (const region of regions) {
          const next = new Map<string, HalfPath>();
          for (const node of region.frontier) {
            const half = region.reached.get(node)!;
            for (const neighbor of neighbors.get(node) ?? []) {
              if (!usable(neighbor) || region.reached.has(neighbor.node) || next.has(neighbor.node)) continue;
              next.set(neighbor.node, { node: neighbor.node, relation: neighbor.edge, parent: half, length: half.length + 1 });
            }
          }
          const ranked: { node: string; relation: number }[] = [];
          for (const [node, half] of next) {
            region.reached.set(node, half);
            ranked.push({ node, relation: features.relationScore(half.relation!) });
          }
          region.fresh = [...next.keys()];
          // Best reaching relation r(e) first, then node id.
          region.frontier = firstInOrder(ranked, connectorFrontier, (a, b) => b.relation - a.relation || compareStrings(a.node, b.node)).map(
            (entry) => entry.node,
          );
        }
        // Where regions of different targets meet, bucketed by the length of the joined path.
        // A join runs from region a's seed to region b's seed, so joins of different region pairs
        // never share a key, and joins of one pair with the same key are the same path: the
        // joins kept (shortest first, then id) only depend on the shortest buckets, and longer
        // ones are never built.
        const buckets = new Map<number, { a: Region; b: Region; meet: string }[]>();
        for (let i = 0; i < regions.length; i += 1) {
          for (let j = i + 1; j < regions.length; j += 1) {
            const a = regions[i];
            const b = regions[j];
            if (a.group === b.group) continue;
            const meets = new Set<string>();
            for (const node of a.fresh) if (b.reached.has(node)) meets.add(node);
            for (const node of b.fresh) if (a.reached.has(node)) meets.add(node);
            for (const meet of meets) {
              const length = a.reached.get(meet)!.length + b.reached.get(meet)!.length;
              let bucket = buckets.get(length);
              if (!bucket) buckets.set(length, (bucket = []));
              bucket.push({ a, b, meet });
            }
          }
        }
        const joins = new Map<string, { nodes: string[]; edges: string[]; relations: RelationEdge[]; seed: string; id: string; back: string; key: string }>();
        for (const length of [...buckets.keys()].sort((x, y) => x - y)) {
          if (joins.size >= maxConnectorCandidates) break;
          for (const { a, b, meet } of buckets.get(length)!) {
            const left = a.reached.get(meet)!;
            const right = b.reached.get(meet)!;
            const nodes = [...halfNodes(left), ...halfNodes(right).slice(0, -1).reverse()];
            if (new Set(nodes).size !== nodes.length) continue;
            const relationList = [...halfRelations(left), ...halfRelations(right).reverse()];
            const edges = relationList.map((relation) => relation.id);
            const id = pathId(nodes, edges);
            const back = reversedPathId(nodes, edges);
            const key = smallerId(id, back, nodes[0], nodes[nodes.length - 1]);
            if (scored.has(key) || joins.has(key)) continue;
            joins.set(key, { nodes, edges, relations: relationList, seed: a.seed, id, back, key });
          }
        }
        // Shortest first, then path id.
        const ordered = firstInOrder(
          [...joins.values()],
          maxConnectorCandidates,
          (x, y) => x.edges.length - y.edges.length || compareStrings(x.id, y.id),
        );
        for (const join of ordered) {
          connectorCandidates.push({
            path: score(join.nodes, join.relations, join.id, join.seed, 'connector', depth),
            key: join.key,
            back: join.back,
            from: undefined,
            relation: undefined,
            hops: hopsOf(join.relations),
          });
        }
      }

      // One pool: score all candidates together, keep the best W.
      const poolEntries: ScoredEntry[] = [];
      for (const list of [beamCandidates, connectorCandidates]) {
        for (const candidate of list) {
          const entry = scored.get(candidate.key);
          if (!entry) {
            const added: ScoredEntry = { best: candidate.path, pooled: candidate, depth };
            scored.set(candidate.key, added);
            poolEntries.push(added);
            continue;
          }
          if (entry.depth !== depth) {
            entry.depth = depth;
            entry.pooled = candidate;
            poolEntries.push(entry);
          } else if (comparePaths(candidate.path, entry.pooled.path) < 0) {
            entry.pooled = candidate;
          }
          if (comparePaths(candidate.path, entry.best) < 0) entry.best = candidate.path;
        }
      }
      const candidateCount = beamCandidates.length + connectorCandidates.length;
      pathsEvaluated += candidateCount;
      // Ranking (score desc, then id): the best few up front; the whole pool only if refilling needs it.
      const pooled = poolEntries.map((entry) => entry.pooled);
      let ranked = firstInOrder(pooled, 4 * width, byRank);
      const keptCandidates = ranked.slice(0, width);
      const kept = keptCandidates.map((candidate) => candidate.path);

      // Equation (9): novelty of the kept beam against everything accumulated before this depth.
      const newNodes = new Set<string>();
      const newEdges = new Set<string>();
      const keptRelations = new Map<string, RelationEdge>();
      for (const candidate of keptCandidates) {
        const path = candidate.path;
        for (const node of path.nodes) if (!accumulatedNodes.has(node)) newNodes.add(node);
        for (const edge of path.edges) if (!accumulatedEdges.has(edge)) newEdges.add(edge);
        for (let hop = hopsOfCandidate(candidate); hop; hop = hop.parent) keptRelations.set(hop.relation.id, hop.relation);
      }
      const gain = (newNodes.size + newEdges.size) / Math.max(1, accumulatedNodes.size + accumulatedEdges.size);
      for (const node of newNodes) {
        accumulatedNodes.add(node);
        tracker.addNode(features.node(entities.get(node)!));
      }
      for (const edge of newEdges) {
        accumulatedEdges.add(edge);
        const relation = keptRelations.get(edge)!;
        tracker.addEdge(features.edge(relation), relation.source, relation.target);
      }
      const completeness = tracker.value();
      if (kept.length > 0) depthReached = depth;

      // The paths grown at the next depth: the kept beam paths, or — with refill — the best W
      // candidates that can still grow (kept dead ends and connector paths pass their slot on;
      // of paths with the same node sequence — parallel edges — only the best is grown).
      const growable = (path: ScoredPath): boolean =>
        path.origin === 'beam' && (entities.get(path.nodes[path.nodes.length - 1])?.degree ?? 0) > 1;
      let grown: Candidate[];
      if (refillBeam) {
        // Parallel edges give paths with the same node sequence; growing one of them is enough.
        const sequences = new Set<string>();
        grown = [];
        for (let i = 0; grown.length < width; i += 1) {
          if (i >= ranked.length) {
            if (ranked.length >= pooled.length) break;
            ranked = [...pooled].sort(byRank);
          }
          const candidate = ranked[i];
          const path = candidate.path;
          if (!growable(path)) continue;
          const sequence = path.nodes.join('|');
          if (sequences.has(sequence)) continue;
          sequences.add(sequence);
          grown.push(candidate);
        }
      } else {
        grown = ranked.slice(0, width).filter((candidate) => candidate.path.origin === 'beam');
      }
      beam = grown.map((candidate) => {
        const { path, from, relation } = candidate;
        const last = path.nodes[path.nodes.length - 1];
        const back = candidate.back ?? `${last}|${relation!.id}|${from!.back}`;
        const state = extendTermState(from!.state, features.edge(relation!), features.node(entities.get(last)!));
        return { nodes: path.nodes, edges: path.edges, seed: path.seed, id: path.id, back, state, hops: hopsOfCandidate(candidate) };
      });
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
        grown: grown.map((candidate) => candidate.path.id),
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
      indexSearches,
    };
    return { paths: [...scored.values()].map((entry) => entry.best).sort(comparePaths), trace };
  }

  return {
    specificationVersion: 'v1',
    id: options.id ?? 'beam',
    traverse,
  };
}
