import type { MergedEntity, MergedRelation } from '@mosaic/graph';

/** Text embedded for an entity: "name: description" (just the name when there is no description). */
export function entityText(entity: Pick<MergedEntity, 'name' | 'description'>): string {
  return entity.description ? `${entity.name}: ${entity.description}` : entity.name;
}

/** Text embedded for a relation: "source label target: description". */
export function relationText(relation: Pick<MergedRelation, 'label' | 'description'>, sourceName: string, targetName: string): string {
  const head = `${sourceName} ${relation.label} ${targetName}`;
  return relation.description ? `${head}: ${relation.description}` : head;
}
