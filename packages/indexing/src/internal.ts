/**
 * The index builder's building blocks, for tests and tools that look inside a build. Not part of the
 * stable API: names and shapes may change in any release.
 */
export { chunkId, sentenceStarts } from './chunking/chunk-document.js';
export { windowId, checkWindowConfig } from './chunking/window-document.js';
export { resolveCorpus } from './build/build-index.js';
export { segmentDocuments, type SegmentDocumentsOptions } from './build/segment-documents.js';
export { extractChunks, type ExtractChunksOptions } from './build/extract-chunks.js';
export { removeStaleSiblings } from './build/atomic-directory.js';
export { parseExtractionContent, extractorSystemPrompt, extractorUserMessage } from './extraction/openai-extractor.js';
export { readMarkdown } from './input/formats/read-markdown.js';
export { readHtml, htmlFragmentText } from './input/formats/read-html.js';
export { readRst, reduceInline as reduceRstInline } from './input/formats/read-rst.js';
export { readPod, reduceFormatting as reducePodFormatting } from './input/formats/read-pod.js';
export { readPdf } from './input/formats/read-pdf.js';
export { CleanTextBuilder } from './input/formats/clean-text-builder.js';
export { isCorpusJsonFile, summarizeSkipped } from './input/read-corpus-path.js';
export { readDocumentBytes, formatOfFile } from './input/formats/read-document.js';
export type { CleanDocument } from './input/formats/clean-text-builder.js';
export { chunkDocument, type ChunkDocumentOptions } from './chunking/chunk-document.js';
export { windowDocument, type WindowDocumentOptions } from './chunking/window-document.js';
export { InMemoryChunkStore, type InMemoryChunkStoreOptions } from './chunking/in-memory-chunk-store.js';
export { OFFLINE_EXTRACTOR_ID } from './extraction/offline-extractor.js';
export { writeIndexDirectory, type WriteIndexDirectoryOptions } from './build/directory-index-store.js';
export { corpusDirectoryName } from './build/build-corpus-indexes.js';
export { indexManifestSchema, requiredIndexFiles } from './build/index-manifest-schema.js';
export { INDEX_FILES, VECTOR_KINDS } from './build/index-layout.js';
export { entityText, relationText } from '@mosaic/stage-utils';
export { corpusChecksum, fileDigest, textHash } from './build/index-files.js';
export { AUTO_VECTOR_FACTORY, AUTO_HNSW_FROM, AUTO_HNSW_WINDOWS_FROM, AUTO_HNSW_FACTORY, chooseVectorFactory } from './build/vector-factory.js';
export { OPENAI_EXTRACTOR_PROMPT_VERSION } from './extraction/openai-extractor.js';
