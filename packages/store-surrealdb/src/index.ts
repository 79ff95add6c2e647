export {
  EMBEDDED_SCHEMES,
  REMOTE_SCHEMES,
  connectSurreal,
  isEmbeddedUrl,
  type ConnectSurrealOptions,
  type SurrealConnection,
} from './surreal-connection.js';
export { openSurrealSession, type OpenSurrealSessionOptions } from './surreal-session.js';
export { DEFAULT_TABLES, type SurrealTableNames } from './surreal-tables.js';
export {
  SurrealGraphStore,
  openSurrealGraphStore,
  writeGraphToSurreal,
  type OpenSurrealGraphStoreOptions,
  type SurrealGraphStoreStats,
  type WriteGraphToSurrealOptions,
  type WriteGraphToSurrealResult,
} from './surreal-graph-store.js';
export {
  SurrealVectorIndex,
  VECTOR_META_TABLE,
  createSurrealVectorIndex,
  openSurrealVectorIndex,
  type CreateSurrealVectorIndexOptions,
  type OpenSurrealVectorIndexOptions,
  type SurrealVectorIndexOptions,
  type SurrealVectorSearch,
} from './surreal-vector-index.js';
export { SurrealChunkStore } from './surreal-chunk-store.js';
export { ReadBatcher } from './read-batcher.js';
export { RecordCache } from './record-cache.js';
export {
  VECTOR_KINDS,
  defaultEntityText,
  defaultRelationText,
  piecesFromCorpusIndex,
  type ExtractionPiece,
  type LexicalPiece,
  type PiecesFromCorpusIndexOptions,
  type PiecesFromCorpusIndexResult,
  type SurrealIndexPieces,
  type VectorKind,
  type VectorSource,
  type VectorTablePiece,
} from './index-pieces.js';
export {
  MANIFEST_RECORD,
  READABLE_SURREAL_FORMAT_VERSIONS,
  SURREAL_INDEX_FORMAT_VERSION,
  loadSurrealIndex,
  writeIndexToSurreal,
  type LoadSurrealIndexOptions,
  type SurrealCorpusIndex,
  type SurrealManifestRecord,
  type SurrealTarget,
  type WriteIndexToSurrealOptions,
  type WriteIndexToSurrealResult,
  type SurrealWriteProgress,
} from './surreal-index.js';
export { createSurrealIndexStore, piecesFromIndexContents, type SurrealIndexStore, type SurrealIndexStoreOptions } from './surreal-index-store.js';
export { generationTables, storedTables, type SurrealDataTables } from './surreal-generations.js';
