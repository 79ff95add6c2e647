export {
  GraphologyGraphStore,
  createKnowledgeGraph,
  type EntityAttributes,
  type GraphologyGraphStoreOptions,
  type KnowledgeGraph,
  type RelationAttributes,
} from './graphology-graph-store.js';
export {
  displayName,
  entityIdFromKey,
  entityKey,
  parseEntityName,
  relationIdFromKey,
  relationLabelKey,
  singularize,
  slugify,
  type ParsedEntityName,
} from './entity-key.js';
export {
  joinDescriptions,
  mergeExtractions,
  SUFFIX_LINK_LABEL,
  type ChunkExtraction,
  type MergeExtractionsOptions,
  type MergeExtractionsResult,
  type MergeTrace,
  type MergedEntity,
  type MergedRelation,
} from './merge-extractions.js';
export { knowledgeGraphFromMerge, type KnowledgeGraphFromMergeOptions } from './knowledge-graph-from-merge.js';
export {
  GRAPH_FILE_FORMAT,
  GRAPH_FILE_VERSION,
  deserializeGraph,
  loadGraph,
  saveGraph,
  serializeGraph,
  type GraphFile,
  type LoadGraphOptions,
  type SaveGraphOptions,
} from './graph-persistence.js';
export {
  GRAPH_LINES_FORMAT,
  GRAPH_LINES_VERSION,
  loadGraphLines,
  saveGraphLines,
  type GraphLinesHeader,
  type LoadGraphLinesOptions,
  type SaveGraphLinesOptions,
} from './graph-lines.js';
export { computeGraphStats, type GraphStats, type GraphStatsOptions } from './graph-stats.js';
