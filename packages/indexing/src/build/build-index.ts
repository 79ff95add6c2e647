import { stat } from 'node:fs/promises';
import { InputError, InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type { Chunk, Encoder, Extractor, SourceDocument, SourceWindow } from '@mosaic/spec';
import type { GraphStats, MergeTrace } from '@mosaic/graph';
import { DEFAULT_CHUNK_SIZE } from '../chunking/chunk-document.js';
import { DEFAULT_WINDOW, checkWindowConfig, type WindowConfig } from '../chunking/window-document.js';
import type { CorpusDocuments } from '../input/corpus-documents.js';
import { readCorpusJson } from '../input/read-corpus-json.js';
import { isCorpusJsonFile, readCorpusPath, type ReadCorpusPathOptions } from '../input/read-corpus-path.js';
import type { ProgressEvent } from '../progress/progress-event.js';
import { composeIndex, lexicalWorkerCount, type BuiltIndexManifest, type VectorTable } from './compose-index.js';
import { createDirectoryIndexStore } from './directory-index-store.js';
import { extractChunks } from './extract-chunks.js';
import { ExtractionLog } from './extraction-log.js';
import type { IndexDirectoryManifest, VectorKind } from './index-layout.js';
import type { IndexStore, StoredIndexContents } from './index-store.js';
import { segmentDocuments } from './segment-documents.js';
import { AUTO_VECTOR_FACTORY } from './vector-factory.js';

/** Options shared by buildIndex, addDocuments and buildCorpusIndexes. */
export interface IndexingCommonOptions {
  encoder: Encoder;
  extractor: Extractor;
  /** Texts per encoder call. Default 256. */
  batchSize?: number;
  /** Chunks extracted concurrently (useful for network extractors). Default 4. */
  extractConcurrency?: number;
  /**
   * Worker threads extracting with the offline extractor (0: in the calling thread). Default: one
   * per core, at most 4, for corpora of 256 chunks or more. The index is the same whatever the number.
   */
  extractWorkers?: number;
  /** Chunks read by one fresh offline extractor (default EXTRACTION_BLOCK, 1,024). Another value gives other extractions: for tests. */
  extractBlock?: number;
  /**
   * Milliseconds an extraction worker may go without extracting a chunk before it is taken as stalled
   * and its block goes to a fresh worker (once; the second stalling too, the build fails naming the
   * chunks). Default EXTRACT_STALL_MS, 2 minutes.
   */
  extractStallMs?: number;
  /** Bound on merged entity/relation descriptions, in characters. Default 600. */
  maxDescriptionLength?: number;
  /**
   * BM25 states built at once beside the merge and the encoding, each in a worker thread of its own
   * that ends once its state is posted (default 2 on two cores or more, else 1); 0 builds them on the
   * calling thread: slower, and less memory at the build's peak. The index is the same whatever the
   * number.
   */
  lexicalWorkers?: number;
  /**
   * A full garbage collection, called where the build has just let go of a large part of what it
   * held: after the merge (the merged entities and relations, and the graph once the store wrote it)
   * and after each vector kind is written. Pass `globalThis.gc` of a process started with
   * `--expose-gc` (`mosaic index` passes one). Without it V8 collects its old generation only once
   * the heap has grown by a share of what its last collection kept, so the gigabytes let go at
   * 100 MB of text stay resident through the next stages, which make the build's peak. Default:
   * none. The index is the same either way.
   */
  collectGarbage?: () => void;
  onProgress?: (event: ProgressEvent) => void;
  abortSignal?: AbortSignal;
  /** Clock for `createdAt` (tests). Default: () => new Date(). */
  now?: () => Date;
}

/** What a build or addition produced into a store (a directory, a database). */
export interface IndexStoreBuildOptions extends IndexingCommonOptions {
  /** Documents to index (all must share one corpus name, or set `corpus`). Give this or `corpusPath`. */
  documents?: readonly SourceDocument[];
  /**
   * A GraphRAG-Bench corpus JSON file, a folder of documents (Markdown, HTML, reST, PDF, plain
   * text; see readCorpusPath) or a single document file.
   */
  corpusPath?: string;
  /** How a folder or file `corpusPath` is read: include/exclude globs, strict, onSkip (see readCorpusPath). */
  read?: Pick<ReadCorpusPathOptions, 'include' | 'exclude' | 'strict' | 'onSkip'>;
  /** Corpus name: picks one corpus of a multi-corpus JSON file; names the corpus of `documents`/a folder. */
  corpus?: string;
  /**
   * Recorded in the manifest; the directory store builds its faiss indexes with it. Default
   * 'auto': per vector kind, exact inner product over float16 vectors ('SQfp16') below 250,000
   * entities or relations and below 50,000 windows, 'HNSW16_SQfp16' from there on (see
   * AUTO_HNSW_FROM, AUTO_HNSW_WINDOWS_FROM). Any faiss factory string is used as given.
   */
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

export interface BuildIndexOptions extends IndexStoreBuildOptions {
  /** Where the index directory goes (replaced atomically when it exists). */
  outDir: string;
}

export interface BuildIndexIntoOptions<M extends BuiltIndexManifest = BuiltIndexManifest> extends IndexStoreBuildOptions {
  /** Where the index goes: `createDirectoryIndexStore({ dir })`, `createSurrealIndexStore(…)` of @mosaic/store-surrealdb, or your own. */
  store: IndexStore<M>;
}

/** Per vector kind: how many vectors, how many encoded, how many reused, and whether the store appended to its previous vector index. */
export interface VectorKindTrace {
  count: number;
  /** Texts sent to the encoder. */
  encoded: number;
  /** Vectors reused from the previous index. */
  reused: number;
  /** True when the previous vector index was appended to instead of rebuilt (directory: the faiss file). */
  appended: boolean;
}

export interface IndexBuildTrace {
  merge: MergeTrace;
  graphStats: GraphStats;
  vectors: Record<VectorKind, VectorKindTrace>;
  /** Milliseconds per stage. */
  timings: Record<string, number>;
  /** Chunks sent to the extractor. */
  extractedChunks: number;
}

/** The result of a build or an addition written into a store. */
export interface IndexStoreBuildResult<M extends BuiltIndexManifest = BuiltIndexManifest> {
  /** The store's location (a directory path, `url#namespace/database`, …). */
  location: string;
  manifest: M;
  trace: IndexBuildTrace;
}

export interface BuildIndexResult extends IndexStoreBuildResult<IndexDirectoryManifest> {
  dir: string;
}

/** Resolve `documents` / `corpusPath` into one corpus. */
export async function resolveCorpus(options: {
  documents?: readonly SourceDocument[];
  corpusPath?: string;
  corpus?: string;
  maxDocumentBytes?: number;
  read?: Pick<ReadCorpusPathOptions, 'include' | 'exclude' | 'strict' | 'onSkip'>;
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
  try {
    await stat(options.corpusPath);
  } catch (cause) {
    throw new InputError({ source: options.corpusPath, message: 'corpus path does not exist or cannot be accessed', cause });
  }
  if (!(await isCorpusJsonFile(options.corpusPath))) {
    const { corpus, documents } = await readCorpusPath({
      ...options.read,
      path: options.corpusPath,
      corpus: options.corpus,
      maxDocumentBytes: options.maxDocumentBytes,
    });
    return { corpus, documents };
  }
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
 * and `outDir` is left as it was. Same as buildIndexInto with `createDirectoryIndexStore({ dir: outDir })`.
 */
export async function buildIndex(options: BuildIndexOptions): Promise<BuildIndexResult> {
  if (!options.outDir) throw new InvalidArgumentError({ argument: 'outDir', message: 'is required' });
  const { outDir, ...rest } = options;
  const result = await buildIndexInto({ ...rest, store: createDirectoryIndexStore({ dir: outDir }) });
  return { dir: outDir, ...result };
}

/**
 * Build the index of one corpus in memory (chunk, window, extract, merge into a graph, encode
 * entities/relations/windows, BM25 states, manifest) and hand it to `store`, which writes it
 * atomically (the stored index is replaced only when the write completes).
 */
export async function buildIndexInto<M extends BuiltIndexManifest>(options: BuildIndexIntoOptions<M>): Promise<IndexStoreBuildResult<M>> {
  const startedAt = performance.now();
  const window = checkWindowConfig(options.window ?? DEFAULT_WINDOW);
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const { abortSignal } = options;
  if (!options.store || typeof options.store.write !== 'function') throw new InvalidArgumentError({ argument: 'store', message: 'must be an IndexStore' });
  throwIfAborted(abortSignal, 'read');
  options.onProgress?.({ stage: 'read', done: 0, total: 1 });
  const { corpus, documents } = await resolveCorpus(options);
  options.onProgress?.({ stage: 'read', done: 1, total: 1 });

  const timings: Record<string, number> = {};
  const mark = performance.now();
  options.onProgress?.({ stage: 'chunk', done: 0, total: documents.length });
  const { chunks, windows } = segmentDocuments({ documents, chunkSize, window });
  options.onProgress?.({ stage: 'chunk', done: documents.length, total: documents.length });
  timings.chunk = Math.round(performance.now() - mark);
  return extractComposeWrite({
    options,
    corpus,
    documents,
    chunks,
    windows,
    newChunks: chunks,
    window,
    chunkSize,
    vectorFactory: options.vectorFactory ?? AUTO_VECTOR_FACTORY,
    lexical: options.lexical ?? true,
    startedAt,
    timings,
  });
}

/** What extractComposeWrite needs: the whole corpus, the chunks still to extract, the stored index being extended. */
export interface ExtractComposeWriteOptions<M extends BuiltIndexManifest> {
  options: IndexingCommonOptions & { store: IndexStore<M> };
  corpus: string;
  documents: readonly SourceDocument[];
  chunks: readonly Chunk[];
  windows: readonly SourceWindow[];
  /** Chunks sent to the extractor (their extractions follow `previous.extractions`). */
  newChunks: readonly Chunk[];
  window: WindowConfig;
  chunkSize: number;
  vectorFactory: string;
  lexical: boolean;
  previous?: StoredIndexContents;
  startedAt: number;
  timings: Record<string, number>;
}

/** Extract the new chunks, compose the whole index in memory, write it into the store. */
export async function extractComposeWrite<M extends BuiltIndexManifest>(run: ExtractComposeWriteOptions<M>): Promise<IndexStoreBuildResult<M>> {
  const { store } = run.options;
  await store.prepare?.({ abortSignal: run.options.abortSignal });
  try {
    return await extractComposeWriteInStore(run);
  } catch (error) {
    await store.discard?.();
    throw error;
  }
}

async function extractComposeWriteInStore<M extends BuiltIndexManifest>(run: ExtractComposeWriteOptions<M>): Promise<IndexStoreBuildResult<M>> {
  const { options, timings, previous } = run;
  const { encoder, extractor, abortSignal, store } = options;
  lexicalWorkerCount(options.lexicalWorkers); // a bad value fails before the extraction, not after it
  let mark = performance.now();
  const extracted = await extractChunks({
    chunks: run.newChunks,
    extractor,
    concurrency: options.extractConcurrency,
    workers: options.extractWorkers,
    block: options.extractBlock,
    stallMs: options.extractStallMs,
    abortSignal,
    onProgress: (done, total) => options.onProgress?.({ stage: 'extract', done, total }),
  });
  timings.extract = Math.round(performance.now() - mark);
  let extractions = extracted;
  if (previous) {
    extractions = ExtractionLog.from(previous.extractions);
    extractions.concat(extracted);
  }
  const composed = await composeIndex({
    corpus: run.corpus,
    documents: run.documents,
    chunks: run.chunks,
    windows: run.windows,
    extractions,
    encoder,
    extractorId: extractor.id,
    vectorFactory: run.vectorFactory,
    window: run.window,
    chunkSize: run.chunkSize,
    lexical: run.lexical,
    batchSize: options.batchSize ?? 256,
    maxDescriptionLength: options.maxDescriptionLength,
    ...(options.lexicalWorkers !== undefined ? { lexicalWorkers: options.lexicalWorkers } : {}),
    ...(options.collectGarbage ? { collectGarbage: options.collectGarbage } : {}),
    previous: previous?.vectors as Partial<Record<VectorKind, VectorTable>> | undefined,
    ...(store.writeKind ? { writeKind: store.writeKind.bind(store) } : {}),
    ...(store.writeGraph ? { writeGraph: store.writeGraph.bind(store) } : {}),
    startedAt: run.startedAt,
    now: options.now ?? (() => new Date()),
    onProgress: options.onProgress,
    abortSignal,
  });
  throwIfAborted(abortSignal, 'write');
  mark = performance.now();
  const written = await store.write({
    contents: composed.contents,
    ...(previous ? { previous } : {}),
    startedAt: run.startedAt,
    onProgress: options.onProgress,
    abortSignal,
  });
  const vectors = {} as Record<VectorKind, VectorKindTrace>;
  for (const [kind, trace] of Object.entries(composed.vectors) as [VectorKind, (typeof composed.vectors)[VectorKind]][]) {
    vectors[kind] = { ...trace, appended: written.appended?.[kind] ?? false };
  }
  return {
    location: written.location,
    manifest: written.manifest,
    trace: {
      merge: composed.contents.manifest.merge,
      graphStats: composed.contents.manifest.graphStats,
      vectors,
      timings: { ...timings, ...composed.timings, write: Math.round(performance.now() - mark) },
      extractedChunks: run.newChunks.length,
    },
  };
}
