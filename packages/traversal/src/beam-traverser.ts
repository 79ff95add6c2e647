import { InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type { NodeSummary, StopReason, StopRegime, Traversal, TraverseOptions, Traverser } from '@mosaic/spec';
import { growBeam, nextBeam, startBeam } from './beam-view.js';
import { poolCandidates } from './candidate-pool.js';
import { CompletenessTracker } from './completeness-tracker.js';
import { growRegions, joinRegions, startRegions } from './connector-view.js';
import { cumulativeGain, stopDecision } from './cumulative-gain.js';
import { fetchFrontier, HubScanArrays } from './frontier.js';
import { DEFAULT_MATCH_THRESHOLDS, FeatureCache, type MatchThresholds } from './path-features.js';
import { STOP_MIN_COMPLETENESS, STOP_THRESHOLDS, checkTuning, comparePaths } from '@mosaic/stage-utils/internal';
import { ANCHOR_ACTIVATION, DEFAULT_PATH_WEIGHTS, anchorAdjustedWeights, type PathWeights } from './path-scorer.js';
import { buildQuestionSignals, LabelScorePool, type IndexVectorAccessors } from './question-signals.js';
import { TextFeaturesCache } from './text-features-cache.js';
import { NeighborBoundTables } from './neighbor-bounds.js';
import type { BeamTraversalTrace } from './traversal-trace.js';
import { fetchNodes, type Candidate, type TraversalSettings, type TraversalState } from './traversal-state.js';

export type { BeamDepthTrace, BeamTraversalTrace } from './traversal-trace.js';
export { canonicalPathKey, comparePaths, pathId } from '@mosaic/stage-utils/internal';

/** Minimum cumulative completeness c_d for a low-gain stop (report §5.5); `STOP_MIN_COMPLETENESS` of @mosaic/stage-utils. */
export const DEFAULT_COMPLETENESS_THRESHOLD = STOP_MIN_COMPLETENESS;

/** ε_r of the cumulative-gain stopping rule (report §5.5); `STOP_THRESHOLDS` of @mosaic/stage-utils, the one source. */
export const DEFAULT_STOP_THRESHOLDS: Readonly<Record<StopRegime, number>> = STOP_THRESHOLDS;

/**
 * λ of r(e) = (1 − λ)·dense + λ·bm25.
 *
 * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
 */
export const DEFAULT_RELATION_LEXICAL_WEIGHT = 0.8;
/**
 * κ of the passage term of r(e).
 *
 * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
 */
export const DEFAULT_RELATION_CONTEXT_WEIGHT = 0.5;
/**
 * Neighbours of a frontier node expanded per depth, best r(e) first: a hub of the offline graph has
 * hundreds of relations, and scoring each as a path would be most of the traversal's time.
 *
 * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
 */
export const DEFAULT_MAX_NEIGHBORS_PER_NODE = 24;
/**
 * Relations of a hub that may be scored when its best DEFAULT_MAX_NEIGHBORS_PER_NODE are chosen:
 * the ones with the highest bound (BM25 and passage terms, no dense similarity). Twice the largest
 * node of GraphRAG-Bench (Medical: 1,037 relations; Novel: 609), so the results there are what
 * scoring every relation gives; a hub of a 100 MB corpus has tens of thousands of relations, and
 * scoring them all was per-question work that grew with the corpus.
 */
export const DEFAULT_MAX_HUB_SCAN = 2048;

/**
 * The options of `createBeamTraverser` whose defaults were tuned for the offline stack (embedded
 * encoder, offline extractor) on the GraphRAG-Bench development split (docs/experiments.md). Another
 * encoder or extractor may want other values.
 */
export interface BeamTraverserTuning {
  /**
   * Neighbours of each frontier node (beam ends and connector region frontiers) that are expanded at
   * a depth: the ones with the highest r(e), ties in edge-id order (default
   * DEFAULT_MAX_NEIGHBORS_PER_NODE, 24; `Infinity` expands every neighbour, as the report's beam
   * does). The rest are never scored as paths; `BeamDepthTrace.neighborsCut` counts them.
   *
   * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
   */
  maxNeighborsPerNode?: number;
  /**
   * λ of the question–relation score r(e) = (1 − λ)·dense + λ·bm25 (and of the question–entity
   * score), BM25 from the index's lexical relation / entity indexes, divided by the question's best
   * hit. Default DEFAULT_RELATION_LEXICAL_WEIGHT (0.8). 0 = dense only.
   *
   * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
   */
  lexicalWeight?: number;
  /**
   * Weight κ of the passage term of r(e): r(e) = (1 − κ)·own + κ·BM25 of the question over the best
   * window holding one of the relation's sentences. It gives a sentence the context an offline
   * extractor cannot write into it ("a blood test confirms …" in the CML chapter). Default
   * DEFAULT_RELATION_CONTEXT_WEIGHT (0.5); 0 = off.
   *
   * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
   */
  contextWeight?: number;
}

export interface BeamTraverserOptions {
  /** Overrides of the equation (8) weights (defaults: DEFAULT_PATH_WEIGHTS). */
  weights?: Partial<PathWeights>;
  /** ε per stop regime (defaults: shallow 5.00, medium 0.35, deep 0.24). */
  stopThresholds?: Partial<Record<StopRegime, number>>;
  /** Minimum cumulative completeness c_d for a low-gain stop (default DEFAULT_COMPLETENESS_THRESHOLD, 0.35). */
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
  /**
   * Of a node with more relations than this, only this many — the highest bounds of r(e) without
   * its dense part, ties in edge-id order — can be scored and expanded (default
   * DEFAULT_MAX_HUB_SCAN, 2,048; `Infinity`: all). `BeamDepthTrace.hubScanCut` counts the others.
   * The connector view's regions do not grow through such a node (it joins them, and regions can
   * meet there): `BeamDepthTrace.regionHubsHeld` counts them.
   */
  maxHubScan?: number;
  /** Cap on k of the per-question index searches (default: whole index). */
  searchLimit?: number;
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
  /** The options tuned for the offline stack (see `BeamTraverserTuning`); unknown keys are rejected. */
  tuning?: BeamTraverserTuning;
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

/** The options of createBeamTraverser, checked once. */
interface ParsedOptions {
  baseWeights: PathWeights;
  stopThresholds: Record<StopRegime, number>;
  completenessThreshold: number;
  maxCandidatesPerPath: number | undefined;
  anchorActivation: number;
  matchThresholds: MatchThresholds;
  connectorFrontier: number | undefined;
  maxConnectorCandidates: number | undefined;
  maxNeighborsPerNode: number;
  maxHubScan: number;
  refillBeam: boolean;
  searchLimit: number | undefined;
  lexicalWeight: number;
  contextWeight: number;
  useStoredVectors: boolean;
  textCacheEntries: number;
}

/** A cap that is a whole number ≥ 1 or Infinity (no cap). */
function capOrInfinity(value: number | undefined, name: string, fallback: number): number {
  if (value === Number.POSITIVE_INFINITY) return value;
  return positiveInteger(value, name, fallback);
}

const BEAM_TRAVERSER_TUNING_KEYS: (keyof BeamTraverserTuning)[] = ['maxNeighborsPerNode', 'lexicalWeight', 'contextWeight'];

function parseOptions(options: BeamTraverserOptions): ParsedOptions {
  const tuning = checkTuning<BeamTraverserTuning>(options, BEAM_TRAVERSER_TUNING_KEYS);
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
  const completenessThreshold = finite(options.completenessThreshold, 'completenessThreshold', DEFAULT_COMPLETENESS_THRESHOLD);
  if (completenessThreshold < 0 || completenessThreshold > 1) {
    throw new InvalidArgumentError({ argument: 'completenessThreshold', message: 'must lie in [0,1]' });
  }
  const lexicalWeight = tuning.lexicalWeight ?? DEFAULT_RELATION_LEXICAL_WEIGHT;
  const contextWeight = tuning.contextWeight ?? DEFAULT_RELATION_CONTEXT_WEIGHT;
  if (!(contextWeight >= 0 && contextWeight <= 1))
    throw new InvalidArgumentError({ argument: 'tuning.contextWeight', message: `must lie in [0, 1], got ${tuning.contextWeight}` });
  if (!(lexicalWeight >= 0 && lexicalWeight <= 1))
    throw new InvalidArgumentError({ argument: 'tuning.lexicalWeight', message: `must lie in [0, 1], got ${tuning.lexicalWeight}` });
  const textCacheEntries = options.textCacheEntries === undefined ? 200_000 : Math.floor(finite(options.textCacheEntries, 'textCacheEntries', 0));
  if (textCacheEntries < 0) throw new InvalidArgumentError({ argument: 'textCacheEntries', message: 'must be ≥ 0' });
  return {
    baseWeights,
    stopThresholds,
    completenessThreshold,
    maxCandidatesPerPath: options.maxCandidatesPerPath === undefined ? undefined : positiveInteger(options.maxCandidatesPerPath, 'maxCandidatesPerPath'),
    anchorActivation: finite(options.anchorActivation, 'anchorActivation', ANCHOR_ACTIVATION),
    matchThresholds: {
      lexical: finite(options.matchThresholds?.lexical, 'matchThresholds.lexical', DEFAULT_MATCH_THRESHOLDS.lexical),
      dense: finite(options.matchThresholds?.dense, 'matchThresholds.dense', DEFAULT_MATCH_THRESHOLDS.dense),
    },
    connectorFrontier: options.connectorFrontier === undefined ? undefined : positiveInteger(options.connectorFrontier, 'connectorFrontier'),
    maxConnectorCandidates:
      options.maxConnectorCandidates === undefined ? undefined : positiveInteger(options.maxConnectorCandidates, 'maxConnectorCandidates'),
    maxNeighborsPerNode: capOrInfinity(tuning.maxNeighborsPerNode, 'tuning.maxNeighborsPerNode', DEFAULT_MAX_NEIGHBORS_PER_NODE),
    maxHubScan: capOrInfinity(options.maxHubScan, 'maxHubScan', DEFAULT_MAX_HUB_SCAN),
    refillBeam: options.refillBeam ?? true,
    searchLimit: options.searchLimit === undefined ? undefined : positiveInteger(options.searchLimit, 'searchLimit'),
    lexicalWeight,
    contextWeight,
    useStoredVectors: options.useStoredVectors ?? true,
    textCacheEntries,
  };
}

/** The per-traversal settings: the policy's depth, width and regime, with the anchor-adjusted weights. */
function settingsFor(parsed: ParsedOptions, policy: TraverseOptions['context']['policy']): TraversalSettings {
  const maxDepth = positiveInteger(policy.maxDepth, 'policy.maxDepth');
  const width = positiveInteger(policy.beamWidth, 'policy.beamWidth');
  const threshold = parsed.stopThresholds[policy.stopRegime];
  if (threshold === undefined) {
    throw new InvalidArgumentError({ argument: 'policy.stopRegime', message: `unknown regime ${String(policy.stopRegime)}` });
  }
  return {
    policy,
    maxDepth,
    width,
    threshold,
    completenessThreshold: parsed.completenessThreshold,
    weights: anchorAdjustedWeights(parsed.baseWeights, policy.anchorStrength, parsed.anchorActivation),
    refillBeam: parsed.refillBeam,
    maxCandidatesPerPath: parsed.maxCandidatesPerPath,
    connectorFrontier: parsed.connectorFrontier ?? width,
    maxConnectorCandidates: parsed.maxConnectorCandidates ?? 2 * width,
    maxNeighborsPerNode: parsed.maxNeighborsPerNode,
    maxHubScan: parsed.maxHubScan,
  };
}

/** The trace of a traversal so far. */
function traceOf(
  state: Pick<TraversalState, 'settings' | 'depths' | 'pathsEvaluated' | 'roundTrips' | 'graphCalls'>,
  stop: { reason: StopReason; depthReached: number; indexSearches: number },
): BeamTraversalTrace {
  return {
    depths: state.depths,
    stopReason: stop.reason,
    depthReached: stop.depthReached,
    pathsEvaluated: state.pathsEvaluated,
    weights: { ...state.settings.weights },
    roundTrips: state.roundTrips,
    stopThreshold: state.settings.threshold,
    completenessThreshold: state.settings.completenessThreshold,
    graphCalls: state.graphCalls,
    indexSearches: stop.indexSearches,
  };
}

/**
 * One depth of the search, as the report describes it: fetch the frontier, grow the beam, grow and
 * join the connector regions, pool and keep the best W, measure equation (9)'s gain, choose the
 * paths grown next, decide whether to stop. Returns the stop reason when the search ends.
 */
async function searchDepth(state: TraversalState, depth: number, abortSignal: AbortSignal | undefined): Promise<{ reason?: StopReason; kept: number }> {
  throwIfAborted(abortSignal, 'traversal');
  const frontier = await fetchFrontier(state, abortSignal);
  if (!frontier) return { reason: 'exhausted', kept: 0 };
  const { neighbors, cut, hubScanCut } = frontier;
  const beamCandidates = growBeam(state, neighbors, depth);
  let connectorCandidates: Candidate[] = [];
  let regionHubsHeld = 0;
  if (state.regions.length > 0) {
    regionHubsHeld = growRegions(state, neighbors);
    connectorCandidates = joinRegions(state, depth);
  }
  const pool = poolCandidates(state, [beamCandidates, connectorCandidates], depth);
  state.pathsEvaluated += beamCandidates.length + connectorCandidates.length;
  const gain = cumulativeGain(state, pool.kept);
  const { beam, grown } = nextBeam(state, pool);
  state.beam = beam;
  const decision = stopDecision(state, { depth, gain, keptCount: pool.kept.length, grownCount: beam.length });
  const { signals, tracker } = state;
  state.depths.push({
    depth,
    candidates: beamCandidates.length + connectorCandidates.length,
    connectorCandidates: connectorCandidates.length,
    beam: pool.kept.map((candidate) => candidate.path),
    gain: gain.gain,
    completeness: gain.completeness,
    newNodes: gain.newNodes,
    newEdges: gain.newEdges,
    threshold: state.settings.threshold,
    stop: decision.stop,
    coveredTargets: tracker.coveredTargets().map((i) => signals.targets[i].text),
    coveredFacets: tracker.coveredFacets().map((i) => signals.facets[i].text),
    grown: grown.map((candidate) => candidate.path.id),
    neighborsCut: cut,
    hubScanCut,
    regionHubsHeld,
  });
  return { ...(decision.reason ? { reason: decision.reason } : {}), kept: pool.kept.length };
}

/**
 * Beam traversal with the connector view and cumulative-gain stopping (report §5.4–5.5).
 * One `graph.neighbors` call per depth for every frontier node (beam ends and connector
 * region frontiers), one `graph.getNodeSummaries` (else `getNodes`) call per depth for the nodes of the expanded relations seen for the first time.
 * The phases live in their own modules: beam-view (grow, refill), connector-view (regions,
 * joins), candidate-pool, cumulative-gain (equation 9 and the stop rule).
 */
export function createBeamTraverser(options: BeamTraverserOptions = {}): Traverser<BeamTraversalTrace> {
  const parsed = parseOptions(options);
  // Shared across questions: question-independent text features (id → label maps are shared by
  // every stage: labelMapOf's own cache).
  const sharedTextCache = parsed.textCacheEntries > 0 ? new TextFeaturesCache({ maxEntries: parsed.textCacheEntries }) : undefined;
  const boundTables = new NeighborBoundTables();
  const labelScorePool = new LabelScorePool();
  const scanArrays = new HubScanArrays();

  async function traverse(traverseOptions: TraverseOptions): Promise<Traversal<BeamTraversalTrace>> {
    const { context, index, seeds, abortSignal } = traverseOptions;
    throwIfAborted(abortSignal, 'traversal');
    const settings = settingsFor(parsed, context.policy);
    const counters = { settings, depths: [], pathsEvaluated: 0, roundTrips: 0, graphCalls: 0 };
    const seedTarget = new Map<string, number | undefined>();
    for (const seed of seeds) if (!seedTarget.has(seed.nodeId)) seedTarget.set(seed.nodeId, seed.targetIndex);
    if (seedTarget.size === 0) return { paths: [], trace: traceOf(counters, { reason: 'no-seeds', depthReached: 0, indexSearches: 0 }) };

    const entities = new Map<string, NodeSummary>();
    for (const node of await fetchNodes(index.graph, [...seedTarget.keys()])) entities.set(node.id, node);
    counters.graphCalls += 1;
    throwIfAborted(abortSignal, 'traversal');
    const validSeeds = [...seedTarget.keys()].filter((id) => entities.has(id));
    if (validSeeds.length === 0) return { paths: [], trace: traceOf(counters, { reason: 'no-seeds', depthReached: 0, indexSearches: 0 }) };

    // The question's dense label scores go back to the pool once the traversal is over (paths and
    // trace hold none of them).
    const loan = labelScorePool.loan();
    try {
      const signals = await buildQuestionSignals({
        index: index as typeof index & IndexVectorAccessors,
        context,
        searchLimit: parsed.searchLimit,
        lexicalWeight: parsed.lexicalWeight,
        contextWeight: parsed.contextWeight,
        useStoredVectors: parsed.useStoredVectors,
        skipUnusedEntityScores: true,
        labelScores: loan,
        abortSignal,
      });
      const seedSet = new Set(validSeeds);
      const graphInfo = { hubDegree: index.graph.hubDegree, maxDegree: index.graph.maxDegree };
      const features = new FeatureCache(signals, graphInfo, seedSet, parsed.matchThresholds, sharedTextCache ?? new TextFeaturesCache(), boundTables);
      const state: TraversalState = {
        ...counters,
        graph: index.graph,
        signals,
        features,
        entities,
        tracker: new CompletenessTracker(signals.targets.length, signals.facets.length, seedSet),
        accumulatedNodes: new Set(validSeeds),
        accumulatedEdges: new Set(),
        beam: [],
        regions: [],
        scored: new Map(),
        keptNeighbors: new Map(),
        scanArrays,
      };
      for (const id of validSeeds) state.tracker.addNode(features.node(entities.get(id)!));
      if (context.policy.useConnector) state.regions = startRegions(state, validSeeds, seedTarget);
      state.beam = startBeam(state, validSeeds);

      let reason: StopReason = 'max-depth';
      let depthReached = 0;
      for (let depth = 1; depth <= settings.maxDepth; depth += 1) {
        const step = await searchDepth(state, depth, abortSignal);
        if (step.kept > 0) depthReached = depth;
        if (step.reason) {
          reason = step.reason;
          break;
        }
      }
      const paths = [...state.scored.values()].map((entry) => entry.best).sort(comparePaths);
      return { paths, trace: traceOf(state, { reason, depthReached, indexSearches: signals.indexSearches }) };
    } finally {
      loan.returnAll();
    }
  }

  return { specificationVersion: 'v1', id: options.id ?? 'beam', traverse };
}
