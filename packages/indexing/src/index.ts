export { DEFAULT_MAX_DOCUMENT_BYTES, DEFAULT_MAX_FILE_BYTES, type CorpusDocuments } from './input/corpus-documents.js';
export { readCorpusJson, corpusDocumentsFromJson, type ReadCorpusJsonOptions, type CorpusDocumentsFromJsonOptions } from './input/read-corpus-json.js';
export { readTextFolder, type ReadTextFolderOptions } from './input/read-text-folder.js';
export {
  readCorpusPath,
  type ReadCorpusPathOptions,
  type CorpusRead,
  type CorpusReadReport,
  type SkippedFile,
  type SkipReason,
} from './input/read-corpus-path.js';
export { UnreadableFile, type UnreadableReason } from './input/formats/read-document.js';
export { DEFAULT_CHUNK_SIZE } from './chunking/chunk-document.js';
export { DEFAULT_WINDOW, type WindowConfig } from './chunking/window-document.js';
export { OfflineExtractor, createOfflineExtractor, type OfflineExtractorOptions } from './extraction/offline-extractor.js';
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
  type ChunkExtractions,
  type ComposeIndexOptions,
  type ComposedIndex,
  type ComposedVectorTrace,
  type IndexContents,
  type StoredChunk,
  type StoredWindow,
  type VectorTable,
} from './build/compose-index.js';
export type {
  IndexStore,
  ReadStoredIndexOptions,
  StoredIndexContents,
  WriteIndexContentsOptions,
  WriteIndexContentsResult,
  WriteIndexGraphOptions,
  WriteIndexKindOptions,
} from './build/index-store.js';
export { ExtractionLog, type ExtractionLogBlock } from './build/extraction-log.js';
export { createDirectoryIndexStore, type DirectoryIndexStoreOptions } from './build/directory-index-store.js';
export { buildCorpusIndexes, type BuildCorpusIndexesOptions, type BuildCorpusIndexesResult } from './build/build-corpus-indexes.js';
export {
  loadIndex,
  readIndexManifest,
  readIndexContents,
  checkIndexDirectory,
  type LoadIndexOptions,
  type LoadPhaseEvent,
  type LoadedCorpusIndex,
  type IndexDirectoryContents,
  type IndexVerification,
  type IndexIntegrity,
} from './build/load-index.js';
export { LOAD_STALL_MS, type LoadWorkerFallbackEvent } from './build/load-in-workers.js';
export { parseIndexManifest, type ParseIndexManifestOptions } from './build/index-manifest-schema.js';
export { INDEX_FORMAT_VERSION, READABLE_INDEX_FORMAT_VERSIONS, storeFileNames, type IndexDirectoryManifest, type VectorKind } from './build/index-layout.js';
export type { ProgressEvent } from './progress/progress-event.js';
export {
  createOpenAIExtractor,
  DEFAULT_ENTITY_TYPES,
  type OpenAIExtractor,
  type OpenAIExtractorOptions,
  type OpenAIExtractorStats,
} from './extraction/openai-extractor.js';
