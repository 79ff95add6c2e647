/** A source document of a corpus. */
export interface SourceDocument {
  id: string;
  /** The corpus it belongs to (GraphRAG-Bench `corpus_name`). */
  corpus: string;
  text: string;
  /** Title, format, sections and line/page anchors, when the reader kept them. */
  outline?: DocumentOutline;
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
  /** A document's outline (title, sections, line/page anchors), when the index keeps it. */
  documentOutline?(documentId: string): DocumentOutline | undefined;
  /**
   * The documents of `chunkIds`, each once, in the order first met, ids of no chunk left out: what
   * `getChunk(id)?.documentId` gives for each, without reading a chunk per id. The pipeline asks it
   * of every evidence unit's chunks (a hub's unit lists thousands); without it, it reads `getChunk`.
   */
  documentsOfChunks?(chunkIds: readonly string[]): string[];
  /**
   * The content tokens of the sentences the graph cites, made when the index was built, when the
   * store keeps them. Stages that rank a hub's thousands of sentences read their tokens here
   * instead of tokenizing the text on every first visit; without it they tokenize it.
   */
  readonly sentenceTokens?: SentenceTokens;
  readonly chunkCount: number;
  readonly windowCount: number;
}

/**
 * Sentences as token numbers, made once (`createSentenceTokens` of @mosaic/stage-utils/internal for
 * the matching tokens): sentence `n`'s distinct tokens are `tokens[tokenStart[n] … tokenStart[n + 1])`,
 * each a position in `vocabulary` (the set matters, not the order).
 */
export interface SentenceTokens {
  /** Which tokenizer made the tokens (a stage uses them only when they are its own tokenizer's). */
  readonly tokenizer: string;
  readonly vocabulary: readonly string[];
  readonly tokenStart: Int32Array;
  readonly tokens: Int32Array;
  /** The number of the sentence `chunkId`[`start`, `end`), or −1 when it is not held. */
  sentence(chunkId: string, start: number, end: number): number;
  /**
   * Optional: the position of `token` in `vocabulary`, or undefined when it is not there. A stage that
   * matches a question against thousands of stored sentences marks the question's tokens by these
   * numbers and reads the sentences' tokens as they are. The vocabulary's tokens must be distinct.
   */
  tokenNumber?(token: string): number | undefined;
  /** Optional: the table's number of chunk `chunkId` (for `sentenceInChunk`), or undefined when it was not made with it. */
  chunkNumber?(chunkId: string): number | undefined;
  /**
   * Optional: `sentence` of the chunk numbered `chunk` by `chunkNumber`: the same number, without
   * looking the chunk id up again (a hub's sentences come in runs of one chunk).
   */
  sentenceInChunk?(chunk: number, start: number, end: number): number;
}

/** The format a document was read from. */
export type DocumentFormat = 'text' | 'markdown' | 'html' | 'rst' | 'pod' | 'pdf' | 'json';

/** A section of a document: a character range of its (clean) text under a heading trail. */
export interface DocumentSection {
  /** Heading trail, outermost first (e.g. ['Installing', 'On Debian']). */
  path: string[];
  start: number;
  end: number;
  /**
   * True for an entry the text describes inside a section (a function, class or option of a reference
   * page, named by its signature), and for the rest of a section after its entries: sources name them,
   * but they are not new parts of the document's own outline, and the chunker does not cut at them.
   */
  entry?: boolean;
}

/**
 * Where a document's clean text came from in its file: sorted anchors mapping a character
 * offset of the clean text to the 1-based line (or page) of the source file where that text
 * starts. Text between two anchors belongs to the earlier one's line/page.
 */
export interface DocumentOutline {
  /** Document title (HTML `<title>`, the first heading, the PDF's title, or the file name). */
  title?: string;
  format?: DocumentFormat;
  /** Sections in document order; they need not cover the whole text. */
  sections?: DocumentSection[];
  /** Anchors `[offset, line]`, ascending by offset; absent when lines were not tracked. */
  lines?: Array<[number, number]>;
  /** Anchors `[offset, page]`, ascending by offset (PDF). */
  pages?: Array<[number, number]>;
}

/** Where a span of text sits in its source: document, section and line/page span. */
export interface SourceLocation {
  documentId: string;
  title?: string;
  /** Heading trail of the section the span starts in, outermost first. */
  section?: string[];
  /** Character offsets in the document's clean text. */
  start: number;
  end: number;
  /** 1-based first and last source line, when the document's lines were tracked. */
  lines?: { start: number; end: number };
  /** 1-based first and last page (PDF). */
  pages?: { start: number; end: number };
}
