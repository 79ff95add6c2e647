import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { saveGraphBinary } from '@mosaic/graph';
import { encodeSentenceTokens } from '@mosaic/stage-utils/internal';
import { InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type { Encoder } from '@mosaic/spec';
import { Bm25Index, createFaissVectorIndex, loadFaissVectorIndex, type FaissVectorIndex } from '@mosaic/vector-index';
import type { ProgressEvent } from '../progress/progress-event.js';
import { createTemporarySibling, replaceDirectory } from './atomic-directory.js';
import type { IndexContents, StoredChunk, StoredWindow, VectorTable } from './compose-index.js';
import { ExtractionLog } from './extraction-log.js';
import { fileDigest, writeGzipParts, writeJson, writeJsonl, writeParts } from './index-files.js';
import { chooseVectorFactory, vectorSearchParameters } from './vector-factory.js';
import { requiredIndexFiles } from './index-manifest-schema.js';
import { INDEX_FILES, INDEX_FORMAT_VERSION, VECTOR_KINDS, type IndexDirectoryManifest, type VectorKind } from './index-layout.js';
import type {
  IndexStore,
  StoredIndexContents,
  WriteIndexContentsOptions,
  WriteIndexContentsResult,
  WriteIndexGraphOptions,
  WriteIndexKindOptions,
} from './index-store.js';
import { checkIndexDirectory, readIndexContents, readIndexManifest } from './load-index.js';

export interface DirectoryIndexStoreOptions {
  /** The index directory (created, or replaced atomically, by `write`). */
  dir: string;
}

/**
 * An index directory as an IndexStore: `write` builds the files in `<dir>.tmp-<pid>-<random>`
 * (made by `prepare` before extraction, or by `write`; manifest.json last) and renames it into
 * place; on error or abort the temporary directory is removed and `dir` is left as it was. `read`
 * checks the manifest, every file's size and sha256. One build at a time per store object.
 */
export function createDirectoryIndexStore(options: DirectoryIndexStoreOptions): IndexStore<IndexDirectoryManifest> {
  const { dir } = options;
  if (typeof dir !== 'string' || dir.length === 0) throw new InvalidArgumentError({ argument: 'dir', message: 'is required' });
  // The temporary directory made by prepare (before extraction, as builds always did), used by write.
  let prepared: string | undefined;
  // Kinds written into it by writeKind during the build, and whether writeGraph wrote the graph.
  let early: Partial<Record<VectorKind, WrittenKind>> = {};
  let graphWritten = false;
  return {
    location: dir,
    async prepare() {
      prepared ??= await createTemporarySibling(dir);
    },
    async discard() {
      if (prepared) await rm(prepared, { recursive: true, force: true });
      prepared = undefined;
      early = {};
      graphWritten = false;
    },
    async writeKind(options: WriteIndexKindOptions): Promise<{ appended: boolean }> {
      prepared ??= await createTemporarySibling(dir);
      throwIfAborted(options.abortSignal, 'write');
      const written = await writeKindFiles({ ...options, dir: prepared });
      early[options.kind] = written;
      return { appended: written.appended };
    },
    async writeGraph(options: WriteIndexGraphOptions): Promise<void> {
      prepared ??= await createTemporarySibling(dir);
      throwIfAborted(options.abortSignal, 'write');
      await saveGraphBinary({ graph: options.graph, path: join(prepared, INDEX_FILES.graph) });
      graphWritten = true;
    },
    async read({ encoder }: { encoder: Pick<Encoder, 'id' | 'dimension'> }): Promise<StoredIndexContents> {
      const manifest = await readIndexManifest(dir);
      await checkIndexDirectory({ dir, manifest, encoder });
      return readIndexContents(dir, manifest);
    },
    async write(write: WriteIndexContentsOptions): Promise<WriteIndexContentsResult<IndexDirectoryManifest>> {
      const temporary = prepared ?? (await createTemporarySibling(dir));
      const writtenKinds = early;
      const writtenGraph = graphWritten;
      prepared = undefined;
      early = {};
      graphWritten = false;
      try {
        const written = await writeIndexDirectory({ ...write, dir: temporary, written: writtenKinds, graphWritten: writtenGraph });
        throwIfAborted(write.abortSignal, 'write');
        await replaceDirectory(temporary, dir);
        return { location: dir, manifest: written.manifest, appended: written.appended };
      } catch (error) {
        await rm(temporary, { recursive: true, force: true });
        throw error;
      }
    },
  };
}

export interface WriteIndexDirectoryOptions {
  /** An empty directory to write into; manifest.json is written last. */
  dir: string;
  contents: IndexContents;
  /** The index being extended: its faiss files are appended to when the ids extend unchanged. */
  previous?: { vectors: Partial<Record<VectorKind, VectorTable>> };
  /** Kinds whose vector and BM25 files are already in `dir` (written by writeKindFiles during the build). */
  written?: Partial<Record<VectorKind, WrittenKind>>;
  /** graph.bin.gz is already in `dir` (written by the store's writeGraph); `contents.graph` is then not needed. */
  graphWritten?: boolean;
  startedAt?: number;
  onProgress?: (event: ProgressEvent) => void;
  abortSignal?: AbortSignal;
}

/**
 * Write index contents as the files of an index directory: graph.bin.gz, per kind a faiss index
 * (holding the vectors) and ids + text hashes, BM25 indexes, streamed JSONL stores, the sentence
 * tokens when the contents carry them, and finally
 * manifest.json listing every file with its size and sha256.
 */
export async function writeIndexDirectory(
  options: WriteIndexDirectoryOptions,
): Promise<{ manifest: IndexDirectoryManifest; appended: Record<VectorKind, boolean> }> {
  const { dir, contents, abortSignal } = options;
  const { manifest: built } = contents;
  const progress = (done: number) => options.onProgress?.({ stage: 'write', done, total: 1 });
  throwIfAborted(abortSignal, 'write');
  progress(0);
  if (contents.graph) await saveGraphBinary({ graph: contents.graph, path: join(dir, INDEX_FILES.graph) });
  else if (!options.graphWritten)
    throw new InvalidArgumentError({ argument: 'contents.graph', message: 'is required (the graph was not written during the build)' });
  const appended = {} as Record<VectorKind, boolean>;
  const factories = {} as Record<VectorKind, string>;
  for (const kind of VECTOR_KINDS) {
    throwIfAborted(abortSignal, 'write');
    const done = options.written?.[kind];
    if (done) {
      factories[kind] = done.factory;
      appended[kind] = done.appended;
      continue;
    }
    factories[kind] = chooseVectorFactory(built.vectorIndex.factory, contents.vectors[kind].ids.length, kind);
    appended[kind] = await writeVectorFiles({
      dir,
      kind,
      table: contents.vectors[kind],
      previous: options.previous?.vectors[kind],
      dimension: built.encoder.dimension,
      factory: factories[kind],
    });
  }
  if (built.lexical) {
    for (const kind of VECTOR_KINDS) {
      if (options.written?.[kind]?.lexical) continue;
      const state = contents.lexical?.[kind];
      if (!state) throw new InvalidArgumentError({ argument: 'contents.lexical', message: `the manifest says lexical, but ${kind} has no BM25 state` });
      const index = state instanceof Bm25Index ? state : Bm25Index.fromJSON(state, { source: `contents.lexical.${kind}` });
      await writeGzipParts(join(dir, INDEX_FILES.lexical(kind)), index.toBinary());
    }
  }
  throwIfAborted(abortSignal, 'write');
  await writeJsonl(
    join(dir, INDEX_FILES.documents),
    // One document per line with its outline (title, sections, line/page anchors) when the reader kept one.
    mapRows(contents.documents, (d) =>
      d.outline ? { id: d.id, corpus: d.corpus, text: d.text, outline: d.outline } : { id: d.id, corpus: d.corpus, text: d.text },
    ),
  );
  await writeJsonl(
    join(dir, INDEX_FILES.chunks),
    mapRows(contents.chunks, (c): StoredChunk => ({ id: c.id, documentId: c.documentId, start: c.start, end: c.end })),
  );
  await writeJsonl(
    join(dir, INDEX_FILES.windows),
    mapRows(contents.windows, (w): StoredWindow => ({ id: w.id, documentId: w.documentId, start: w.start, end: w.end, chunkIds: w.chunkIds })),
  );
  // The build's compressed log is the file already (its blocks are gzip members); an array is written line by line.
  if (contents.extractions instanceof ExtractionLog)
    await writeParts(
      join(dir, INDEX_FILES.extractions),
      contents.extractions.blocks().map((block) => block.gzip),
    );
  else await writeJsonl(join(dir, INDEX_FILES.extractions), contents.extractions);

  const names = requiredIndexFiles(built.lexical);
  if (contents.sentenceTokens) {
    await writeGzipParts(join(dir, INDEX_FILES.sentences), encodeSentenceTokens(contents.sentenceTokens));
    names.push(INDEX_FILES.sentences);
  }

  const files: Record<string, number> = {};
  const digests: Record<string, string> = {};
  for (const name of names) {
    files[name] = (await stat(join(dir, name))).size;
    digests[name] = await fileDigest(join(dir, name));
  }

  throwIfAborted(abortSignal, 'write');
  // Field order as the directory layout has always written it.
  const manifest: IndexDirectoryManifest = {
    // The layout these files are written in, whatever the contents were read from (an addition to a format-4 index writes 5).
    formatVersion: INDEX_FORMAT_VERSION,
    corpus: built.corpus,
    encoder: built.encoder,
    extractor: built.extractor,
    corpusChecksum: built.corpusChecksum,
    counts: built.counts,
    window: built.window,
    vectorIndex: { ...built.vectorIndex, factories },
    buildTimeMs: options.startedAt === undefined ? built.buildTimeMs : Math.round(performance.now() - options.startedAt),
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    createdAt: built.createdAt,
    chunking: built.chunking,
    lexical: built.lexical,
    files,
    digests,
    graphStats: built.graphStats,
    merge: built.merge,
  };
  // The manifest is the last file: a directory without it is never a loadable index.
  await writeJson(join(dir, INDEX_FILES.manifest), manifest);
  progress(1);
  return { manifest, appended };
}

/** What writeKindFiles wrote of one kind. */
export interface WrittenKind {
  /** The faiss factory the kind was built with. */
  factory: string;
  /** True when the previous faiss index was appended to. */
  appended: boolean;
  /** True when its BM25 file was written too. */
  lexical: boolean;
}

/** One kind's files (faiss index, ids + text hashes, BM25 state when given) into an index directory being built. */
async function writeKindFiles(options: WriteIndexKindOptions & { dir: string }): Promise<WrittenKind> {
  const factory = chooseVectorFactory(options.factory, options.table.ids.length, options.kind);
  const appended = await writeVectorFiles({
    dir: options.dir,
    kind: options.kind,
    table: options.table,
    previous: options.previous,
    dimension: options.dimension,
    factory,
    releaseRows: true,
  });
  if (options.lexical) await writeGzipParts(join(options.dir, INDEX_FILES.lexical(options.kind)), options.lexical.toBinary());
  return { factory, appended, lexical: options.lexical !== undefined };
}

interface WriteVectorFilesOptions {
  dir: string;
  kind: VectorKind;
  table: VectorTable;
  previous?: VectorTable;
  dimension: number;
  factory: string;
  /** The table is handed over: its rows may be let go (replaced by an empty vector) once added to faiss. */
  releaseRows?: boolean;
}

/** Rows added to faiss at a time when they are let go after: 8 of FaissVectorIndex's own add slices (8,192). */
const RELEASE_SLICE = 8 * 8192;
const RELEASED_ROW = new Float32Array(0);

/** Rows mapped one at a time, as they are written (no second array of the whole table). */
function* mapRows<T, U>(rows: readonly T[], map: (row: T) => U): Generator<U> {
  for (const row of rows) yield map(row);
}

/**
 * The faiss index (which also holds the vectors: no second copy is written) and the ids + text
 * hashes of one kind; true when the previous faiss index was appended to.
 */
async function writeVectorFiles(options: WriteVectorFilesOptions): Promise<boolean> {
  const { dir, kind, table, previous, dimension } = options;
  const { ids, textHashes: hashes, vectors: all } = table;
  // Append to the previous faiss index when the new ids extend the old ones unchanged.
  let appended = false;
  const faissPath = join(dir, INDEX_FILES.vectors(kind, 'faiss'));
  let index: FaissVectorIndex | undefined;
  const prefix =
    previous?.faissPath !== undefined &&
    previous.factory === options.factory &&
    previous.ids.length <= ids.length &&
    previous.ids.every((id, row) => ids[row] === id && previous.textHashes[row] === hashes[row]);
  if (prefix && previous?.faissPath) {
    index = await loadFaissVectorIndex({ path: previous.faissPath, dimension });
    if (index.size === previous.ids.length) {
      await index.add(all.slice(previous.ids.length));
      appended = true;
    }
  }
  if (!appended) {
    index = createFaissVectorIndex({ dimension, factory: options.factory, searchParameters: vectorSearchParameters(options.factory) });
    if (options.releaseRows) {
      // The build hands the table over (writeKind): each slice's rows are let go once faiss holds
      // them, so a large kind is not held twice while its (HNSW) index is built. Trained first on the
      // sample one add would take, then added in whole multiples of the index's own add slices:
      // faiss sees the same calls, and builds what one add would.
      await index.train(all);
      for (let start = 0; start < all.length; start += RELEASE_SLICE) {
        const end = Math.min(all.length, start + RELEASE_SLICE);
        await index.add(all.slice(start, end));
        all.fill(RELEASED_ROW, start, end);
      }
    } else {
      await index.add(all);
    }
  }
  await index!.save(faissPath);
  await writeJson(join(dir, INDEX_FILES.vectors(kind, 'json')), { ids, textHashes: hashes });
  return appended;
}
