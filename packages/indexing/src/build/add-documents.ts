import { IndexMismatchError, InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type { SourceDocument } from '@mosaic/spec';
import { extractComposeWrite, type BuildIndexResult, type IndexingCommonOptions, type IndexStoreBuildResult } from './build-index.js';
import type { BuiltIndexManifest } from './compose-index.js';
import { createDirectoryIndexStore } from './directory-index-store.js';
import type { IndexStore } from './index-store.js';
import { segmentDocuments } from './segment-documents.js';

export interface AddDocumentsOptions extends IndexingCommonOptions {
  /** An existing index directory (replaced atomically by the extended one). */
  dir: string;
  /** New documents; their ids must not be in the index yet. Their corpus is set to the index's. */
  documents: readonly SourceDocument[];
}

export interface AddDocumentsIntoOptions<M extends BuiltIndexManifest = BuiltIndexManifest> extends IndexingCommonOptions {
  /** The store holding the index to extend; it reads the index and writes the extended one atomically. */
  store: IndexStore<M>;
  /** New documents; their ids must not be in the index yet. Their corpus is set to the index's. */
  documents: readonly SourceDocument[];
}

/**
 * Add documents to an existing index directory incrementally: addDocumentsInto with
 * `createDirectoryIndexStore({ dir })`. The extended index is written to a temporary sibling
 * directory and swapped in atomically (the faiss files are appended to when the ids extend the old
 * ones); on failure or abort the existing index is left as it was.
 */
export async function addDocuments(options: AddDocumentsOptions): Promise<BuildIndexResult> {
  const { dir, ...rest } = options;
  const result = await addDocumentsInto({ ...rest, store: createDirectoryIndexStore({ dir }) });
  return { dir, ...result };
}

/**
 * Add documents to the index held by `store` incrementally: only the new documents are chunked,
 * windowed and extracted; the stored extractions of the old chunks are merged again with the
 * new ones (no re-extraction), and only entity/relation texts that are new or changed are
 * encoded (old vectors are reused by id + text hash); new windows are encoded. The encoder and
 * extractor must match the manifest. The store writes the extended index atomically: on failure
 * or abort the existing index is left as it was.
 */
export async function addDocumentsInto<M extends BuiltIndexManifest>(options: AddDocumentsIntoOptions<M>): Promise<IndexStoreBuildResult<M>> {
  const startedAt = performance.now();
  const { store, encoder, extractor, abortSignal } = options;
  if (!store || typeof store.read !== 'function') throw new InvalidArgumentError({ argument: 'store', message: 'must be an IndexStore' });
  const old = await store.read({ encoder, abortSignal });
  const { manifest } = old;
  if (manifest.extractor !== extractor.id) {
    throw new IndexMismatchError({ path: store.location, field: 'extractor', expected: extractor.id, actual: manifest.extractor });
  }
  if (options.documents.length === 0) {
    throw new InvalidArgumentError({ argument: 'documents', message: 'no documents to add' });
  }
  const known = new Set(old.documents.map((d) => d.id));
  const added = options.documents.map((d) => ({ ...d, corpus: manifest.corpus }));
  for (const document of added) {
    if (known.has(document.id)) {
      throw new InvalidArgumentError({ argument: 'documents', message: `document '${document.id}' is already in the index` });
    }
  }
  throwIfAborted(abortSignal, 'chunk');
  const window = manifest.window;
  const segments = segmentDocuments({ documents: added, chunkSize: manifest.chunking.chunkSize, window });
  return extractComposeWrite({
    options,
    corpus: manifest.corpus,
    documents: [...old.documents, ...added],
    chunks: [...old.chunks, ...segments.chunks],
    windows: [...old.windows, ...segments.windows],
    newChunks: segments.chunks,
    window,
    chunkSize: manifest.chunking.chunkSize,
    vectorFactory: manifest.vectorIndex.factory,
    lexical: manifest.lexical,
    previous: old,
    startedAt,
    timings: {},
  });
}
