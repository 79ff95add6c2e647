import { createKnowledgeGraph, type KnowledgeGraph } from './graphology-graph-store.js';
import type { MergedEntity, MergedRelation } from './merge-extractions.js';

export interface KnowledgeGraphFromMergeOptions {
  entities: readonly MergedEntity[];
  relations: readonly MergedRelation[];
}

/**
 * A knowledge graph holding merged entities (nodes, in input order) and relations (edges,
 * in input order, keyed by relation id). Relations whose endpoints are missing are skipped.
 */
export function knowledgeGraphFromMerge(options: KnowledgeGraphFromMergeOptions): KnowledgeGraph {
  const graph = createKnowledgeGraph();
  for (const entity of options.entities) {
    graph.addNode(entity.id, {
      name: entity.name,
      aliases: entity.aliases,
      type: entity.type,
      description: entity.description,
      chunkIds: entity.chunkIds,
      questionLike: entity.questionLike,
      ...(entity.spans ? { spans: entity.spans } : {}),
    });
  }
  for (const relation of options.relations) {
    if (!graph.hasNode(relation.source) || !graph.hasNode(relation.target) || graph.hasEdge(relation.id)) continue;
    graph.addEdgeWithKey(relation.id, relation.source, relation.target, {
      label: relation.label,
      keywords: relation.keywords,
      description: relation.description,
      chunkIds: relation.chunkIds,
      weight: relation.weight,
      ...(relation.spans ? { spans: relation.spans } : {}),
    });
  }
  return graph;
}
