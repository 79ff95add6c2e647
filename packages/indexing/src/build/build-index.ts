import { rm, stat } from 'node:fs/promises';
import { InputError, InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type { Encoder, Extractor, SourceDocument } from '@mosaic/spec';
import type { GraphStats, MergeTrace } from '@mosaic/graph';
import { DEFAULT_CHUNK_SIZE } from '../chunking/chunk-document.js';
import { DEFAULT_WINDOW, checkWindowConfig, type WindowConfig } from '../chunking/window-document.js';
import type { CorpusDocuments } from '../input/corpus-documents.js';
import { readCorpusJson } from '../input/read-corpus-json.js';
import { readTextFolder } from '../input/read-text-folder.js';
import type { ProgressEvent } from '../progress/progress-event.js';
import { createTemporarySibling, replaceDirectory } from './atomic-directory.js';
import { extractChunks } from './extract-chunks.js';
import type { IndexDirectoryManifest, VectorKind } from './index-layout.js';
import { materializeIndex, type VectorKindTrace } from './materialize-index.js';
import { segmentDocuments } from './segment-documents.js';

/** Options shared by buildIndex, addDocuments and buildCorpusIndexes. */
export interface IndexingCommonOptions {
  encoder: Encoder;
  extractor: Extractor;
  /** Texts per encoder call. Default 256. */
  batchSize?: number;
  /** Chunks extracted concurrently (useful for network extractors). Default 4. */
  extractConcurrency?: number;
  /** Bound on merged entity/relation descriptions, in characters. Default 600. */
  maxDescriptionLength?: number;
  onProgress?: (event: ProgressEvent) => void;
  abortSignal?: AbortSignal;
  /** Clock for `createdAt` (tests). Default: () => new Date(). */
  now?: () => Date;
}

export interface BuildIndexOptions extends IndexingCommonOptions {
  /** Documents to index (all must share one corpus name, or set `corpus`). Give this or `corpusPath`. */
  documents?: readonly SourceDocument[];
  /** A GraphRAG-Bench corpus JSON file or a folder of .txt/.md files. */
  corpusPath?: string;
  /** Corpus name: picks one corpus of a multi-corpus JSON file; names the corpus of `documents`/a folder. */
  corpus?: string;
  /** Where the index directory goes (replaced atomically when it exists). */
  outDir: string;
  /** faiss factory string for the three vector indexes. Default 'Flat' (exact inner product). */
  vectorFactory?: string;
  /** Source windows. Default { size: 1600, stride: 800 }. */
  window?: WindowConfig;
  /** Maximum chunk length in characters (whole sentences). Default 1,200. */
  chunkSize?: number;
  /** Also write BM25 lexical indexes. Default true. */
  lexical?: boolean;
  /** Input limits passed to the readers. */
  maxDocumentBytes?: number;
}

export interface BuildIndexResult {
  dir: string;
  manifest: IndexDirectoryManifest;
  trace: {
    merge: MergeTrace;
    graphStats: GraphStats;
    vectors: Record<VectorKind, VectorKindTrace>;
    /** Milliseconds per stage. */
    timings: Record<string, number>;
    /** Chunks sent to the extractor. */
    extractedChunks: number;
  };
}

/** The result of a build or an addition written to `dir`: its manifest and trace. */
export function buildResult(
  dir: string,
  result: Pick<Awaited<ReturnType<typeof materializeIndex>>, 'manifest' | 'merge' | 'graphStats' | 'vectors' | 'timings'>,
  timings: Record<string, number>,
  extractedChunks: number,
): BuildIndexResult {
  const { manifest, merge, graphStats, vectors } = result;
  return { dir, manifest, trace: { merge, graphStats, vectors, timings: { ...timings, ...result.timings }, extractedChunks } };
}

/** Resolve `documents` / `corpusPath` into one corpus. */
export async function resolveCorpus(options: {
  documents?: readonly SourceDocument[];
  corpusPath?: string;
  corpus?: string;
  maxDocumentBytes?: number;
}): Promise<CorpusDocuments> {
  if (options.documents && options.corpusPath) {
    throw new InvalidArgumentError({ argument: 'documents', message: 'give either documents or corpusPath, not both' });
  }
  if (options.documents) {
    if (options.documents.length === 0) throw new InputError({ source: 'documents', message: 'the corpus is empty (no documents)' });
    const names = [...new Set(options.documents.map((d) => d.corpus))];
    if (!options.corpus && names.length > 1) {
      throw new InvalidArgumentError({ argument: 'corpus', message: `documents belong to several corpora (${names.join(', ')}); set corpus` });
    }
    const corpus = options.corpus ?? names[0];
    if (!corpus) throw new InvalidArgumentError({ argument: 'corpus', message: 'documents have no corpus name; set corpus' });
    return { corpus, documents: options.documents.map((d) => ({ ...d, corpus })) };
  }
  if (!options.corpusPath) throw new InvalidArgumentError({ argument: 'corpusPath', message: 'give documents or corpusPath' });
  let isDirectory = false;
  try {
    isDirectory = (await stat(options.corpusPath)).isDirectory();
  } catch (cause) {
    throw new InputError({ source: options.corpusPath, message: 'corpus path does not exist or cannot be accessed', cause });
  }
  if (isDirectory) return readTextFolder({ path: options.corpusPath, corpus: options.corpus, maxDocumentBytes: options.maxDocumentBytes });
  const corpora = await readCorpusJson({ path: options.corpusPath, maxDocumentBytes: options.maxDocumentBytes });
  if (options.corpus) {
    const found = corpora.find((c) => c.corpus === options.corpus);
    if (!found) {
      throw new InputError({ source: options.corpusPath, message: `no corpus named "${options.corpus}" (found: ${corpora.map((c) => c.corpus).join(', ')})` });
    }
    return found;
  }
  if (corpora.length > 1) {
    throw new InvalidArgumentError({
      argument: 'corpus',
      message: `${options.corpusPath} holds ${corpora.length} corpora; set corpus or use buildCorpusIndexes`,
    });
  }
  return corpora[0];
}

/**
 * Build an index directory for one corpus: chunk, window, extract, merge into a graph,
 * encode entities/relations/windows, write faiss + BM25 indexes and the manifest. The build
 * happens in `<outDir>.tmp-<pid>-<random>` and is renamed into place only when complete (an
 * existing index is replaced only then); on error or abort the temporary directory is removed
 * and `outDir` is left as it was.
 */
export async function buildIndex(options: BuildIndexOptions): Promise<BuildIndexResult> {
  const startedAt = performance.now();
  const window = checkWindowConfig(options.window ?? DEFAULT_WINDOW);
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const { encoder, extractor, abortSignal } = options;
  if (!options.outDir) throw new InvalidArgumentError({ argument: 'outDir', message: 'is required' });
  throwIfAborted(abortSignal, 'read');
  options.onProgress?.({ stage: 'read', done: 0, total: 1 });
  const { corpus, documents } = await resolveCorpus(options);
  options.onProgress?.({ stage: 'read', done: 1, total: 1 });

  const timings: Record<string, number> = {};
  let mark = performance.now();
  options.onProgress?.({ stage: 'chunk', done: 0, total: documents.length });
  const { chunks, windows } = segmentDocuments({ documents, chunkSize, window });
  options.onProgress?.({ stage: 'chunk', done: documents.length, total: documents.length });
  timings.chunk = Math.round(performance.now() - mark);
  mark = performance.now();

  const temporary = await createTemporarySibling(options.outDir);
  try {
    const extractions = await extractChunks({
      chunks,
      extractor,
      concurrency: options.extractConcurrency,
      abortSignal,
      onProgress: (done, total) => options.onProgress?.({ stage: 'extract', done, total }),
    });
    timings.extract = Math.round(performance.now() - mark);
    const result = await materializeIndex({
      dir: temporary,
      corpus,
      documents,
      chunks,
      windows,
      extractions,
      encoder,
      extractorId: extractor.id,
      vectorFactory: options.vectorFactory ?? 'Flat',
      window,
      chunkSize,
      lexical: options.lexical ?? true,
      batchSize: options.batchSize ?? 256,
      maxDescriptionLength: options.maxDescriptionLength,
      startedAt,
      now: options.now ?? (() => new Date()),
      onProgress: options.onProgress,
      abortSignal,
    });
    throwIfAborted(abortSignal, 'write');
    await replaceDirectory(temporary, options.outDir);
    return buildResult(options.outDir, result, timings, chunks.length);
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    throw error;
  }
}
