import type { Policy, ScoredPath, Seed } from '@mosaic/spec';
import { matchTokens, normalizeLabel, tokenContainment } from '@mosaic/stage-utils';
import type { GraphFacts } from './graph-facts.js';

/** A considered path with what it covers: the policy's targets and facets, and its first relation's label. */
export interface PathInfo {
  path: ScoredPath;
  key: string;
  targets: Set<number>;
  facets: Set<number>;
  firstLabel: string;
}

/** The policy's targets and facets, and how to tell which of them a path covers. */
export interface PathCoverage {
  targets: string[];
  facets: string[];
  /** Coverage of one path, read from the graph facts fetched so far. */
  info(key: string, path: ScoredPath): PathInfo;
}

/**
 * Coverage (report §5.6): a path covers target i when one of its nodes is a seed chosen for target i
 * or has a name or alias containing ≥ `matchThreshold` of the target's content tokens; it covers a
 * facet when a node's name + description or an edge's label + keywords + description does.
 */
export function pathCoverage(options: { policy: Policy; seeds: readonly Seed[]; facts: GraphFacts; matchThreshold: number }): PathCoverage {
  const { policy, seeds, facts, matchThreshold } = options;
  const targets = (policy.targetEntities ?? []).map((text) => text.trim()).filter((text) => text.length > 0);
  const facets = (policy.targetFacets ?? []).map((text) => text.trim()).filter((text) => text.length > 0);
  const targetTokens = targets.map((text) => new Set(matchTokens(text)));
  const facetTokens = facets.map((text) => new Set(matchTokens(text)));
  const seedTarget = new Map<string, number>();
  for (const seed of seeds) if (seed.targetIndex !== undefined && !seedTarget.has(seed.nodeId)) seedTarget.set(seed.nodeId, seed.targetIndex);
  // An unknown node's names are remembered as none; texts are computed once the node or edge is known.
  const nameTokens = memo((id) => {
    const node = facts.nodes.get(id);
    return node ? [node.name, ...(node.aliases ?? [])].map((name) => new Set(matchTokens(name))) : [];
  });
  const nodeText = memo((id) => {
    const node = facts.nodes.get(id);
    return node ? new Set(matchTokens(`${node.name} ${node.description ?? ''}`)) : undefined;
  });
  const edgeText = memo((id) => {
    const edge = facts.edges.get(id);
    return edge ? new Set(matchTokens(`${edge.label} ${(edge.keywords ?? []).join(' ')} ${edge.description ?? ''}`)) : undefined;
  });
  const coveredFacets = (text: ReadonlySet<string> | undefined, into: Set<number>) => {
    if (text)
      facetTokens.forEach((tokens, i) => {
        tokenContainment(tokens, text) >= matchThreshold && into.add(i);
      });
  };
  const info = (key: string, path: ScoredPath): PathInfo => {
    const covered = new Set<number>();
    const facetsCovered = new Set<number>();
    for (const node of path.nodes) {
      const fromSeed = seedTarget.get(node);
      if (fromSeed !== undefined && fromSeed < targets.length) covered.add(fromSeed);
      if (targetTokens.length > 0) {
        const names = nameTokens(node);
        targetTokens.forEach((tokens, i) => {
          if (names.some((name) => tokenContainment(tokens, name) >= matchThreshold)) covered.add(i);
        });
      }
      if (facetTokens.length > 0) coveredFacets(nodeText(node), facetsCovered);
    }
    if (facetTokens.length > 0) for (const edge of path.edges) coveredFacets(edgeText(edge), facetsCovered);
    const first = facts.edges.get(path.edges[0]);
    return { path, key, targets: covered, facets: facetsCovered, firstLabel: normalizeLabel(first?.label ?? path.edges[0]) };
  };
  return { targets, facets, info };
}

/** A function of an id, memoised once it gives a value (undefined is asked again). */
function memo<T>(compute: (id: string) => T): (id: string) => T {
  const cache = new Map<string, T>();
  return (id) => {
    const cached = cache.get(id);
    if (cached !== undefined) return cached;
    const value = compute(id);
    if (value !== undefined) cache.set(id, value);
    return value;
  };
}
