import type { EntityNode, EvidenceUnit, RelationEdge, TextSpan } from '@mosaic/spec';
import type { GraphFacts } from './graph-facts.js';
import type { PathRanking } from './path-ranking.js';
import { ENTITY_PREFIX, RELATION_PREFIX } from './evidence-units.js';

/**
 * The graph facts the final units need beyond the considered paths: the units themselves (restored
 * ones come with the nodes of the paths they came from, which name their relations), then the
 * endpoints — when some candidate path holds them — that name a relation lying off its own path.
 */
export async function fetchUnitFacts(facts: GraphFacts, unitIds: readonly string[], floorNodes: readonly string[], ranking: PathRanking): Promise<void> {
  const moreNodes: string[] = [];
  const moreEdges: string[] = [];
  for (const unitId of unitIds) {
    if (unitId.startsWith(ENTITY_PREFIX)) moreNodes.push(unitId.slice(ENTITY_PREFIX.length));
    else moreEdges.push(unitId.slice(RELATION_PREFIX.length));
  }
  await facts.fetch([...moreNodes, ...floorNodes], moreEdges);
  const endpoints: string[] = [];
  for (const id of moreEdges) {
    const edge = facts.edges.get(id);
    if (!edge) continue;
    if (!facts.askedNode(edge.source)) endpoints.push(edge.source);
    if (!facts.askedNode(edge.target)) endpoints.push(edge.target);
  }
  if (endpoints.length === 0) return;
  const candidateNodes = new Set<string>();
  for (const entry of ranking.entries) for (const node of entry.path.nodes) candidateNodes.add(node);
  await facts.fetch(
    endpoints.filter((id) => candidateNodes.has(id)),
    [],
  );
}

/** The evidence units, in order: score 1/(1 + position), with their sentences and provenance. */
export function buildUnits(options: {
  unitIds: readonly string[];
  restored: ReadonlySet<string>;
  facts: GraphFacts;
  unitPaths: ReadonlyMap<string, string[]>;
  spansOf: (unitId: string) => TextSpan[] | undefined;
}): EvidenceUnit[] {
  const units: EvidenceUnit[] = [];
  options.unitIds.forEach((unitId, position) => {
    const unit = unitOf(unitId, options.facts.nodes, options.facts.edges);
    if (!unit) return;
    const spans = options.spansOf(unitId);
    units.push({
      ...unit,
      ...(spans ? { spans } : {}),
      pathIds: options.unitPaths.get(unitId) ?? [],
      score: 1 / (1 + position),
      ...(options.restored.has(unitId) ? { restored: true } : {}),
    });
  });
  return units;
}

/** Entity unit text: "name: description" (or the name); relation unit text: "source label target: description". */
function unitOf(
  unitId: string,
  nodes: ReadonlyMap<string, EntityNode>,
  edges: ReadonlyMap<string, RelationEdge>,
): Omit<EvidenceUnit, 'pathIds' | 'score'> | undefined {
  if (unitId.startsWith(ENTITY_PREFIX)) {
    const node = nodes.get(unitId.slice(ENTITY_PREFIX.length));
    if (!node) return undefined;
    return {
      id: unitId,
      kind: 'entity',
      refId: node.id,
      text: node.description ? `${node.name}: ${node.description}` : node.name,
      chunkIds: [...(node.chunkIds ?? [])],
    };
  }
  const edge = edges.get(unitId.slice(RELATION_PREFIX.length));
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
