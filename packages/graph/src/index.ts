export {
  GraphologyGraphStore,
  createKnowledgeGraph,
  type EntityAttributes,
  type GraphologyGraphStoreOptions,
  type KnowledgeGraph,
  type RelationAttributes,
} from './graphology-graph-store.js';
