export { DEFAULT_MAX_DOCUMENT_BYTES, DEFAULT_MAX_FILE_BYTES, type CorpusDocuments } from './input/corpus-documents.js';
export { readCorpusJson, corpusDocumentsFromJson, type ReadCorpusJsonOptions, type CorpusDocumentsFromJsonOptions } from './input/read-corpus-json.js';
export { readTextFolder, type ReadTextFolderOptions } from './input/read-text-folder.js';
export {
  readCorpusPath,
  isCorpusJsonFile,
  summarizeSkipped,
  type ReadCorpusPathOptions,
  type CorpusRead,
  type CorpusReadReport,
  type SkippedFile,
  type SkipReason,
} from './input/read-corpus-path.js';
export { readDocumentBytes, formatOfFile, UnreadableFile, type UnreadableReason } from './input/formats/read-document.js';
export type { CleanDocument } from './input/formats/clean-text-builder.js';
export { chunkDocument, DEFAULT_CHUNK_SIZE, type ChunkDocumentOptions } from './chunking/chunk-document.js';
export { windowDocument, DEFAULT_WINDOW, type WindowConfig, type WindowDocumentOptions } from './chunking/window-document.js';
export { InMemoryChunkStore, type InMemoryChunkStoreOptions } from './chunking/in-memory-chunk-store.js';
export { OfflineExtractor, createOfflineExtractor, OFFLINE_EXTRACTOR_ID, type OfflineExtractorOptions } from './extraction/offline-extractor.js';
export {
  buildIndex,
  buildIndexInto,
  type BuildIndexOptions,
  type BuildIndexIntoOptions,
  type BuildIndexResult,
  type IndexBuildTrace,
  type IndexingCommonOptions,
  type IndexStoreBuildOptions,
  type IndexStoreBuildResult,
  type VectorKindTrace,
} from './build/build-index.js';
export { addDocuments, addDocumentsInto, type AddDocumentsOptions, type AddDocumentsIntoOptions } from './build/add-documents.js';
export {
  composeIndex,
  type BuiltIndexManifest,
  type ComposeIndexOptions,
  type ComposedIndex,
  type ComposedVectorTrace,
  type IndexContents,
  type StoredChunk,
  type StoredWindow,
  type VectorTable,
} from './build/compose-index.js';
export type { IndexStore, ReadStoredIndexOptions, StoredIndexContents, WriteIndexContentsOptions, WriteIndexContentsResult } from './build/index-store.js';
export {
  createDirectoryIndexStore,
  writeIndexDirectory,
  type DirectoryIndexStoreOptions,
  type WriteIndexDirectoryOptions,
} from './build/directory-index-store.js';
export { buildCorpusIndexes, corpusDirectoryName, type BuildCorpusIndexesOptions, type BuildCorpusIndexesResult } from './build/build-corpus-indexes.js';
export {
  loadIndex,
  readIndexManifest,
  checkIndexDirectory,
  readIndexContents,
  type LoadIndexOptions,
  type LoadedCorpusIndex,
  type IndexDirectoryContents,
  type IndexVerification,
  type IndexIntegrity,
} from './build/load-index.js';
export { parseIndexManifest, indexManifestSchema, requiredIndexFiles, type ParseIndexManifestOptions } from './build/index-manifest-schema.js';
export { INDEX_FILES, INDEX_FORMAT_VERSION, VECTOR_KINDS, type IndexDirectoryManifest, type VectorKind } from './build/index-layout.js';
export { entityText, relationText } from '@mosaic/stage-utils';
export { corpusChecksum, fileDigest, textHash } from './build/index-files.js';
export { AUTO_VECTOR_FACTORY, AUTO_HNSW_FROM, AUTO_HNSW_FACTORY, chooseVectorFactory } from './build/vector-factory.js';
export type { ProgressEvent } from './progress/progress-event.js';
export {
  createOpenAIExtractor,
  DEFAULT_ENTITY_TYPES,
  OPENAI_EXTRACTOR_PROMPT_VERSION,
  type OpenAIExtractor,
  type OpenAIExtractorOptions,
  type OpenAIExtractorStats,
} from './extraction/openai-extractor.js';
