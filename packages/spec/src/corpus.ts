/** A source document of a corpus. */
export interface SourceDocument {
  id: string;
  /** The corpus it belongs to (GraphRAG-Bench `corpus_name`). */
  corpus: string;
  text: string;
}

/** A chunk of a document, with character offsets into the document text. */
export interface Chunk {
  id: string;
  documentId: string;
  start: number;
  end: number;
  text: string;
}

/** A fixed-size source window (1,600 chars, stride 800 by default) scored by the reranker. */
export interface SourceWindow {
  id: string;
  documentId: string;
  /** Chunks the window overlaps. */
  chunkIds: string[];
  start: number;
  end: number;
  text: string;
}

/** Read access to chunks and windows. */
export interface ChunkStore {
  getChunk(id: string): Chunk | undefined;
  getWindow(id: string): SourceWindow | undefined;
  /** Windows that overlap a chunk, in document order. */
  windowsOfChunk(chunkId: string): SourceWindow[];
  readonly chunkCount: number;
  readonly windowCount: number;
}
