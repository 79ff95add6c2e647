import type { EntityNode, RelationEdge } from '@mosaic/spec';

/**
 * The text embedded for an entity: "name: description" (just the name without a description).
 * Indexing encodes it and store-surrealdb re-encodes it; one function, so the vectors agree.
 */
export function entityText(entity: Pick<EntityNode, 'name' | 'description'>): string {
  return entity.description ? `${entity.name}: ${entity.description}` : entity.name;
}

/** The text embedded for a relation: "source label target: description" (no ": …" without a description). */
export function relationText(relation: Pick<RelationEdge, 'label' | 'description'>, sourceName: string, targetName: string): string {
  const head = `${sourceName} ${relation.label} ${targetName}`;
  return relation.description ? `${head}: ${relation.description}` : head;
}
