import {
  computeGraphStats,
  knowledgeGraphFromMerge,
  mergeExtractions,
  type ChunkExtraction,
  type GraphStats,
  type KnowledgeGraph,
  type MergeExtractionsResult,
  type MergeTrace,
} from '@mosaic/graph';
import { availableParallelism } from 'node:os';
import { InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type { Chunk, Encoder, IndexManifest, SourceDocument, SourceWindow, TextSpan } from '@mosaic/spec';
import { entityText, relationText } from '@mosaic/stage-utils';
import { createSentenceTokens, type SentenceTokenTable } from '@mosaic/stage-utils/internal';
import { createBm25Index, type Bm25Index, type Bm25IndexJson } from '@mosaic/vector-index';
import type { WindowConfig } from '../chunking/window-document.js';
import type { ProgressEvent } from '../progress/progress-event.js';
import { createBm25WorkerBuilder } from './bm25-in-worker.js';
import { encodeTexts } from './encode-texts.js';
import type { ExtractionLog } from './extraction-log.js';
import type { WriteIndexGraphOptions, WriteIndexKindOptions } from './index-store.js';
import { corpusChecksum, textHash } from './index-files.js';
import { INDEX_FORMAT_VERSION, VECTOR_KINDS, type VectorKind } from './index-layout.js';

/** Per-chunk extractions in corpus order: an array, or an ExtractionLog (compressed blocks). */
export type ChunkExtractions = readonly ChunkExtraction[] | ExtractionLog;

/** Vectors of one kind from an existing index, reused when ids and texts are unchanged. */
export interface VectorTable {
  ids: string[];
  textHashes: string[];
  vectors: Float32Array[];
  /** The faiss file of that index, appended to when the new ids extend the old ones (directory stores only). */
  faissPath?: string;
  /** The faiss factory that file was built with (appended to only when the new build picks the same). */
  factory?: string;
}

/** Stored chunk / window rows (text is sliced from the document on load). */
export interface StoredChunk {
  id: string;
  documentId: string;
  start: number;
  end: number;
}
export interface StoredWindow extends StoredChunk {
  chunkIds: string[];
}

/**
 * The manifest of a built index, whatever store holds it: the spec's IndexManifest plus what is
 * needed to extend it. A directory adds its file list and digests (IndexDirectoryManifest).
 */
export interface BuiltIndexManifest extends IndexManifest {
  /** Peak resident memory of the building process when the build finished (bytes). */
  peakRssBytes?: number;
  /** Chunking used (needed to chunk added documents the same way). */
  chunking: { chunkSize: number };
  /** Whether lexical (BM25) indexes were written. */
  lexical: boolean;
  /** Graph figures at build time. */
  graphStats: GraphStats;
  /** What the merger did. */
  merge: MergeTrace;
}

/**
 * A whole index as plain data in memory, ready for an IndexStore to write: everything a build or
 * an addition produced (documents, chunks, windows, per-chunk extractions, the merged graph, the
 * three vector tables with ids and text hashes, the BM25 states, the manifest).
 */
export interface IndexContents {
  manifest: BuiltIndexManifest;
  documents: readonly SourceDocument[];
  chunks: readonly Chunk[];
  windows: readonly SourceWindow[];
  /** Per-chunk extractions in corpus order (merged again by an addition): an array, or the build's compressed ExtractionLog. */
  extractions: ChunkExtractions;
  /**
   * Entities (nodes) and relations (edges), in merge order. Absent when the store's `writeGraph`
   * wrote it during the build.
   */
  graph?: KnowledgeGraph;
  /** Per kind: ids in label order, the hash of each embedded text, the vectors. */
  vectors: Record<VectorKind, VectorTable>;
  /**
   * BM25 index per kind, when `manifest.lexical`: the built Bm25Index (stores persist it with
   * `toBinary()` or `toJSON()`), or its JSON (`Bm25Index.toJSON()`, versions 1 and 2). A kind
   * already written by the store's `writeKind` has none.
   */
  lexical?: Partial<Record<VectorKind, Bm25Index | Bm25IndexJson>>;
  /**
   * The matching tokens of every sentence the graph cites (`createSentenceTokens`), which evidence
   * selection reads instead of tokenizing a hub's sentences. Stores that keep it persist it with
   * `encodeSentenceTokens`; absent in contents read from an index built before it existed.
   */
  sentenceTokens?: SentenceTokenTable;
}

export interface ComposeIndexOptions {
  corpus: string;
  documents: readonly SourceDocument[];
  chunks: readonly Chunk[];
  windows: readonly SourceWindow[];
  /** Per-chunk extractions in corpus order: an array, or an ExtractionLog (kept compressed; the merger decodes a block at a time). */
  extractions: ChunkExtractions;
  encoder: Encoder;
  extractorId: string;
  /** Recorded in the manifest (`vectorIndex.factory`); the directory store builds faiss indexes with it. */
  vectorFactory: string;
  window: WindowConfig;
  chunkSize: number;
  lexical: boolean;
  batchSize: number;
  maxDescriptionLength?: number;
  /** Vectors of the index being extended, reused by id + text hash. */
  previous?: Partial<Record<VectorKind, VectorTable>>;
  /**
   * The store's `writeKind` (IndexStore): each kind's vectors and BM25 state are handed to it as
   * soon as they are made and dropped from memory; the contents then carry that kind's ids and
   * text hashes only. Without it, everything stays in the contents.
   */
  writeKind?: (options: WriteIndexKindOptions) => Promise<{ appended: boolean }>;
  /**
   * The store's `writeGraph` (IndexStore): the merged graph is handed to it as soon as it is made
   * (before any encoding) and dropped from memory; the contents then carry no graph. Without it,
   * the graph stays in the contents.
   */
  writeGraph?: (options: WriteIndexGraphOptions) => Promise<void>;
  startedAt: number;
  now: () => Date;
  onProgress?: (event: ProgressEvent) => void;
  abortSignal?: AbortSignal;
  /**
   * BM25 states built at once while this thread merges and encodes, each in a worker thread of its
   * own that ends once its state is posted (default 2 on two cores or more, else 1); 0 builds them in
   * this thread, after each kind's encoding: slower, but the workers' copies of a kind's texts are
   * not held beside the merge and the encoding.
   */
  lexicalWorkers?: number;
  /** A full garbage collection, called after the merge and after each kind's write (see `IndexingCommonOptions.collectGarbage`). */
  collectGarbage?: () => void;
}

/** What composing did per vector kind. */
export interface ComposedVectorTrace {
  count: number;
  /** Texts sent to the encoder. */
  encoded: number;
  /** Vectors reused from the previous index. */
  reused: number;
}

export interface ComposedIndex {
  /** The index; what the merger did and the graph statistics are in `contents.manifest` (`merge`, `graphStats`). */
  contents: IndexContents;
  vectors: Record<VectorKind, ComposedVectorTrace>;
  /** Milliseconds per stage (merge, encode-<kind>, lexical). */
  timings: Record<string, number>;
}

/** The BM25 worker threads to start: `lexicalWorkers` checked (a non-negative integer), or the default. */
export function lexicalWorkerCount(lexicalWorkers: number | undefined): number {
  if (lexicalWorkers === undefined) return availableParallelism() >= 2 ? 2 : 1;
  if (!Number.isInteger(lexicalWorkers) || lexicalWorkers < 0) {
    throw new InvalidArgumentError({ argument: 'lexicalWorkers', message: `must be a non-negative integer, got ${lexicalWorkers}` });
  }
  return lexicalWorkers;
}

/**
 * Compose a complete index in memory from documents, chunks, windows and per-chunk extractions:
 * merge → graph; entity/relation/window texts → vectors (reusing `previous` vectors whose id and
 * text are unchanged); BM25 states; the manifest. Nothing is written: an IndexStore writes it.
 */
export async function composeIndex(options: ComposeIndexOptions): Promise<ComposedIndex> {
  const { encoder, abortSignal } = options;
  const timings: Record<string, number> = {};
  const progress = (stage: string, done: number, total: number) => options.onProgress?.({ stage, done, total });
  let mark = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - mark);
    mark = now;
  };

  // BM25 states are built in worker threads (two on two cores or more; the same postings as
  // createBm25Index here): the windows' while this thread merges (their texts need no graph), the
  // others while it encodes the next kind. `timings.lexical` is the wait for them after the encoding.
  const lexicalWorkers = lexicalWorkerCount(options.lexicalWorkers);
  const lexicalBuilder = options.lexical && lexicalWorkers > 0 ? createBm25WorkerBuilder({ workers: lexicalWorkers }) : undefined;
  const lexicalBuilds = new Map<VectorKind, Promise<Bm25Index>>();
  const startLexical = (kind: VectorKind, texts: string[]) => {
    const built = lexicalBuilder!.build(texts);
    built.catch(() => undefined); // awaited after the encoding; not an unhandled rejection meanwhile
    lexicalBuilds.set(kind, built);
  };
  if (lexicalBuilder)
    startLexical(
      'windows',
      options.windows.map((w) => w.text),
    );

  // Graph. With the store's writeGraph it is written now and dropped: the encoding, the largest
  // stage of a large build, then runs without it.
  let made: MergedGraph;
  try {
    throwIfAborted(abortSignal, 'merge');
    progress('merge', 0, 1);
    made = await mergeGraph(options);
  } catch (error) {
    await lexicalBuilder?.close();
    throw error;
  }
  const { trace: mergeTrace, counts, graphStats, sentenceTokens } = made;
  if (made.writeMs !== undefined) {
    timings['write-graph'] = Math.round(made.writeMs);
    mark += made.writeMs; // the write is timed apart from the merge
  }
  timings['sentence-tokens'] = Math.round(made.sentenceMs);
  mark += made.sentenceMs;
  // The merge and the graph are let go now: collected before the encoding, not left resident.
  options.collectGarbage?.();
  progress('merge', 1, 1);
  lap('merge');

  // Per kind: its texts, their vectors, their BM25 index; a kind's texts are let go once it is
  // encoded. The merged entities and relations were let go when the texts were made (mergeGraph).
  const textsOf = kindTexts(made, options.windows);

  const vectors = {} as Record<VectorKind, VectorTable>;
  const vectorTraces = {} as Record<VectorKind, ComposedVectorTrace>;
  const lexical = options.lexical ? ({} as Partial<Record<VectorKind, Bm25Index>>) : undefined;
  let lexicalDone = 0;
  // With writeKind, each kind is handed to the store once its vectors and its BM25 state are both
  // made, in kind order, while this thread encodes the next kind.
  let writing: Promise<void> = Promise.resolve();
  try {
    for (const kind of VECTOR_KINDS) {
      throwIfAborted(abortSignal, `encode-${kind}`);
      const { ids, texts } = textsOf(kind);
      if (lexicalBuilder && !lexicalBuilds.has(kind)) startLexical(kind, texts);
      const table = await vectorsOfKind({
        kind,
        ids,
        texts,
        previous: options.previous?.[kind],
        encoder,
        batchSize: options.batchSize,
        abortSignal,
        onBatch: (done, total) => progress(`encode-${kind}`, done, total),
      });
      vectors[kind] = table.vectors;
      vectorTraces[kind] = table.trace;
      lap(`encode-${kind}`);
      if (lexical && !lexicalBuilder) {
        throwIfAborted(abortSignal, 'lexical');
        lexical[kind] = createBm25Index({ documents: texts });
        progress('lexical', ++lexicalDone, VECTOR_KINDS.length);
        timings.lexical = (timings.lexical ?? 0) + Math.round(performance.now() - mark);
        mark = performance.now();
      }
      const writeKind = options.writeKind;
      if (writeKind) {
        writing = writing.then(async () => {
          if (lexical && lexicalBuilder) {
            lexical[kind] = await lexicalBuilds.get(kind)!;
            lexicalBuilds.delete(kind); // held by the store's write only, not until the build ends
            progress('lexical', ++lexicalDone, VECTOR_KINDS.length);
          }
          throwIfAborted(abortSignal, 'write');
          const started = performance.now();
          await writeKind({
            kind,
            table: vectors[kind],
            ...(lexical ? { lexical: lexical[kind] } : {}),
            factory: options.vectorFactory,
            dimension: encoder.dimension,
            ...(options.previous?.[kind] ? { previous: options.previous[kind] } : {}),
            abortSignal,
          });
          // Written: only the ids and text hashes stay (the manifest and an addition need them).
          vectors[kind] = { ids: table.vectors.ids, textHashes: table.vectors.textHashes, vectors: [] };
          if (lexical) delete lexical[kind];
          options.collectGarbage?.();
          timings[`write-${kind}`] = Math.round(performance.now() - started);
        });
        writing.catch(() => undefined); // awaited after the encoding; not an unhandled rejection meanwhile
      }
    }
    await writing;
    if (lexical && lexicalBuilder && !options.writeKind) {
      const built = await Promise.all(VECTOR_KINDS.map((kind) => lexicalBuilds.get(kind)!));
      VECTOR_KINDS.forEach((kind, i) => {
        lexical[kind] = built[i];
      });
      progress('lexical', VECTOR_KINDS.length, VECTOR_KINDS.length);
    }
    // The wait after the last encoding: for the BM25 workers (and the stores' writes of the kinds).
    if (lexicalBuilder) lap('lexical');
  } finally {
    await lexicalBuilder?.close();
    await writing.catch(() => undefined); // no write still running when this returns or throws
  }

  const manifest: BuiltIndexManifest = {
    formatVersion: INDEX_FORMAT_VERSION,
    corpus: options.corpus,
    encoder: { id: encoder.id, dimension: encoder.dimension },
    extractor: options.extractorId,
    corpusChecksum: corpusChecksum(options.documents),
    counts: {
      documents: options.documents.length,
      chunks: options.chunks.length,
      windows: options.windows.length,
      entities: counts.entities,
      relations: counts.relations,
    },
    window: { size: options.window.size, stride: options.window.stride },
    vectorIndex: { factory: options.vectorFactory },
    buildTimeMs: Math.round(performance.now() - options.startedAt),
    // Peak resident memory of the building process so far (process-wide high-water mark, bytes).
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    createdAt: options.now().toISOString(),
    chunking: { chunkSize: options.chunkSize },
    lexical: options.lexical,
    graphStats,
    merge: mergeTrace,
  };
  return {
    contents: {
      manifest,
      documents: options.documents,
      chunks: options.chunks,
      windows: options.windows,
      extractions: options.extractions,
      ...(made.graph ? { graph: made.graph } : {}),
      vectors,
      ...(lexical ? { lexical } : {}),
      sentenceTokens,
    },
    vectors: vectorTraces,
    timings,
  };
}

/** The merge and its graph, as composeIndex holds them. */
interface MergedGraph {
  /**
   * The ids and embedded texts of the entities and of the relations, made from the merge before it
   * is let go; `kindTexts` hands each out once and clears it.
   */
  texts: Partial<Record<'entities' | 'relations', KindTexts>>;
  trace: MergeTrace;
  counts: { entities: number; relations: number };
  /** The graph, when no store's writeGraph took it. */
  graph?: KnowledgeGraph;
  graphStats: GraphStats;
  /** Milliseconds the store's writeGraph took. */
  writeMs?: number;
  /** The matching tokens of every sentence the merged entities and relations cite, and the milliseconds they took. */
  sentenceTokens: SentenceTokenTable;
  sentenceMs: number;
}

/** One vector kind's ids and the texts embedded for them, in label order. */
interface KindTexts {
  ids: string[];
  texts: string[];
}

/**
 * Merge the extractions, make the graph and hand it to the store's writeGraph when there is one,
 * then make the entities' and relations' texts and let the merge go. A function of its own, so that
 * nothing of the merge stays in composeIndex's suspended frame: an async function's locals (even a
 * block's, out of scope) keep their values while it awaits. The merged entities and relations, with
 * their descriptions, chunk ids and spans, are several times the size of their texts (about 2 GB of
 * heap at 100 MB of text): they are let go before any encoding, not held through the entities'.
 */
async function mergeGraph(options: ComposeIndexOptions): Promise<MergedGraph> {
  const { entities, relations, trace } = mergeExtractions({ extractions: options.extractions, maxDescriptionLength: options.maxDescriptionLength });
  const merged = { entities, relations };
  const graph = knowledgeGraphFromMerge(merged);
  let started = performance.now();
  const sentenceTokens = createSentenceTokens({ chunks: options.chunks, spans: citedSpans(merged) });
  const sentenceMs = performance.now() - started;
  const counts = { entities: entities.length, relations: relations.length };
  const graphStats = computeGraphStats({ graph });
  let writeMs: number | undefined;
  if (options.writeGraph) {
    throwIfAborted(options.abortSignal, 'write');
    started = performance.now();
    await options.writeGraph({ graph, abortSignal: options.abortSignal });
    writeMs = performance.now() - started;
  }
  // Returned without the merge: once this function returns, nothing holds it (but the graph, when
  // no store took it).
  return {
    trace,
    counts,
    graphStats,
    sentenceTokens,
    sentenceMs,
    texts: mergedTexts(merged),
    ...(writeMs === undefined ? { graph } : { writeMs }),
  };
}

/** Every sentence span of the merged entities and relations (repeats included). */
function* citedSpans(merged: Pick<MergeExtractionsResult, 'entities' | 'relations'>): Generator<TextSpan> {
  for (const entity of merged.entities) if (entity.spans) yield* entity.spans;
  for (const relation of merged.relations) if (relation.spans) yield* relation.spans;
}

/** The entities' and relations' ids and embedded texts (`entityText`, `relationText` with the ends' names). */
function mergedTexts(merged: Pick<MergeExtractionsResult, 'entities' | 'relations'>): Record<'entities' | 'relations', KindTexts> {
  const names = new Map(merged.entities.map((e) => [e.id, e.name]));
  return {
    entities: { ids: merged.entities.map((e) => e.id), texts: merged.entities.map(entityText) },
    relations: {
      ids: merged.relations.map((r) => r.id),
      texts: merged.relations.map((r) => relationText(r, names.get(r.source) ?? r.source, names.get(r.target) ?? r.target)),
    },
  };
}

/**
 * Each kind's ids and texts, as the encoding asks for them (in VECTOR_KINDS order): the windows'
 * made now, the entities' and relations' handed out of `made.texts` and cleared there, so that
 * nothing holds a kind's texts after its encoding and its BM25 build.
 */
function kindTexts(made: MergedGraph, windows: readonly SourceWindow[]): (kind: VectorKind) => KindTexts {
  return (kind) => {
    if (kind === 'windows') return { ids: windows.map((w) => w.id), texts: windows.map((w) => w.text) };
    const texts = made.texts[kind];
    if (!texts) throw new Error(`the texts of the ${kind} were asked for twice`);
    delete made.texts[kind];
    return texts;
  };
}

interface VectorsOfKindOptions {
  kind: VectorKind;
  ids: string[];
  texts: string[];
  previous?: VectorTable;
  encoder: Encoder;
  batchSize: number;
  abortSignal?: AbortSignal;
  onBatch: (done: number, total: number) => void;
}

/** The vectors of one kind: reused from `previous` where id and text hash match, the rest encoded. */
async function vectorsOfKind(options: VectorsOfKindOptions): Promise<{ vectors: VectorTable; trace: ComposedVectorTrace }> {
  const { kind, ids, texts, previous, encoder } = options;
  const hashes = texts.map(textHash);
  const reusable = new Map<string, Float32Array>();
  if (previous) {
    previous.ids.forEach((id, row) => {
      const vector = previous.vectors[row];
      if (vector && vector.length === encoder.dimension) reusable.set(`${id}\t${previous.textHashes[row]}`, vector);
    });
  }
  const vectors: (Float32Array | undefined)[] = ids.map((id, i) => reusable.get(`${id}\t${hashes[i]}`));
  const missing = vectors.flatMap((vector, i) => (vector ? [] : [i]));
  options.onBatch(0, missing.length);
  const encoded = await encodeTexts({
    encoder,
    texts: missing.map((i) => texts[i]),
    batchSize: options.batchSize,
    abortSignal: options.abortSignal,
    onBatch: options.onBatch,
    stage: `encode-${kind}`,
  });
  missing.forEach((i, k) => {
    vectors[i] = encoded[k];
  });
  return {
    vectors: { ids, textHashes: hashes, vectors: vectors as Float32Array[] },
    trace: { count: ids.length, encoded: missing.length, reused: ids.length - missing.length },
  };
}
