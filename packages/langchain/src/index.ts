export { MosaicRetriever, windowToDocument, type MosaicDocumentMetadata, type MosaicRetrieverInput } from './mosaic-retriever.js';
