import type { SourceDocument } from '@mosaic/spec';

/** The documents of one corpus (one GraphRAG-Bench `corpus_name`, or one folder). */
export interface CorpusDocuments {
  corpus: string;
  documents: SourceDocument[];
}

/** Default bound on one document: 200 MB of UTF-8. */
export const DEFAULT_MAX_DOCUMENT_BYTES = 200 * 1024 * 1024;
/** Default bound on one input file (a corpus JSON): 1 GB. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024 * 1024;
