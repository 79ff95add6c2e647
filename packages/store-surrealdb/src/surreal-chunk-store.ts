import type { Chunk, ChunkStore, DocumentOutline, SourceDocument, SourceWindow } from '@mosaic/spec';
import { packOutlineAnchors } from '@mosaic/stage-utils';
import { ChunkDocuments } from '@mosaic/stage-utils/internal';

/**
 * The ChunkStore of a loaded SurrealDB index. ChunkStore is synchronous, so chunks and windows
 * are read once at load and served from memory (windows of a chunk in document order).
 */
export class SurrealChunkStore implements ChunkStore {
  readonly #chunks = new Map<string, Chunk>();
  readonly #windows = new Map<string, SourceWindow>();
  readonly #windowsByChunk = new Map<string, SourceWindow[]>();
  readonly #outlines = new Map<string, DocumentOutline>();
  readonly #documents = new ChunkDocuments(() => this.#chunks.values());

  constructor(options: { chunks: readonly Chunk[]; windows: readonly SourceWindow[]; documents?: readonly Pick<SourceDocument, 'id' | 'outline'>[] }) {
    for (const chunk of options.chunks) this.#chunks.set(chunk.id, chunk);
    // Anchors packed: a document of plain text has one per line (packOutlineAnchors).
    for (const document of options.documents ?? []) if (document.outline) this.#outlines.set(document.id, packOutlineAnchors(document.outline));
    for (const window of options.windows) {
      this.#windows.set(window.id, window);
      for (const chunkId of window.chunkIds) {
        const list = this.#windowsByChunk.get(chunkId) ?? [];
        list.push(window);
        this.#windowsByChunk.set(chunkId, list);
      }
    }
    for (const list of this.#windowsByChunk.values()) {
      list.sort((a, b) => (a.documentId < b.documentId ? -1 : a.documentId > b.documentId ? 1 : a.start - b.start));
    }
  }

  getChunk(id: string): Chunk | undefined {
    return this.#chunks.get(id);
  }

  getWindow(id: string): SourceWindow | undefined {
    return this.#windows.get(id);
  }

  windowsOfChunk(chunkId: string): SourceWindow[] {
    return [...(this.#windowsByChunk.get(chunkId) ?? [])];
  }

  /** The document's outline (title, sections, line/page anchors), when it was indexed with one. */
  documentOutline(documentId: string): DocumentOutline | undefined {
    return this.#outlines.get(documentId);
  }

  /** The documents of `chunkIds`, each once, in the order first met (unknown ids left out); a table made when first asked. */
  documentsOfChunks(chunkIds: readonly string[]): string[] {
    return this.#documents.documentsOf(chunkIds);
  }

  get chunkCount(): number {
    return this.#chunks.size;
  }

  get windowCount(): number {
    return this.#windows.size;
  }

  /** Every chunk, in insertion order. */
  chunks(): Chunk[] {
    return [...this.#chunks.values()];
  }

  /** Every window, in insertion order. */
  windows(): SourceWindow[] {
    return [...this.#windows.values()];
  }
}
