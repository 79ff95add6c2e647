import { DEFAULT_POLICY, policyControls } from '@mosaic/policy-schema';
import { locateSpan } from '@mosaic/stage-utils';
import { STOP_MIN_COMPLETENESS } from '@mosaic/stage-utils/internal';
import type { AskResult } from '@mosaic/pipeline';
import type { ChunkStore, DepthTrace, EntityNode, GraphStore, PathRole, RelationEdge, StopReason } from '@mosaic/spec';
import type { ExplorerAskResponse, ExplorerDepth, ExplorerEdge, ExplorerNode, ExplorerPath, ExplorerWindow, PolicyRequest } from './explorer-types.js';
import { highlightWindow } from './highlight-window.js';

export interface ExploreRetrievalOptions {
  /** What `mosaic.ask` returned. */
  result: AskResult;
  /** The graph the retrieval ran over (node names, degrees, hub degree). */
  graph: GraphStore;
  /** The index's chunks (to highlight the evidence's source text inside windows) and document outlines (to say where each window sits). */
  chunks: Pick<ChunkStore, 'getChunk' | 'documentOutline'>;
  corpus: string;
  policyRequest: PolicyRequest;
}

/** Optional extras a traverser may add to its depth trace (the beam traverser does). */
interface DepthExtras {
  coveredTargets?: string[];
  coveredFacets?: string[];
}

const DESCRIPTION_CHARS = 240;

function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function containsWords(haystack: string, needle: string): boolean {
  return needle.length > 0 && ` ${haystack} `.includes(` ${needle} `);
}

/** Indices of the policy's target entities a node name stands for. */
function targetsOf(name: string, targets: readonly string[]): number[] {
  const n = normalize(name);
  const out: number[] = [];
  targets.forEach((target, i) => {
    const t = normalize(target);
    if (t.length === 0 || n.length === 0) return;
    if (n === t || containsWords(n, t) || (n.length >= 4 && containsWords(t, n))) out.push(i);
  });
  return out;
}

function describeDepth(
  depth: DepthTrace,
  context: { last: boolean; stopReason: StopReason; minCompleteness: number; maxDepth: number; fixedDepth: boolean },
): string {
  const gainLow = depth.gain <= depth.threshold;
  const complete = depth.completeness >= context.minCompleteness;
  const numbers = `gain ${depth.gain.toFixed(3)} ${gainLow ? '≤' : '>'} ε ${depth.threshold}, completeness ${depth.completeness.toFixed(2)} ${complete ? '≥' : '<'} ${context.minCompleteness}`;
  if (depth.stop) {
    const reason = context.last ? context.stopReason : 'low-gain';
    if (reason === 'low-gain') return `stop (low gain): ${numbers}`;
    if (reason === 'max-depth') return `stop (max depth ${context.maxDepth} reached): ${numbers}`;
    if (reason === 'exhausted') return `stop (nothing left to grow): ${numbers}`;
    return `stop (${reason}): ${numbers}`;
  }
  if (context.fixedDepth) return `continue (fixed policy: no low-gain stop before depth ${context.maxDepth}): ${numbers}`;
  if (depth.depth < 2) return `continue (the low-gain stop applies from depth 2): ${numbers}`;
  if (!gainLow) return `continue (the depth still added enough new nodes and edges): ${numbers}`;
  if (!complete) return `continue (gain is low, but the evidence is not yet complete enough): ${numbers}`;
  return `continue: ${numbers}`;
}

function pushUnique<T>(list: T[], value: T): void {
  if (!list.includes(value)) list.push(value);
}

/**
 * Turn one `ask` result into what the explorer draws: the explored subgraph (every node and edge of
 * the kept beams, the seeds and the selected paths, with seed/target/hub flags, first depth, beam vs
 * connector, selected roles), the stop decision per depth, the selected paths with names, the
 * windows split into highlighted runs linked to their evidence, the answer and readable fallback notices.
 */
export async function exploreRetrieval(options: ExploreRetrievalOptions): Promise<ExplorerAskResponse> {
  const { result, graph, chunks } = options;
  const { policy, trace } = result;
  const traversal = trace.traversal;

  const nodeDepth = new Map<string, number>();
  const edgeInfo = new Map<string, { depth: number; beamDepths: number[]; connector: boolean; beam: boolean; roles: PathRole[] }>();
  const nodeRoles = new Map<string, PathRole[]>();
  const reach = (node: string, depth: number) => nodeDepth.set(node, Math.min(nodeDepth.get(node) ?? depth, depth));
  const touchEdge = (edge: string, depth: number, origin: 'beam' | 'connector', kept: boolean) => {
    let info = edgeInfo.get(edge);
    if (!info) edgeInfo.set(edge, (info = { depth, beamDepths: [], connector: false, beam: false, roles: [] }));
    info.depth = Math.min(info.depth, depth);
    if (kept) pushUnique(info.beamDepths, depth);
    if (origin === 'connector') info.connector = true;
    else info.beam = true;
  };

  for (const seed of result.seeds) reach(seed.nodeId, 0);
  for (const depth of traversal.depths) {
    for (const path of depth.beam) {
      for (const node of path.nodes) reach(node, depth.depth);
      for (const edge of path.edges) touchEdge(edge, depth.depth, path.origin, true);
    }
  }
  for (const path of result.paths) {
    for (const node of path.nodes) {
      reach(node, path.depth);
      pushUnique(nodeRoles.get(node) ?? nodeRoles.set(node, []).get(node)!, path.role);
    }
    for (const edge of path.edges) {
      touchEdge(edge, path.depth, path.origin, false);
      pushUnique(edgeInfo.get(edge)!.roles, path.role);
    }
  }
  // Relation evidence may name edges outside the drawn paths only in unusual traversers; fetch them too.
  const relationIds = result.evidence.filter((u) => u.kind === 'relation').map((u) => u.refId);
  const entityIds = result.evidence.filter((u) => u.kind === 'entity').map((u) => u.refId);

  const [nodeList, edgeList, extraEdges] = await Promise.all([
    graph.getNodes([...new Set([...nodeDepth.keys(), ...entityIds])]),
    graph.getEdges([...edgeInfo.keys()]),
    graph.getEdges(relationIds.filter((id) => !edgeInfo.has(id))),
  ]);
  const nodesById = new Map<string, EntityNode>(nodeList.map((n) => [n.id, n]));
  const edgesById = new Map<string, RelationEdge>([...edgeList, ...extraEdges].map((e) => [e.id, e]));
  const endpointIds = [...extraEdges.flatMap((e) => [e.source, e.target])].filter((id) => !nodesById.has(id));
  if (endpointIds.length > 0) for (const n of await graph.getNodes(endpointIds)) nodesById.set(n.id, n);
  const nameOf = (id: string) => nodesById.get(id)?.name ?? id;

  const seedIndex = new Map(result.seeds.map((s, i) => [s.nodeId, i]));
  const nodes: ExplorerNode[] = [];
  for (const [id, depth] of nodeDepth) {
    const node = nodesById.get(id);
    if (!node) continue;
    const seedAt = seedIndex.get(id);
    const seed = seedAt === undefined ? undefined : result.seeds[seedAt]!;
    const targetIndices = targetsOf(node.name, policy.targetEntities);
    if (seed?.targetIndex !== undefined && !targetIndices.includes(seed.targetIndex)) targetIndices.unshift(seed.targetIndex);
    nodes.push({
      id,
      name: node.name,
      type: node.type,
      description: node.description.length > DESCRIPTION_CHARS ? `${node.description.slice(0, DESCRIPTION_CHARS - 1)}…` : node.description,
      degree: node.degree,
      hub: node.degree >= graph.hubDegree,
      seed: seed !== undefined,
      ...(seed ? { seedRank: seedAt! + 1, seedScore: seed.score } : {}),
      targetIndices,
      depth,
      roles: nodeRoles.get(id) ?? [],
    });
  }
  const drawn = new Set(nodes.map((n) => n.id));
  const edges: ExplorerEdge[] = [];
  for (const [id, info] of edgeInfo) {
    const edge = edgesById.get(id);
    if (!edge || !drawn.has(edge.source) || !drawn.has(edge.target)) continue;
    edges.push({ id, source: edge.source, target: edge.target, label: edge.label, ...info, beamDepths: info.beamDepths.sort((a, b) => a - b) });
  }

  const extras = traversal as typeof traversal & { completenessThreshold?: number };
  const minCompleteness = typeof extras.completenessThreshold === 'number' ? extras.completenessThreshold : STOP_MIN_COMPLETENESS;
  const depths: ExplorerDepth[] = traversal.depths.map((depth, i) => {
    const more = depth as DepthTrace & DepthExtras;
    return {
      depth: depth.depth,
      candidates: depth.candidates,
      connectorCandidates: depth.connectorCandidates,
      beam: depth.beam.map((p) => ({ id: p.id, nodes: p.nodes, edges: p.edges, seed: p.seed, origin: p.origin, score: p.score, terms: p.terms })),
      newNodes: depth.newNodes,
      newEdges: depth.newEdges,
      gain: depth.gain,
      threshold: depth.threshold,
      completeness: depth.completeness,
      minCompleteness,
      ...(more.coveredTargets ? { coveredTargets: more.coveredTargets } : {}),
      ...(more.coveredFacets ? { coveredFacets: more.coveredFacets } : {}),
      stop: depth.stop,
      decision: describeDepth(depth, {
        last: i === traversal.depths.length - 1,
        stopReason: traversal.stopReason,
        minCompleteness,
        maxDepth: policy.maxDepth,
        fixedDepth: policy.fixedDepth === true,
      }),
    };
  });

  const paths: ExplorerPath[] = result.paths.map((p) => ({
    id: p.id,
    role: p.role,
    rank: p.rank,
    score: p.score,
    origin: p.origin,
    depth: p.depth,
    seed: p.seed,
    nodes: p.nodes,
    edges: p.edges,
    names: p.nodes.map(nameOf),
    labels: p.edges.map((e) => edgesById.get(e)?.label ?? e),
    terms: p.terms,
  }));

  const windowRanks = new Map<string, number[]>();
  result.windows.forEach((w, i) => {
    for (const id of w.evidenceIds) (windowRanks.get(id) ?? windowRanks.set(id, []).get(id)!).push(i + 1);
  });
  const evidence = result.evidence.map((unit) => ({ ...unit, windowRanks: windowRanks.get(unit.id) ?? [] }));
  const unitsById = new Map(result.evidence.map((u) => [u.id, u]));
  const terms = new Map<string, string[]>();
  for (const unit of result.evidence) {
    if (unit.kind === 'entity') {
      const node = nodesById.get(unit.refId);
      if (node) terms.set(unit.id, [node.name, ...node.aliases]);
    } else {
      const edge = edgesById.get(unit.refId);
      if (edge) terms.set(unit.id, [nameOf(edge.source), nameOf(edge.target)]);
    }
  }
  const cited = new Set(result.answer.citations.map((c) => c.windowId));
  const windows: ExplorerWindow[] = result.windows.map((w, i) => ({
    rank: i + 1,
    id: w.id,
    documentId: w.documentId,
    start: w.start,
    end: w.end,
    source: w.source ?? locateSpan(w.documentId, w.start, w.end, chunks.documentOutline?.(w.documentId)),
    score: w.score,
    ...(w.scores ? { scores: w.scores } : {}),
    evidenceIds: w.evidenceIds,
    segments: highlightWindow({
      window: w,
      evidence: w.evidenceIds.map((id) => unitsById.get(id)).filter((u) => u !== undefined),
      getChunk: (id) => chunks.getChunk(id),
      terms,
    }),
    cited: cited.has(w.id),
  }));

  const notices: string[] = [];
  const { analysis, answer } = result;
  if (analysis.fallback)
    notices.push(`The analyzer ${analysis.fallback.from} failed (${analysis.fallback.reason}); the policy below came from ${analysis.analyzer} instead.`);
  if (answer.fallback)
    notices.push(`The generator ${answer.fallback.from} failed (${answer.fallback.reason}); the answer below came from ${answer.generator} instead.`);
  if (result.seeds.length === 0) notices.push('No seed node matched the question, so nothing was traversed.');

  const defaults = policyControls(DEFAULT_POLICY);
  return {
    corpus: options.corpus,
    question: result.question.text,
    policyRequest: options.policyRequest,
    policy,
    defaults,
    analysis: {
      analyzer: analysis.analyzer,
      changes: analysis.changes.filter((c) => c.kind !== 'defaulted'),
      defaulted: analysis.changes.filter((c) => c.kind === 'defaulted').map((c) => c.field),
      ...(analysis.fallback ? { fallback: analysis.fallback } : {}),
      ...(analysis.cacheHit !== undefined ? { cacheHit: analysis.cacheHit } : {}),
      latencyMs: analysis.latencyMs,
    },
    seeds: result.seeds,
    seedQueries: trace.seeds.queries,
    graph: { nodes, edges, hubDegree: graph.hubDegree, maxDegree: graph.maxDegree },
    traversal: {
      depths,
      stopReason: traversal.stopReason,
      depthReached: traversal.depthReached,
      pathsEvaluated: traversal.pathsEvaluated,
      weights: traversal.weights,
    },
    paths,
    evidence,
    windows,
    answer,
    timings: result.timings,
    effort: result.effort,
    notices,
  };
}
