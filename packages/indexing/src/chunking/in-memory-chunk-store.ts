import type { Chunk, ChunkStore, DocumentOutline, SentenceTokens, SourceDocument, SourceWindow } from '@mosaic/spec';
import { ChunkDocuments } from '@mosaic/stage-utils/internal';

export interface InMemoryChunkStoreOptions {
  chunks: readonly Chunk[];
  windows: readonly SourceWindow[];
  /** Documents whose outlines `documentOutline` answers (documents without one are left out). */
  documents?: readonly Pick<SourceDocument, 'id' | 'outline'>[];
  /** The sentence tokens made when the index was built (`ChunkStore.sentenceTokens`), when it has them. */
  sentenceTokens?: SentenceTokens;
}

/** ChunkStore over arrays held in memory; `windowsOfChunk` answers from a precomputed map, in document order. */
export class InMemoryChunkStore implements ChunkStore {
  readonly #chunks = new Map<string, Chunk>();
  readonly #windows = new Map<string, SourceWindow>();
  readonly #windowsOfChunk = new Map<string, SourceWindow[]>();
  readonly #outlines = new Map<string, DocumentOutline>();
  readonly #documents = new ChunkDocuments(() => this.#chunks.values());
  readonly sentenceTokens?: SentenceTokens;

  constructor(options: InMemoryChunkStoreOptions) {
    if (options.sentenceTokens) this.sentenceTokens = options.sentenceTokens;
    for (const chunk of options.chunks) this.#chunks.set(chunk.id, chunk);
    for (const document of options.documents ?? []) if (document.outline) this.#outlines.set(document.id, document.outline);
    const ordered = [...options.windows].sort((a, b) => (a.documentId === b.documentId ? a.start - b.start : a.documentId < b.documentId ? -1 : 1));
    for (const window of ordered) {
      this.#windows.set(window.id, window);
      for (const id of window.chunkIds) {
        let list = this.#windowsOfChunk.get(id);
        if (!list) this.#windowsOfChunk.set(id, (list = []));
        list.push(window);
      }
    }
  }

  getChunk(id: string): Chunk | undefined {
    return this.#chunks.get(id);
  }

  getWindow(id: string): SourceWindow | undefined {
    return this.#windows.get(id);
  }

  windowsOfChunk(chunkId: string): SourceWindow[] {
    return [...(this.#windowsOfChunk.get(chunkId) ?? [])];
  }

  /** The document's outline (title, sections, line/page anchors), when it was given one. */
  documentOutline(documentId: string): DocumentOutline | undefined {
    return this.#outlines.get(documentId);
  }

  /** The documents of `chunkIds`, each once, in the order first met (unknown ids left out); a table made when first asked. */
  documentsOfChunks(chunkIds: readonly string[]): string[] {
    return this.#documents.documentsOf(chunkIds);
  }

  /** All chunks, in insertion order. */
  allChunks(): Chunk[] {
    return [...this.#chunks.values()];
  }

  /** All windows, in insertion order. */
  allWindows(): SourceWindow[] {
    return [...this.#windows.values()];
  }

  get chunkCount(): number {
    return this.#chunks.size;
  }

  get windowCount(): number {
    return this.#windows.size;
  }
}
