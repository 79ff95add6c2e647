/**
 * Building blocks of @mosaic/store-surrealdb, for the monorepo's own packages, tests and tools.
 * Not part of the stable API: names and shapes may change in any release, without a major
 * version. Build on what `@mosaic/store-surrealdb` exports.
 */
export { EMBEDDED_SCHEMES, REMOTE_SCHEMES, isEmbeddedUrl } from './surreal-connection.js';
export { VECTOR_META_TABLE } from './surreal-vector-index.js';
export { ReadBatcher } from './read-batcher.js';
export { RecordCache } from './record-cache.js';
export { VECTOR_KINDS, defaultEntityText, defaultRelationText, type VectorKind } from './index-pieces.js';
export { MANIFEST_RECORD, READABLE_SURREAL_FORMAT_VERSIONS, type SurrealManifestRecord } from './surreal-index.js';
export { piecesFromIndexContents } from './surreal-index-store.js';
export { generationTables, storedTables, type SurrealDataTables } from './surreal-generations.js';
