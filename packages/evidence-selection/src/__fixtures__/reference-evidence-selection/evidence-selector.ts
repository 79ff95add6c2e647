// Test oracle: this file as it was before the performance work (commit d6aeda6), unchanged.
// The optimised implementation must return deep-equal results; see performance-equivalence.test.ts.

import { InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type {
  EntityNode,
  EvidenceSelection,
  EvidenceSelector,
  EvidenceTrace,
  EvidenceUnit,
  PathRole,
  RelationEdge,
  ScoredPath,
  SelectEvidenceOptions,
  SelectedPath,
} from '@mosaic/spec';
import { contentTokens, normalizeLabel, tokenContainment } from './text-tokens.js';

export interface EvidenceSelectorOptions {
  /** Paths the shared filter looks at, best first (default 10). */
  filterSize?: number;
  /** Paths selected at most (default 8). */
  maxPaths?: number;
  /** Core paths kept first with adaptive final evidence (default 4). */
  coreSlots?: number;
  /** Slots reserved for complementary roles with adaptive final evidence (default 4). */
  reservedSlots?: number;
  /**
   * The filter drops considered paths scoring more than this below the best path
   * (default Infinity: no score cut; the filter then only bounds the candidates to `filterSize`).
   */
  scoreMargin?: number;
  /** Token containment at or above which a path covers a target or facet (default 0.5). */
  matchThreshold?: number;
  /** Selector id (default 'mosaic-evidence'). */
  id?: string;
}

/** EvidenceTrace plus the filter and coverage details. */
export interface EvidenceSelectionTrace extends EvidenceTrace {
  /** Considered paths dropped by the score margin. */
  filtered: number;
  adaptive: boolean;
  /** Policy targets / facets covered by the selected paths. */
  coveredTargets: string[];
  coveredFacets: string[];
  /** The evidence cap B and floor L applied. */
  evidenceCount: number;
  minEvidence: number;
}

interface PathInfo {
  path: ScoredPath;
  key: string;
  targets: Set<number>;
  facets: Set<number>;
  firstLabel: string;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function pathKey(nodes: readonly string[], edges: readonly string[]): string {
  const interleave = (n: readonly string[], e: readonly string[]) => n.flatMap((node, i) => (i < e.length ? [node, e[i]] : [node])).join('|');
  const forward = interleave(nodes, edges);
  const backward = interleave([...nodes].reverse(), [...edges].reverse());
  return forward <= backward ? forward : backward;
}

function comparePaths(a: ScoredPath, b: ScoredPath): number {
  return b.score - a.score || compareStrings(a.id, b.id);
}

function count(value: number | undefined, name: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (!(value >= min) || Number.isNaN(value)) throw new InvalidArgumentError({ argument: name, message: `must be a number ≥ ${min}` });
  return Number.isFinite(value) ? Math.floor(value) : value;
}

/**
 * Evidence selection (report §5.6): deduplicate and rank paths, let a shared filter look at
 * ten at most, select the global top paths or — with adaptive final evidence — four core
 * paths, up to four role reservations (connector, uncovered target, uncovered facet, new first
 * relation) and a score fill; flatten into deduplicated entity/relation units, cap at B and
 * restore the best excluded units up to the floor L.
 */
export function createEvidenceSelector(options: EvidenceSelectorOptions = {}): EvidenceSelector {
  const filterSize = count(options.filterSize, 'filterSize', 10, 1);
  const maxPaths = count(options.maxPaths, 'maxPaths', 8, 1);
  const coreSlots = count(options.coreSlots, 'coreSlots', 4);
  const reservedSlots = count(options.reservedSlots, 'reservedSlots', 4);
  const scoreMargin = options.scoreMargin ?? Number.POSITIVE_INFINITY;
  if (Number.isNaN(scoreMargin) || scoreMargin < 0) throw new InvalidArgumentError({ argument: 'scoreMargin', message: 'must be ≥ 0' });
  const matchThreshold = options.matchThreshold ?? 0.5;
  if (!(matchThreshold >= 0 && matchThreshold <= 1)) throw new InvalidArgumentError({ argument: 'matchThreshold', message: 'must lie in [0,1]' });

  async function selectEvidence(selectOptions: SelectEvidenceOptions): Promise<EvidenceSelection> {
    const { context, index, paths, seeds, abortSignal } = selectOptions;
    throwIfAborted(abortSignal, 'evidence selection');
    const policy = context.policy;
    if (!(policy.evidenceCount >= 1)) throw new InvalidArgumentError({ argument: 'policy.evidenceCount', message: 'must be ≥ 1' });
    if (!(policy.minEvidence >= 0)) throw new InvalidArgumentError({ argument: 'policy.minEvidence', message: 'must be ≥ 0' });
    const evidenceCount = Math.floor(policy.evidenceCount);
    const minEvidence = Math.floor(policy.minEvidence);
    const adaptive = policy.adaptiveFinalEvidence === true;

    // 1. Deduplicate (same node/edge sequence in either direction, best score kept) and rank.
    const byKey = new Map<string, ScoredPath>();
    for (const path of paths) {
      if (path.edges.length === 0) continue;
      const key = pathKey(path.nodes, path.edges);
      const existing = byKey.get(key);
      if (!existing || comparePaths(path, existing) < 0) byKey.set(key, path);
    }
    const ranked = [...byKey.entries()].sort((a, b) => comparePaths(a[1], b[1]));

    // Graph facts for every candidate path (two graph calls).
    const nodeIds = new Set<string>();
    const edgeIds = new Set<string>();
    for (const [, path] of ranked) {
      for (const node of path.nodes) nodeIds.add(node);
      for (const edge of path.edges) edgeIds.add(edge);
    }
    const nodes = new Map<string, EntityNode>();
    const edges = new Map<string, RelationEdge>();
    if (nodeIds.size > 0) for (const node of await index.graph.getNodes([...nodeIds].sort(compareStrings))) nodes.set(node.id, node);
    if (edgeIds.size > 0) for (const edge of await index.graph.getEdges([...edgeIds].sort(compareStrings))) edges.set(edge.id, edge);
    throwIfAborted(abortSignal, 'evidence selection');

    // Coverage of targets and facets by each path.
    const targets = (policy.targetEntities ?? []).map((text) => text.trim()).filter((text) => text.length > 0);
    const facets = (policy.targetFacets ?? []).map((text) => text.trim()).filter((text) => text.length > 0);
    const targetTokens = targets.map((text) => new Set(contentTokens(text)));
    const facetTokens = facets.map((text) => new Set(contentTokens(text)));
    const seedTarget = new Map<string, number>();
    for (const seed of seeds) if (seed.targetIndex !== undefined && !seedTarget.has(seed.nodeId)) seedTarget.set(seed.nodeId, seed.targetIndex);
    const nodeNameTokens = new Map<string, Set<string>[]>();
    const nodeTextTokens = new Map<string, Set<string>>();
    const edgeTextTokens = new Map<string, Set<string>>();
    for (const node of nodes.values()) {
      nodeNameTokens.set(node.id, [node.name, ...(node.aliases ?? [])].map((name) => new Set(contentTokens(name))));
      nodeTextTokens.set(node.id, new Set(contentTokens(`${node.name} ${node.description ?? ''}`)));
    }
    for (const edge of edges.values()) {
      edgeTextTokens.set(edge.id, new Set(contentTokens(`${edge.label} ${(edge.keywords ?? []).join(' ')} ${edge.description ?? ''}`)));
    }
    const info = (key: string, path: ScoredPath): PathInfo => {
      const covered = new Set<number>();
      const coveredFacets = new Set<number>();
      for (const node of path.nodes) {
        const fromSeed = seedTarget.get(node);
        if (fromSeed !== undefined && fromSeed < targets.length) covered.add(fromSeed);
        const names = nodeNameTokens.get(node) ?? [];
        targetTokens.forEach((tokens, i) => {
          if (names.some((nameTokens) => tokenContainment(tokens, nameTokens) >= matchThreshold)) covered.add(i);
        });
        const text = nodeTextTokens.get(node);
        if (text) facetTokens.forEach((tokens, i) => tokenContainment(tokens, text) >= matchThreshold && coveredFacets.add(i));
      }
      for (const edge of path.edges) {
        const text = edgeTextTokens.get(edge);
        if (text) facetTokens.forEach((tokens, i) => tokenContainment(tokens, text) >= matchThreshold && coveredFacets.add(i));
      }
      const first = edges.get(path.edges[0]);
      return { path, key, targets: covered, facets: coveredFacets, firstLabel: normalizeLabel(first?.label ?? path.edges[0]) };
    };
    const candidates = ranked.map(([key, path]) => info(key, path));

    // 2. The shared filter: at most `filterSize` candidates, optionally cut by a score margin.
    const consideredList = candidates.slice(0, filterSize);
    const best = consideredList[0]?.path.score ?? 0;
    const survivors = consideredList.filter((candidate) => candidate.path.score >= best - scoreMargin);
    const filtered = consideredList.length - survivors.length;

    // 3. Path selection.
    const selected: { candidate: PathInfo; role: PathRole }[] = [];
    const taken = new Set<PathInfo>();
    const coveredTargets = new Set<number>();
    const coveredFacets = new Set<number>();
    const firstLabels = new Set<string>();
    const take = (candidate: PathInfo, role: PathRole) => {
      selected.push({ candidate, role });
      taken.add(candidate);
      for (const i of candidate.targets) coveredTargets.add(i);
      for (const i of candidate.facets) coveredFacets.add(i);
      firstLabels.add(candidate.firstLabel);
    };
    if (!adaptive) {
      for (const candidate of survivors.slice(0, maxPaths)) take(candidate, 'core');
    } else {
      for (const candidate of survivors.slice(0, Math.min(coreSlots, maxPaths))) take(candidate, 'core');
      const roles: { role: PathRole; wanted: () => boolean; fits: (candidate: PathInfo) => boolean }[] = [
        {
          role: 'connector',
          wanted: () => !selected.some((entry) => entry.candidate.path.origin === 'connector'),
          fits: (candidate) => candidate.path.origin === 'connector',
        },
        {
          role: 'uncovered-target',
          wanted: () => coveredTargets.size < targets.length,
          fits: (candidate) => [...candidate.targets].some((i) => !coveredTargets.has(i)),
        },
        {
          role: 'uncovered-facet',
          wanted: () => coveredFacets.size < facets.length,
          fits: (candidate) => [...candidate.facets].some((i) => !coveredFacets.has(i)),
        },
        { role: 'new-relation', wanted: () => true, fits: (candidate) => !firstLabels.has(candidate.firstLabel) },
      ];
      let reserved = 0;
      for (const { role, wanted, fits } of roles) {
        if (reserved >= reservedSlots || selected.length >= maxPaths) break;
        if (!wanted()) continue;
        const match = survivors.find((candidate) => !taken.has(candidate) && fits(candidate));
        if (!match) continue;
        take(match, role);
        reserved += 1;
      }
      for (const candidate of survivors) {
        if (selected.length >= maxPaths) break;
        if (!taken.has(candidate)) take(candidate, 'fill');
      }
    }
    const selectedPaths: SelectedPath[] = selected.map(({ candidate, role }, i) => ({ ...candidate.path, role, rank: i + 1 }));

    // 4. Evidence units: round-robin over the selected paths in rank order, each contributing its
    //    next unit not yet taken: its relations from the far end back to the seed, then its
    //    entities in the same order (a path's far end is what sets it apart from the paths that
    //    share its prefix, and what a reserved path was reserved for).
    const unitOrder = (path: ScoredPath): string[] => [
      ...[...path.edges].reverse().map((id) => `relation:${id}`),
      ...[...path.nodes].reverse().map((id) => `entity:${id}`),
    ];
    const unitPaths = new Map<string, string[]>();
    const addPath = (unitId: string, pathId: string) => {
      const list = unitPaths.get(unitId) ?? [];
      if (!list.includes(pathId)) list.push(pathId);
      unitPaths.set(unitId, list);
    };
    for (const path of selectedPaths) for (const unitId of unitOrder(path)) addPath(unitId, path.id);
    const rankedUnits: string[] = [];
    const seen = new Set<string>();
    const queues = selectedPaths.map((path) => unitOrder(path));
    for (let progress = true; progress; ) {
      progress = false;
      for (const queue of queues) {
        while (queue.length > 0 && seen.has(queue[0])) queue.shift();
        const next = queue.shift();
        if (next === undefined) continue;
        seen.add(next);
        rankedUnits.push(next);
        progress = true;
      }
    }
    const retained = rankedUnits.slice(0, evidenceCount);
    const capped = rankedUnits.length - retained.length;

    // 5. Floor: when fewer than L remain, restore the best excluded units (capped ones first,
    //    then those of the paths beyond the selection, in path rank order).
    const restoredIds: string[] = [];
    if (retained.length < minEvidence) {
      const excluded: string[] = [...rankedUnits.slice(evidenceCount)];
      const excludedSeen = new Set(rankedUnits);
      for (const candidate of candidates) {
        if (taken.has(candidate)) continue;
        for (const unitId of unitOrder(candidate.path)) {
          if (!seen.has(unitId)) addPath(unitId, candidate.path.id);
          if (excludedSeen.has(unitId)) continue;
          excludedSeen.add(unitId);
          excluded.push(unitId);
        }
      }
      for (const unitId of excluded) {
        if (retained.length + restoredIds.length >= minEvidence) break;
        restoredIds.push(unitId);
      }
    }

    const finalIds = [...retained, ...restoredIds];
    const restoredSet = new Set(restoredIds);
    const units: EvidenceUnit[] = [];
    finalIds.forEach((unitId, position) => {
      const unit = buildUnit(unitId, nodes, edges);
      if (!unit) return;
      units.push({
        ...unit,
        pathIds: unitPaths.get(unitId) ?? [],
        score: 1 / (1 + position),
        ...(restoredSet.has(unitId) ? { restored: true } : {}),
      });
    });

    const trace: EvidenceSelectionTrace = {
      candidates: candidates.length,
      considered: consideredList.length,
      selected: selectedPaths,
      units,
      capped,
      restored: restoredIds.length,
      filtered,
      adaptive,
      coveredTargets: [...coveredTargets].sort((a, b) => a - b).map((i) => targets[i]),
      coveredFacets: [...coveredFacets].sort((a, b) => a - b).map((i) => facets[i]),
      evidenceCount,
      minEvidence,
    };
    return { paths: selectedPaths, units, trace };
  }

  return { specificationVersion: 'v1', id: options.id ?? 'mosaic-evidence', selectEvidence };
}

/** Entity unit text: "name: description" (or the name); relation unit text: "source label target: description". */
function buildUnit(
  unitId: string,
  nodes: ReadonlyMap<string, EntityNode>,
  edges: ReadonlyMap<string, RelationEdge>,
): Omit<EvidenceUnit, 'pathIds' | 'score'> | undefined {
  if (unitId.startsWith('entity:')) {
    const node = nodes.get(unitId.slice('entity:'.length));
    if (!node) return undefined;
    return {
      id: unitId,
      kind: 'entity',
      refId: node.id,
      text: node.description ? `${node.name}: ${node.description}` : node.name,
      chunkIds: [...(node.chunkIds ?? [])],
    };
  }
  const edge = edges.get(unitId.slice('relation:'.length));
  if (!edge) return undefined;
  const source = nodes.get(edge.source)?.name ?? edge.source;
  const target = nodes.get(edge.target)?.name ?? edge.target;
  return {
    id: unitId,
    kind: 'relation',
    refId: edge.id,
    text: `${source} ${edge.label} ${target}${edge.description ? `: ${edge.description}` : ''}`,
    chunkIds: [...(edge.chunkIds ?? [])],
  };
}
