import type { Chunk } from '@mosaic/spec';

/**
 * The documents of chunks, by chunk id, for a store that holds its chunks in memory
 * (`ChunkStore.documentsOfChunks`): each chunk id maps to a document number, and a list of chunk ids
 * is answered with marks over the documents instead of a set of strings. The table is made from
 * `chunks` when first asked (one entry per chunk), so a store that is never asked pays nothing.
 * A hub's evidence unit lists thousands of chunks; answering them through `getChunk` and a `Set`
 * took about a microsecond each at 100 MB of text (docs/results/issue-31.md, session 32).
 */
export class ChunkDocuments {
  readonly #chunks: () => Iterable<Chunk>;
  #documentOf: Map<string, number> | undefined;
  #documentIds: string[] = [];
  /** Per document number: the call (`#stamp`) that last listed it. */
  #listedBy = new Int32Array(0);
  #stamp = 0;

  /** `chunks` is read once, when the first list is asked for. */
  constructor(chunks: () => Iterable<Chunk>) {
    this.#chunks = chunks;
  }

  /** The documents of `chunkIds`, each once, in the order first met (ids of no chunk left out). */
  documentsOf(chunkIds: readonly string[]): string[] {
    const documentOf = this.#documentOf ?? this.#make();
    if (this.#stamp === 0x7fffffff) {
      this.#listedBy.fill(0);
      this.#stamp = 0;
    }
    const stamp = (this.#stamp += 1);
    const listedBy = this.#listedBy;
    const out: string[] = [];
    for (const chunkId of chunkIds) {
      const document = documentOf.get(chunkId);
      if (document === undefined || listedBy[document] === stamp) continue;
      listedBy[document] = stamp;
      out.push(this.#documentIds[document]!);
    }
    return out;
  }

  #make(): Map<string, number> {
    const documentOf = new Map<string, number>();
    const numbers = new Map<string, number>();
    for (const chunk of this.#chunks()) {
      let number = numbers.get(chunk.documentId);
      if (number === undefined) {
        number = this.#documentIds.length;
        numbers.set(chunk.documentId, number);
        this.#documentIds.push(chunk.documentId);
      }
      documentOf.set(chunk.id, number);
    }
    this.#listedBy = new Int32Array(this.#documentIds.length);
    this.#documentOf = documentOf;
    return documentOf;
  }
}
