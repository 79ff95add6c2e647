import type { Neighbor, PathScoreTerms, ScoredPath } from '@mosaic/spec';
import { comparePaths, firstInOrder, forwardFirst } from '@mosaic/stage-utils/internal';
import { extendTermState, extendTermStateInto, pathScore, startTermState, stateTerms, type PathTermState } from './path-scorer.js';
import { entityOf, hopsOfCandidate, type Candidate, type PartialPath, type TraversalState } from './traversal-state.js';

/** Best first (comparePaths on the candidates' paths). */
export function byRank(a: Candidate, b: Candidate): number {
  return comparePaths(a.path, b.path);
}

/** A ScoredPath from its terms (equation 8 with the traversal's weights). */
export function scoredPath(
  state: TraversalState,
  terms: PathScoreTerms,
  nodes: string[],
  edges: string[],
  id: string,
  seed: string,
  origin: ScoredPath['origin'],
  depth: number,
): ScoredPath {
  return { id, nodes, edges, score: pathScore(terms, edges.length, state.settings.weights), terms, seed, origin, depth };
}

/** The beam at depth 0: one single-node path per seed. */
export function startBeam(state: TraversalState, seeds: readonly string[]): PartialPath[] {
  return seeds.map((seed) => ({
    nodes: [seed],
    edges: [],
    seed,
    id: seed,
    back: seed,
    state: startTermState(state.features.node(entityOf(state, seed))),
    hops: undefined,
  }));
}

/**
 * Beam view (report §5.4): every path of the beam grows by one edge, never revisiting a node.
 * Ids and term sums grow by one hop (forward appends, reversed prepends), so a candidate costs
 * O(1) apart from its arrays. With `maxCandidatesPerPath`, only the best M expansions of each
 * path are kept.
 */
export function growBeam(state: TraversalState, neighbors: ReadonlyMap<string, readonly Neighbor[]>, depth: number): Candidate[] {
  const { features, settings } = state;
  const out: Candidate[] = [];
  let scratch: PathTermState | undefined;
  for (const path of state.beam) {
    scratch ??= startTermState(features.node(entityOf(state, path.seed)));
    const last = path.nodes[path.nodes.length - 1];
    let expansions: Candidate[] = [];
    for (const neighbor of neighbors.get(last) ?? []) {
      const node = neighbor.node;
      if (path.nodes.includes(node)) continue;
      const edge = neighbor.edge.id;
      const id = `${path.id}|${edge}|${node}`;
      const terms = stateTerms(extendTermStateInto(scratch, path.state, features.edge(neighbor.edge), features.node(entityOf(state, node))));
      const candidate = scoredPath(state, terms, [...path.nodes, node], [...path.edges, edge], id, path.seed, 'beam', depth);
      // The canonical key is the smaller of the forward and reversed ids; the reversed id is built
      // only when the end node ids do not decide it.
      const decided = forwardFirst(path.nodes[0], node);
      let key = id;
      let back: string | undefined;
      if (decided !== true) {
        back = `${node}|${edge}|${path.back}`;
        if (decided === false || back < id) key = back;
      }
      expansions.push({ path: candidate, key, back, from: path, relation: neighbor.edge, hops: undefined });
    }
    if (settings.maxCandidatesPerPath !== undefined && expansions.length > settings.maxCandidatesPerPath) {
      expansions = firstInOrder(expansions, settings.maxCandidatesPerPath, byRank);
    }
    for (const expansion of expansions) out.push(expansion);
  }
  return out;
}

/**
 * The paths grown at the next depth. With refill (the default), the best W candidates of the
 * pool that can still grow — kept dead ends and connector paths pass their slot on, and of paths
 * with the same node sequence (parallel edges) only the best is grown. Without refill, the kept
 * beam paths of beam origin.
 */
export function nextBeam(state: TraversalState, pool: { ranked: Candidate[]; all: readonly Candidate[] }): { beam: PartialPath[]; grown: Candidate[] } {
  const { width, refillBeam } = state.settings;
  let grown: Candidate[];
  if (refillBeam) {
    const growable = (path: ScoredPath): boolean => path.origin === 'beam' && (state.entities.get(path.nodes[path.nodes.length - 1])?.degree ?? 0) > 1;
    const sequences = new Set<string>();
    let ranked = pool.ranked;
    grown = [];
    for (let i = 0; grown.length < width; i += 1) {
      if (i >= ranked.length) {
        // The bounded ranking ran out: rank the whole pool once.
        if (ranked.length >= pool.all.length) break;
        ranked = [...pool.all].sort(byRank);
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
    grown = pool.ranked.slice(0, width).filter((candidate) => candidate.path.origin === 'beam');
  }
  const beam = grown.map((candidate) => {
    const { path, from, relation } = candidate;
    const last = path.nodes[path.nodes.length - 1];
    const back = candidate.back ?? `${last}|${relation!.id}|${from!.back}`;
    const termState = extendTermState(from!.state, state.features.edge(relation!), state.features.node(entityOf(state, last)));
    return { nodes: path.nodes, edges: path.edges, seed: path.seed, id: path.id, back, state: termState, hops: hopsOfCandidate(candidate) };
  });
  return { beam, grown };
}
