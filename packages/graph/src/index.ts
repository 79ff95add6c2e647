export {
  GraphologyGraphStore,
  createKnowledgeGraph,
  type EntityAttributes,
  type GraphologyGraphStoreOptions,
  type KnowledgeGraph,
  type RelationAttributes,
} from './graphology-graph-store.js';
export {
  mergeExtractions,
  type ChunkExtraction,
  type MergeExtractionsOptions,
  type MergeExtractionsTuning,
  type MergeExtractionsResult,
  type MergeTrace,
  type MergedEntity,
  type MergedRelation,
} from './merge-extractions.js';
export { knowledgeGraphFromMerge, type KnowledgeGraphFromMergeOptions } from './knowledge-graph-from-merge.js';
export { loadGraph, saveGraph, type LoadGraphOptions, type SaveGraphOptions } from './graph-persistence.js';
export {
  CompactGraphStore,
  decodeGraphBinary,
  loadGraphBinary,
  saveGraphBinary,
  type LoadGraphBinaryOptions,
  type SaveGraphBinaryOptions,
} from './graph-binary.js';
export { loadGraphLines, saveGraphLines, type LoadGraphLinesOptions, type SaveGraphLinesOptions } from './graph-lines.js';
export { computeGraphStats, type GraphStats, type GraphStatsOptions } from './graph-stats.js';
