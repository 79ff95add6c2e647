export { connectSurreal, type ConnectSurrealOptions, type SurrealConnection } from './surreal-connection.js';
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
  createSurrealVectorIndex,
  openSurrealVectorIndex,
  type CreateSurrealVectorIndexOptions,
  type OpenSurrealVectorIndexOptions,
  type SurrealVectorIndexOptions,
  type SurrealVectorSearch,
} from './surreal-vector-index.js';
export { SurrealChunkStore } from './surreal-chunk-store.js';
export {
  piecesFromCorpusIndex,
  type ExtractionPiece,
  type LexicalPiece,
  type PiecesFromCorpusIndexOptions,
  type PiecesFromCorpusIndexResult,
  type SurrealIndexPieces,
  type VectorSource,
  type VectorTablePiece,
} from './index-pieces.js';
export {
  SURREAL_INDEX_FORMAT_VERSION,
  loadSurrealIndex,
  writeIndexToSurreal,
  type LoadSurrealIndexOptions,
  type SurrealCorpusIndex,
  type SurrealTarget,
  type WriteIndexToSurrealOptions,
  type WriteIndexToSurrealResult,
  type SurrealWriteProgress,
} from './surreal-index.js';
export { createSurrealIndexStore, type SurrealIndexStore, type SurrealIndexStoreOptions } from './surreal-index-store.js';
