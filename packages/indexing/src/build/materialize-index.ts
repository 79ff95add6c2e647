import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { computeGraphStats, knowledgeGraphFromMerge, mergeExtractions, saveGraph, type ChunkExtraction, type GraphStats, type MergeTrace } from '@mosaic/graph';
import { throwIfAborted } from '@mosaic/spec';
import type { Chunk, Encoder, SourceDocument, SourceWindow } from '@mosaic/spec';
import { createBm25Index, createFaissVectorIndex, loadFaissVectorIndex, type FaissVectorIndex } from '@mosaic/vector-index';
import type { WindowConfig } from '../chunking/window-document.js';
import type { ProgressEvent } from '../progress/progress-event.js';
import { encodeTexts } from './encode-texts.js';
import { corpusChecksum, fileDigest, textHash, writeJson, writeJsonl, writeVectors } from './index-files.js';
import { requiredIndexFiles } from './index-manifest-schema.js';
import { INDEX_FILES, INDEX_FORMAT_VERSION, VECTOR_KINDS, type IndexDirectoryManifest, type VectorKind } from './index-layout.js';
import { entityText, relationText } from '@mosaic/stage-utils';

/** Vectors of one kind from an existing index, reused when ids and texts are unchanged. */
export interface VectorTable {
  ids: string[];
  textHashes: string[];
  vectors: Float32Array[];
  /** The faiss file of that index, appended to when the new ids extend the old ones. */
  faissPath?: string;
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

export interface MaterializeIndexOptions {
  /** Directory to write into (a temporary directory; the manifest is written last). */
  dir: string;
  corpus: string;
  documents: readonly SourceDocument[];
  chunks: readonly Chunk[];
  windows: readonly SourceWindow[];
  extractions: readonly ChunkExtraction[];
  encoder: Encoder;
  extractorId: string;
  vectorFactory: string;
  window: WindowConfig;
  chunkSize: number;
  lexical: boolean;
  batchSize: number;
  maxDescriptionLength?: number;
  previous?: Partial<Record<VectorKind, VectorTable>>;
  startedAt: number;
  now: () => Date;
  onProgress?: (event: ProgressEvent) => void;
  abortSignal?: AbortSignal;
}

export interface VectorKindTrace {
  count: number;
  /** Texts sent to the encoder. */
  encoded: number;
  /** Vectors reused from the previous index. */
  reused: number;
  /** True when the previous faiss index was loaded and appended to instead of rebuilt. */
  appended: boolean;
}

export interface MaterializeIndexResult {
  manifest: IndexDirectoryManifest;
  merge: MergeTrace;
  graphStats: GraphStats;
  vectors: Record<VectorKind, VectorKindTrace>;
  timings: Record<string, number>;
}

/**
 * Write a complete index directory from documents, chunks, windows and per-chunk
 * extractions: merge → graph.json; entity/relation/window texts → vectors (reusing
 * `previous` vectors whose id and text are unchanged) → faiss + raw float32 + id files;
 * BM25 indexes; JSONL stores; and finally manifest.json listing every file with its size and sha256.
 */
export async function materializeIndex(options: MaterializeIndexOptions): Promise<MaterializeIndexResult> {
  const { dir, encoder, abortSignal } = options;
  const timings: Record<string, number> = {};
  const progress = (stage: string, done: number, total: number) => options.onProgress?.({ stage, done, total });
  let mark = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - mark);
    mark = now;
  };

  // Graph.
  throwIfAborted(abortSignal, 'merge');
  progress('merge', 0, 1);
  const merged = mergeExtractions({ extractions: options.extractions, maxDescriptionLength: options.maxDescriptionLength });
  const graph = knowledgeGraphFromMerge(merged);
  const graphStats = computeGraphStats({ graph });
  await saveGraph({ graph, path: join(dir, INDEX_FILES.graph) });
  progress('merge', 1, 1);
  lap('merge');

  // Texts per kind.
  const nameOf = new Map(merged.entities.map((e) => [e.id, e.name]));
  const texts: Record<VectorKind, { ids: string[]; texts: string[] }> = {
    entities: { ids: merged.entities.map((e) => e.id), texts: merged.entities.map(entityText) },
    relations: {
      ids: merged.relations.map((r) => r.id),
      texts: merged.relations.map((r) => relationText(r, nameOf.get(r.source) ?? r.source, nameOf.get(r.target) ?? r.target)),
    },
    windows: { ids: options.windows.map((w) => w.id), texts: options.windows.map((w) => w.text) },
  };

  const vectorTraces = {} as Record<VectorKind, VectorKindTrace>;
  for (const kind of VECTOR_KINDS) {
    throwIfAborted(abortSignal, `encode-${kind}`);
    vectorTraces[kind] = await writeVectorKind({
      dir,
      kind,
      ids: texts[kind].ids,
      texts: texts[kind].texts,
      previous: options.previous?.[kind],
      encoder,
      factory: options.vectorFactory,
      batchSize: options.batchSize,
      abortSignal,
      onBatch: (done, total) => progress(`encode-${kind}`, done, total),
    });
    lap(`encode-${kind}`);
  }

  if (options.lexical) {
    for (const kind of VECTOR_KINDS) {
      throwIfAborted(abortSignal, 'lexical');
      const index = createBm25Index({ documents: texts[kind].texts });
      await writeJson(join(dir, INDEX_FILES.lexical(kind)), index.toJSON());
      progress('lexical', VECTOR_KINDS.indexOf(kind) + 1, VECTOR_KINDS.length);
    }
    lap('lexical');
  }

  throwIfAborted(abortSignal, 'write');
  progress('write', 0, 1);
  await writeJsonl(
    join(dir, INDEX_FILES.documents),
    options.documents.map((d) => ({ id: d.id, corpus: d.corpus, text: d.text })),
  );
  await writeJsonl(
    join(dir, INDEX_FILES.chunks),
    options.chunks.map((c): StoredChunk => ({ id: c.id, documentId: c.documentId, start: c.start, end: c.end })),
  );
  await writeJsonl(
    join(dir, INDEX_FILES.windows),
    options.windows.map((w): StoredWindow => ({ id: w.id, documentId: w.documentId, start: w.start, end: w.end, chunkIds: w.chunkIds })),
  );
  await writeJsonl(join(dir, INDEX_FILES.extractions), options.extractions);

  const files: Record<string, number> = {};
  const digests: Record<string, string> = {};
  for (const name of requiredIndexFiles(options.lexical)) {
    files[name] = (await stat(join(dir, name))).size;
    digests[name] = await fileDigest(join(dir, name));
  }

  throwIfAborted(abortSignal, 'write');
  const manifest: IndexDirectoryManifest = {
    formatVersion: INDEX_FORMAT_VERSION,
    corpus: options.corpus,
    encoder: { id: encoder.id, dimension: encoder.dimension },
    extractor: options.extractorId,
    corpusChecksum: corpusChecksum(options.documents),
    counts: {
      documents: options.documents.length,
      chunks: options.chunks.length,
      windows: options.windows.length,
      entities: merged.entities.length,
      relations: merged.relations.length,
    },
    window: { size: options.window.size, stride: options.window.stride },
    vectorIndex: { factory: options.vectorFactory },
    buildTimeMs: Math.round(performance.now() - options.startedAt),
    // Peak resident memory of the building process so far (process-wide high-water mark, bytes).
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    createdAt: options.now().toISOString(),
    chunking: { chunkSize: options.chunkSize },
    lexical: options.lexical,
    files,
    digests,
    graphStats,
    merge: merged.trace,
  };
  // The manifest is the last file: a directory without it is never a loadable index.
  await writeJson(join(dir, INDEX_FILES.manifest), manifest);
  progress('write', 1, 1);
  lap('write');
  return { manifest, merge: merged.trace, graphStats, vectors: vectorTraces, timings };
}

interface WriteVectorKindOptions {
  dir: string;
  kind: VectorKind;
  ids: string[];
  texts: string[];
  previous?: VectorTable;
  encoder: Encoder;
  factory: string;
  batchSize: number;
  abortSignal?: AbortSignal;
  onBatch: (done: number, total: number) => void;
}

async function writeVectorKind(options: WriteVectorKindOptions): Promise<VectorKindTrace> {
  const { dir, kind, ids, texts, previous, encoder } = options;
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
  const all = vectors as Float32Array[];

  // Append to the previous faiss index when the new ids extend the old ones unchanged.
  let appended = false;
  const faissPath = join(dir, INDEX_FILES.vectors(kind, 'faiss'));
  let index: FaissVectorIndex | undefined;
  const prefix =
    previous?.faissPath !== undefined &&
    previous.ids.length <= ids.length &&
    previous.ids.every((id, row) => ids[row] === id && previous.textHashes[row] === hashes[row]);
  if (prefix && previous?.faissPath) {
    index = await loadFaissVectorIndex({ path: previous.faissPath, dimension: encoder.dimension });
    if (index.size === previous.ids.length) {
      await index.add(all.slice(previous.ids.length));
      appended = true;
    }
  }
  if (!appended) {
    index = createFaissVectorIndex({ dimension: encoder.dimension, factory: options.factory });
    await index.add(all);
  }
  await index!.save(faissPath);
  await writeVectors(join(dir, INDEX_FILES.vectors(kind, 'f32')), all, encoder.dimension);
  await writeJson(join(dir, INDEX_FILES.vectors(kind, 'json')), { ids, textHashes: hashes });
  return { count: ids.length, encoded: missing.length, reused: ids.length - missing.length, appended };
}
