import type { BuiltIndexManifest } from './compose-index.js';
import type { VectorKind } from '@mosaic/stage-utils/internal';
import type { WindowConfig } from '../chunking/window-document.js';

/**
 * Version of the index directory layout written by this package. 2: the graph as gzip'd JSON
 * Lines (graph.jsonl.gz), the extractions gzip'd too, the vectors only inside the faiss files.
 * 3: the BM25 states in the binary layout of @mosaic/vector-index (`Bm25Index.toBinary`), gzip'd
 * (`lexical/<kind>.bm25.gz`), instead of wink-bm25's exportJSON string.
 * 4: the graph in the binary layout of @mosaic/graph (`saveGraphBinary`: columns of numbers and
 * one string heap), gzip'd (`graph.bin.gz`), loaded as a CompactGraphStore without an object per
 * node or edge, instead of JSON Lines.
 * 5: the documents, chunks and windows gzip'd as well (`documents.jsonl.gz`, `chunks.jsonl.gz`,
 * `windows.jsonl.gz`): the documents' text was a tenth of a 100 MB corpus's index, stored as it is.
 */
export const INDEX_FORMAT_VERSION = 5;

/**
 * The formats this version reads: 5, and 4, whose documents, chunks and windows are plain JSON Lines
 * (`storeFileNames`). An index of format 4 loads as it is; adding documents to it writes format 5.
 */
export const READABLE_INDEX_FORMAT_VERSIONS: readonly number[] = [4, INDEX_FORMAT_VERSION];

/** File names inside an index directory (relative paths). */
export const INDEX_FILES = {
  manifest: 'manifest.json',
  documents: 'documents.jsonl.gz',
  chunks: 'chunks.jsonl.gz',
  windows: 'windows.jsonl.gz',
  extractions: 'extractions.jsonl.gz',
  graph: 'graph.bin.gz',
  vectors: (kind: VectorKind, part: 'faiss' | 'json') => `vectors/${kind}.${part}`,
  lexical: (kind: VectorKind) => `lexical/${kind}.bm25.gz`,
  /**
   * The matching tokens of every sentence the graph cites (`encodeSentenceTokens` of
   * @mosaic/stage-utils/internal), gzip'd. Optional within format 4: an index built before it
   * existed loads without it, and evidence selection then tokenizes those sentences itself.
   */
  sentences: 'sentences.bin.gz',
} as const;

/** The files of the documents, chunks and windows in an index of `formatVersion`: plain JSON Lines before format 5, gzip'd from it. */
export function storeFileNames(formatVersion: number): { documents: string; chunks: string; windows: string } {
  if (formatVersion >= 5) return { documents: INDEX_FILES.documents, chunks: INDEX_FILES.chunks, windows: INDEX_FILES.windows };
  return { documents: 'documents.jsonl', chunks: 'chunks.jsonl', windows: 'windows.jsonl' };
}

/** The three vector tables (and lexical indexes) of an index: one definition, in @mosaic/stage-utils. */
export { VECTOR_KINDS, type VectorKind } from '@mosaic/stage-utils/internal';

/** The manifest of an index directory: the manifest of any built index plus the directory's file list and digests. */
export interface IndexDirectoryManifest extends BuiltIndexManifest {
  /** The factory asked for (`'auto'` by default) and, per kind, the faiss factory each file was built with. */
  vectorIndex: { factory: string; factories?: Partial<Record<VectorKind, string>> };
  /** Every file of the index with its size in bytes; checked on load. */
  files: Record<string, number>;
  /**
   * sha256 (hex) of every file in `files`; verified on load (see loadIndex's `verify`). Absent in
   * indexes built before digests were recorded: those load with sizes and the corpus checksum checked.
   */
  digests?: Record<string, string>;
}

/** Window config recorded in the manifest. */
export type ManifestWindow = WindowConfig;
