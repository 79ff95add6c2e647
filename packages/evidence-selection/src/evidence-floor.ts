import type { PathRanking } from './path-ranking.js';
import { ENTITY_PREFIX, RELATION_PREFIX, unitOrder, type UnitRanking } from './evidence-units.js';

/** Step 5's result: the units restored, and the nodes of the paths they came from. */
export interface Floor {
  restoredIds: string[];
  /** Nodes of the paths beyond the selection that the floor looked at (they name restored relations). */
  floorNodes: string[];
}

/**
 * Step 5, the floor L (report §5.6): when fewer than L units remain after the cap B, restore the
 * best excluded units — capped ones first, then those of the ranked paths beyond the selection, in
 * path rank order. A restored unit no selected path contains gets as provenance every ranked path
 * beyond the selection that contains it (written into `units.unitPaths`).
 */
export function applyFloor(options: {
  units: UnitRanking;
  ranking: PathRanking;
  selectedKeys: ReadonlySet<string>;
  evidenceCount: number;
  minEvidence: number;
}): Floor {
  const { units, ranking, evidenceCount, minEvidence } = options;
  const retained = Math.min(units.ranked.length, evidenceCount);
  if (retained >= minEvidence) return { restoredIds: [], floorNodes: [] };
  const need = minEvidence - retained;
  const excluded: string[] = units.ranked.slice(evidenceCount);
  const excludedSeen = new Set([...units.ranked, ...units.redundant]);
  const beyond = ranking.ranked().filter((entry) => !options.selectedKeys.has(entry.key));
  const floorNodes: string[] = [];
  for (const entry of beyond) {
    if (excluded.length >= need) break;
    floorNodes.push(...entry.path.nodes);
    for (const unitId of unitOrder(entry.path)) {
      if (excludedSeen.has(unitId)) continue;
      excludedSeen.add(unitId);
      excluded.push(unitId);
    }
  }
  const restoredIds = excluded.slice(0, need);
  const entityPaths = new Map<string, string[]>();
  const relationPaths = new Map<string, string[]>();
  for (const unitId of restoredIds) {
    if (units.seen.has(unitId)) continue;
    const list: string[] = [];
    units.unitPaths.set(unitId, list);
    if (unitId.startsWith(ENTITY_PREFIX)) entityPaths.set(unitId.slice(ENTITY_PREFIX.length), list);
    else relationPaths.set(unitId.slice(RELATION_PREFIX.length), list);
  }
  if (entityPaths.size + relationPaths.size > 0) {
    for (const { path } of beyond) {
      for (const id of path.edges) {
        const list = relationPaths.get(id);
        if (list && !list.includes(path.id)) list.push(path.id);
      }
      for (const id of path.nodes) {
        const list = entityPaths.get(id);
        if (list && !list.includes(path.id)) list.push(path.id);
      }
    }
  }
  return { restoredIds, floorNodes };
}
