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
export { readPdf } from './input/formats/read-pdf.js';
export { CleanTextBuilder } from './input/formats/clean-text-builder.js';
