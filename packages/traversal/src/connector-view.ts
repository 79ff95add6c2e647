import type { Neighbor, RelationEdge } from '@mosaic/spec';
import { scoredPath } from './beam-view.js';
import type { EdgeFeatures, NodeFeatures } from './path-features.js';
import { compareStrings, firstInOrder, forwardFirst, pathId, reversedPathId } from '@mosaic/stage-utils/internal';
import { pathTerms } from './path-scorer.js';
import { entityOf, hopsOf, type Candidate, type HalfPath, type Region, type TraversalState } from './traversal-state.js';

/**
 * The connector view's regions (report §5.4): one per seed, grouped by the target the seed was
 * chosen for (or the first target it matches; else a group of its own). Empty when fewer than two
 * groups exist — there is nothing to connect.
 */
export function startRegions(state: TraversalState, seeds: readonly string[], seedTarget: ReadonlyMap<string, number | undefined>): Region[] {
  const regions = seeds.map((seed): Region => {
    const explicit = seedTarget.get(seed);
    const matched = state.features.node(entityOf(state, seed)).targetMatch.findIndex(Boolean);
    const group = explicit !== undefined ? `target:${explicit}` : matched >= 0 ? `target:${matched}` : `seed:${seed}`;
    const start: HalfPath = { node: seed, relation: undefined, parent: undefined, length: 0 };
    return { seed, group, reached: new Map([[seed, start]]), fresh: [seed], frontier: [seed] };
  });
  return new Set(regions.map((region) => region.group)).size < 2 ? [] : regions;
}

/**
 * Grows every region by one level: each frontier node's unreached neighbours join the region.
 * The next frontier is the `connectorFrontier` new nodes with the best reaching relation r(e)
 * (then node id), leaving out nodes with more than `maxHubScan` relations: such a hub joins the
 * region, so two regions can still meet there, but the region does not grow through it. A meeting
 * beyond a hub of thousands of relations joins the seeds through the most generic node of the path
 * (which the hub-exposure term penalises), and choosing its best relations reads every one of them:
 * at 100 MB of text, the questions whose regions crossed hubs bounded 57,000–94,000 relations each for
 * the connector view alone (docs/results/issue-31.md, session 31). Returns how many new nodes were left
 * off the frontiers for that (`BeamDepthTrace.regionHubsHeld`); none on GraphRAG-Bench Medical and
 * Novel, whose largest node has 1,037 relations.
 */
export function growRegions(state: TraversalState, neighbors: ReadonlyMap<string, readonly Neighbor[]>): number {
  const { features, settings } = state;
  let held = 0;
  for (const region of state.regions) {
    const next = new Map<string, HalfPath>();
    for (const node of region.frontier) {
      const half = region.reached.get(node)!;
      for (const neighbor of neighbors.get(node) ?? []) {
        if (region.reached.has(neighbor.node) || next.has(neighbor.node)) continue;
        next.set(neighbor.node, { node: neighbor.node, relation: neighbor.edge, parent: half, length: half.length + 1 });
      }
    }
    const ranked: { node: string; relation: number }[] = [];
    for (const [node, half] of next) {
      region.reached.set(node, half);
      if (entityOf(state, node).degree > settings.maxHubScan) {
        held += 1;
        continue;
      }
      ranked.push({ node, relation: features.relationScore(half.relation!) });
    }
    region.fresh = [...next.keys()];
    region.frontier = firstInOrder(ranked, settings.connectorFrontier, (a, b) => b.relation - a.relation || compareStrings(a.node, b.node)).map(
      (entry) => entry.node,
    );
  }
  return held;
}

interface Join {
  nodes: string[];
  edges: string[];
  relations: RelationEdge[];
  seed: string;
  id: string;
  back: string;
  key: string;
}

/**
 * Where regions of different groups meet, the joined seed-to-seed paths not scored before, as
 * connector candidates: the `maxConnectorCandidates` shortest (then by id), scored whole.
 *
 * Meetings are bucketed by the length of the joined path. A join runs from region a's seed to
 * region b's seed, so joins of different region pairs never share a key, and joins of one pair
 * with the same key are the same path: the joins kept only depend on the shortest buckets, and
 * longer ones are never built.
 */
export function joinRegions(state: TraversalState, depth: number): Candidate[] {
  const { regions, settings } = state;
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
  const joins = new Map<string, Join>();
  for (const length of [...buckets.keys()].sort((x, y) => x - y)) {
    if (joins.size >= settings.maxConnectorCandidates) break;
    for (const { a, b, meet } of buckets.get(length)!) {
      const join = joinAt(a, b, meet);
      if (join && !state.scored.has(join.key) && !joins.has(join.key)) joins.set(join.key, join);
    }
  }
  const ordered = firstInOrder([...joins.values()], settings.maxConnectorCandidates, (x, y) => x.edges.length - y.edges.length || compareStrings(x.id, y.id));
  return ordered.map((join) => ({
    path: scoreWhole(state, join, depth),
    key: join.key,
    back: join.back,
    from: undefined,
    relation: undefined,
    hops: hopsOf(join.relations),
  }));
}

/** The path from a's seed through `meet` to b's seed; undefined when the halves share a node. */
function joinAt(a: Region, b: Region, meet: string): Join | undefined {
  const left = a.reached.get(meet)!;
  const right = b.reached.get(meet)!;
  const nodes = [...halfNodes(left), ...halfNodes(right).slice(0, -1).reverse()];
  if (new Set(nodes).size !== nodes.length) return undefined;
  const relations = [...halfRelations(left), ...halfRelations(right).reverse()];
  const edges = relations.map((relation) => relation.id);
  const id = pathId(nodes, edges);
  const back = reversedPathId(nodes, edges);
  return { nodes, edges, relations, seed: a.seed, id, back, key: smallerId(id, back, nodes[0], nodes[nodes.length - 1]) };
}

/** A joined path scored from scratch (equation 8 over all its nodes and edges). */
function scoreWhole(state: TraversalState, join: Join, depth: number) {
  const nodeFeatures: NodeFeatures[] = join.nodes.map((node) => state.features.node(entityOf(state, node)));
  const edgeFeatures: EdgeFeatures[] = join.relations.map((relation) => state.features.edge(relation));
  return scoredPath(state, pathTerms(nodeFeatures, edgeFeatures), join.nodes, join.edges, join.id, join.seed, 'connector', depth);
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

/** The smaller of a path's forward and reversed ids (its canonical key), given both and its end node ids. */
function smallerId(forward: string, backward: string, first: string | undefined, last: string | undefined): string {
  const decided = forwardFirst(first, last);
  if (decided !== undefined) return decided ? forward : backward;
  return forward <= backward ? forward : backward;
}
