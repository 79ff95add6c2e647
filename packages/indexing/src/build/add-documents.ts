import { rm } from 'node:fs/promises';
import { IndexMismatchError, InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type { SourceDocument } from '@mosaic/spec';
import { createTemporarySibling, replaceDirectory } from './atomic-directory.js';
import { buildResult, type BuildIndexResult, type IndexingCommonOptions } from './build-index.js';
import { extractChunks } from './extract-chunks.js';
import { checkIndexDirectory, readIndexContents, readIndexManifest } from './load-index.js';
import { materializeIndex } from './materialize-index.js';
import { segmentDocuments } from './segment-documents.js';

export interface AddDocumentsOptions extends IndexingCommonOptions {
  /** An existing index directory (replaced atomically by the extended one). */
  dir: string;
  /** New documents; their ids must not be in the index yet. Their corpus is set to the index's. */
  documents: readonly SourceDocument[];
}

/**
 * Add documents to an existing index incrementally: only the new documents are chunked,
 * windowed and extracted; the stored extractions of the old chunks are merged again with the
 * new ones (no re-extraction), and only entity/relation texts that are new or changed are
 * encoded (old vectors are reused by id + text hash); new windows are encoded and appended
 * to the window index. The encoder and extractor must match the manifest. The result is
 * written to a temporary sibling directory and swapped in atomically; on failure or abort the
 * existing index is left as it was.
 */
export async function addDocuments(options: AddDocumentsOptions): Promise<BuildIndexResult> {
  const startedAt = performance.now();
  const { dir, encoder, extractor, abortSignal } = options;
  const manifest = await readIndexManifest(dir);
  await checkIndexDirectory({ dir, manifest, encoder });
  if (manifest.extractor !== extractor.id) {
    throw new IndexMismatchError({ path: dir, field: 'extractor', expected: extractor.id, actual: manifest.extractor });
  }
  if (options.documents.length === 0) {
    throw new InvalidArgumentError({ argument: 'documents', message: 'no documents to add' });
  }
  const old = await readIndexContents(dir, manifest);
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
  const timings: Record<string, number> = {};
  let mark = performance.now();
  const temporary = await createTemporarySibling(dir);
  try {
    const extractions = await extractChunks({
      chunks: segments.chunks,
      extractor,
      concurrency: options.extractConcurrency,
      abortSignal,
      onProgress: (done, total) => options.onProgress?.({ stage: 'extract', done, total }),
    });
    timings.extract = Math.round(performance.now() - mark);
    mark = performance.now();
    const result = await materializeIndex({
      dir: temporary,
      corpus: manifest.corpus,
      documents: [...old.documents, ...added],
      chunks: [...old.chunks, ...segments.chunks],
      windows: [...old.windows, ...segments.windows],
      extractions: [...old.extractions, ...extractions],
      encoder,
      extractorId: extractor.id,
      vectorFactory: manifest.vectorIndex.factory,
      window,
      chunkSize: manifest.chunking.chunkSize,
      lexical: manifest.lexical,
      batchSize: options.batchSize ?? 256,
      maxDescriptionLength: options.maxDescriptionLength,
      previous: old.vectors,
      startedAt,
      now: options.now ?? (() => new Date()),
      onProgress: options.onProgress,
      abortSignal,
    });
    throwIfAborted(abortSignal, 'write');
    await replaceDirectory(temporary, dir);
    return buildResult(dir, result, timings, segments.chunks.length);
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    throw error;
  }
}
