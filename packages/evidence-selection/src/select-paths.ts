import type { PathRole, Policy } from '@mosaic/spec';
import type { GraphFacts } from './graph-facts.js';
import type { PathCoverage, PathInfo } from './path-coverage.js';
import type { PathRanking } from './path-ranking.js';

/** Step 2's result: the considered paths the score margin lets through. */
export interface SharedFilter {
  considered: PathInfo[];
  survivors: PathInfo[];
  /** Considered paths dropped by the margin. */
  filtered: number;
}

/** Step 2, the shared filter: the considered paths, without those more than `scoreMargin` below the best. */
export function sharedFilter(ranking: PathRanking, coverage: PathCoverage, scoreMargin: number): SharedFilter {
  const considered = ranking.considered.map((entry) => coverage.info(entry.key, entry.path));
  const best = considered[0]?.path.score ?? 0;
  const survivors = considered.filter((candidate) => candidate.path.score >= best - scoreMargin);
  return { considered, survivors, filtered: considered.length - survivors.length };
}

/** Step 3's result: the selected paths in order with their roles, and what they cover. */
export interface PathSelection {
  selected: { candidate: PathInfo; role: PathRole }[];
  coveredTargets: Set<number>;
  coveredFacets: Set<number>;
}

export interface SelectPathsOptions {
  policy: Policy;
  ranking: PathRanking;
  filter: SharedFilter;
  coverage: PathCoverage;
  facts: GraphFacts;
  maxPaths: number;
  coreSlots: number;
  reservedSlots: number;
  connectorBeyondFilter: boolean;
}

/**
 * Step 3, path selection (report §5.6): the global top `maxPaths` survivors; with adaptive final
 * evidence, `coreSlots` core paths, then up to `reservedSlots` role reservations in order —
 * connector, uncovered target, uncovered facet, new first relation — then a score fill.
 */
export async function selectPaths(options: SelectPathsOptions): Promise<PathSelection> {
  const { policy, filter, coverage, maxPaths } = options;
  const selection: PathSelection = { selected: [], coveredTargets: new Set(), coveredFacets: new Set() };
  const taken = new Set<PathInfo>();
  const firstLabels = new Set<string>();
  const take = (candidate: PathInfo, role: PathRole) => {
    selection.selected.push({ candidate, role });
    taken.add(candidate);
    for (const i of candidate.targets) selection.coveredTargets.add(i);
    for (const i of candidate.facets) selection.coveredFacets.add(i);
    firstLabels.add(candidate.firstLabel);
  };
  const survivors = filter.survivors;
  if (policy.adaptiveFinalEvidence !== true) {
    for (const candidate of survivors.slice(0, maxPaths)) take(candidate, 'core');
    return selection;
  }
  for (const candidate of survivors.slice(0, Math.min(options.coreSlots, maxPaths))) take(candidate, 'core');
  const { coveredTargets, coveredFacets, selected } = selection;
  const roles: { role: PathRole; wanted: () => boolean; fits: (candidate: PathInfo) => boolean }[] = [
    {
      role: 'connector',
      wanted: () => !selected.some((entry) => entry.candidate.path.origin === 'connector'),
      fits: (candidate) => candidate.path.origin === 'connector',
    },
    {
      role: 'uncovered-target',
      wanted: () => coveredTargets.size < coverage.targets.length,
      fits: (candidate) => [...candidate.targets].some((i) => !coveredTargets.has(i)),
    },
    {
      role: 'uncovered-facet',
      wanted: () => coveredFacets.size < coverage.facets.length,
      fits: (candidate) => [...candidate.facets].some((i) => !coveredFacets.has(i)),
    },
    { role: 'new-relation', wanted: () => true, fits: (candidate) => !firstLabels.has(candidate.firstLabel) },
  ];
  const connectorBeyond = await connectorBeyondFilter(options);
  let reserved = 0;
  for (const { role, wanted, fits } of roles) {
    if (reserved >= options.reservedSlots || selected.length >= maxPaths) break;
    if (!wanted()) continue;
    const match =
      survivors.find((candidate) => !taken.has(candidate) && fits(candidate)) ??
      (role === 'connector' && connectorBeyond && !taken.has(connectorBeyond) ? connectorBeyond : undefined);
    if (!match) continue;
    take(match, role);
    reserved += 1;
  }
  for (const candidate of survivors) {
    if (selected.length >= maxPaths) break;
    if (!taken.has(candidate)) take(candidate, 'fill');
  }
  return selection;
}

/**
 * When the policy asks for the connector view, its reserved slot may take the best connector path
 * even if the shared filter did not consider it: connector paths join two targets' regions and
 * score below the paths that stay near one seed, so the filter alone seldom lets one through
 * (docs/experiments.md).
 */
async function connectorBeyondFilter(options: SelectPathsOptions): Promise<PathInfo | undefined> {
  const { policy, filter, ranking, facts, coverage } = options;
  if (!options.connectorBeyondFilter || policy.useConnector !== true) return undefined;
  if (filter.survivors.some((candidate) => candidate.path.origin === 'connector')) return undefined;
  const consideredKeys = new Set(ranking.considered.map((entry) => entry.key));
  const entry = ranking.ranked().find((candidate) => candidate.path.origin === 'connector' && !consideredKeys.has(candidate.key));
  if (!entry) return undefined;
  await facts.fetch(entry.path.nodes, entry.path.edges);
  return coverage.info(entry.key, entry.path);
}
