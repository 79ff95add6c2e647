import type { ChunkExtraction, KnowledgeGraph } from '@mosaic/graph';
import type { AbortOptions, Chunk, Encoder, SourceDocument, SourceWindow } from '@mosaic/spec';
import type { Bm25Index } from '@mosaic/vector-index';
import type { ProgressEvent } from '../progress/progress-event.js';
import type { BuiltIndexManifest, IndexContents, VectorTable } from './compose-index.js';
import type { VectorKind } from './index-layout.js';

/**
 * What an addition needs of the index it extends: its manifest, documents, chunks, windows,
 * per-chunk extractions, and per kind the vector ids, text hashes and vectors (reused when
 * unchanged).
 */
export interface StoredIndexContents {
  manifest: BuiltIndexManifest;
  documents: SourceDocument[];
  chunks: Chunk[];
  windows: SourceWindow[];
  extractions: ChunkExtraction[];
  vectors: Record<VectorKind, VectorTable>;
}

export interface ReadStoredIndexOptions extends AbortOptions {
  /** The manifest's encoder id and dimension must equal these (IndexMismatchError otherwise). */
  encoder: Pick<Encoder, 'id' | 'dimension'>;
}

export interface WriteIndexContentsOptions extends AbortOptions {
  contents: IndexContents;
  /** What `read` returned, when the write extends that index (an addition). */
  previous?: StoredIndexContents;
  /** `performance.now()` when the build started: stores may refresh `buildTimeMs` with it. */
  startedAt?: number;
  onProgress?: (event: ProgressEvent) => void;
}

/** The merged graph, written during the build as soon as it is made (see IndexStore.writeGraph). */
export interface WriteIndexGraphOptions extends AbortOptions {
  graph: KnowledgeGraph;
}

/** One vector kind, written during the build as soon as it is composed (see IndexStore.writeKind). */
export interface WriteIndexKindOptions extends AbortOptions {
  kind: VectorKind;
  /**
   * Ids in label order, text hashes, vectors. Handed over: the store may let rows of
   * `table.vectors` go as it consumes them (the directory store replaces each row added to faiss
   * by an empty vector); the build keeps only the ids and text hashes.
   */
  table: VectorTable;
  /** The kind's BM25 state, when the index is lexical. */
  lexical?: Bm25Index;
  /** The faiss factory of the manifest (`'auto'` or a factory string). */
  factory: string;
  dimension: number;
  /** That kind in the index being extended (an addition). */
  previous?: VectorTable;
}

export interface WriteIndexContentsResult<M extends BuiltIndexManifest = BuiltIndexManifest> {
  /** Where the index now is (a directory path, `url#namespace/database`, …). */
  location: string;
  /** The manifest as stored. */
  manifest: M;
  /** Per kind: true when the store appended to the previous vector index instead of rebuilding it. */
  appended?: Partial<Record<VectorKind, boolean>>;
}

/**
 * Where a built index goes, and where an addition reads the index it extends. `write` must be
 * atomic: either the whole new index replaces the stored one, or (on error or abort) the stored
 * one is left as it was. Implementations: `createDirectoryIndexStore` (an index directory), and
 * `createSurrealIndexStore` of @mosaic/store-surrealdb.
 */
export interface IndexStore<M extends BuiltIndexManifest = BuiltIndexManifest> {
  /** Named in results and errors. */
  readonly location: string;
  /** The stored index, checked (no index, another encoder → IndexMismatchError). */
  read(options: ReadStoredIndexOptions): Promise<StoredIndexContents>;
  /** Write `contents` as the whole index, replacing the stored one atomically. */
  write(options: WriteIndexContentsOptions): Promise<WriteIndexContentsResult<M>>;
  /**
   * Optional: called before extraction starts, to reserve the place of the write (the directory
   * store makes its temporary directory then). Followed by `write`, or by `discard` when the build
   * fails or is aborted before writing.
   */
  prepare?(options: AbortOptions): Promise<void>;
  /** Optional: undo `prepare` (the build stopped before `write`). */
  discard?(): Promise<void>;
  /**
   * Optional: write one vector kind (its vectors and BM25 state) during the build, as soon as it
   * is composed (after `prepare`), so that the build can drop it from memory. The contents given
   * to `write` then carry that kind with its ids and text hashes but no vectors and no BM25 state;
   * `write` keeps what was written here, and `discard` removes it. A store without this method
   * receives everything in `write`.
   */
  writeKind?(options: WriteIndexKindOptions): Promise<{ appended: boolean }>;
  /**
   * Optional: write the merged graph during the build, as soon as it is made (after `prepare`,
   * before any vector is encoded), so that the build can drop it from memory. The contents given to
   * `write` then carry no graph; `write` keeps what was written here, and `discard` removes it. A
   * store without this method receives the graph in `write`.
   */
  writeGraph?(options: WriteIndexGraphOptions): Promise<void>;
}
