import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeGraphBinary, type ChunkExtraction, type CompactGraphStore } from '@mosaic/graph';
import { IndexMismatchError, InputError, MosaicError } from '@mosaic/spec';
import { packOutlineAnchors } from '@mosaic/stage-utils';
import { labelMapOf, sentenceTokensFromParts, shareLabelMap, type SentenceTokenTable } from '@mosaic/stage-utils/internal';
import type { Chunk, CorpusIndex, Encoder, LexicalIndex, SourceDocument, SourceWindow } from '@mosaic/spec';
import {
  Bm25Index,
  type FaissFloat16Vectors,
  type FaissStoredVectors,
  firstNonFiniteVector,
  float16Matrix,
  float16Row,
  faissReadsItself,
  loadFaissVectorIndex,
  readFaissStoredVectorsFile,
  resolveMaxPostingsPerTerm,
} from '@mosaic/vector-index';
import { InMemoryChunkStore } from '../chunking/in-memory-chunk-store.js';
import { digestsInWorker, loadInWorker, type LoadWorkerFallbackEvent, type LoadWorkerOptions, resolveLoadStallMs } from './load-in-workers.js';
import type { StoredKindVectors } from './load-tasks.js';
import { corpusChecksum, fileDigest, matrixRows, readJson, readJsonl } from './index-files.js';
import { parseIndexManifest } from './index-manifest-schema.js';
import { INDEX_FILES, storeFileNames, VECTOR_KINDS, type IndexDirectoryManifest, type VectorKind } from './index-layout.js';
import type { StoredChunk, StoredWindow, VectorTable } from './compose-index.js';

export interface LoadIndexOptions {
  /** The index directory. */
  dir: string;
  /** Encoder for queries; must have the manifest's encoder id and dimension. */
  encoder: Encoder;
  /** When set, the manifest's encoder id must also equal this. */
  expectedEncoderId?: string;
  /** faiss search parameters applied to the three vector indexes (e.g. { nprobe: 8 } for IVF). */
  searchParameters?: Readonly<Record<string, number>>;
  /**
   * Most postings a BM25 query reads per term (`Bm25IndexFromDecodedOptions.maxPostingsPerTerm`):
   * a term in more labels than this is read for its highest-weighted ones only, so that a question's
   * lexical scoring costs at most this many postings a term, not a share of the corpus. Default
   * DEFAULT_MAX_POSTINGS_PER_TERM of @mosaic/vector-index (16,384: no term of GraphRAG-Bench Medical
   * or Novel is in more, so they score exactly as before). `false`: every posting.
   */
  maxPostingsPerTerm?: number | false;
  /** 'digests' (default): check every file's sha256 against the manifest; 'sizes': sizes only. */
  verify?: IndexVerification;
  /**
   * Called as each phase of the load ends, with the phase's name and wall milliseconds (for load
   * benches: see apps/demo/scripts/load-bench.mjs). Phases: `manifest`, `check` (sizes and
   * digests), `documents`, `chunks`, `windows`, `vectors` (ids and stored vectors), `graph`,
   * `faiss.<kind>`, `bm25.<kind>`, `stores` (the chunk store), `digests` (waiting for the sha256
   * check, which runs in a worker thread from `check` on).
   */
  onPhase?: (event: LoadPhaseEvent) => void;
  /**
   * Milliseconds a load worker thread (stored vectors, gzip files, the sha256 check) may stay silent
   * before this thread does its remaining work itself (default LOAD_STALL_MS, 2 minutes; a worker
   * says it is alive every second while it can). A worker that cannot start, fails or exits before
   * answering is given up on at once. The index loaded is the same either way, later.
   */
  stallMs?: number;
  /** Told when a worker is given up on (which, why, and the files read on this thread instead). */
  onWorkerFallback?: (event: LoadWorkerFallbackEvent) => void;
}

/** One ended phase of loadIndex: its name and its wall time in milliseconds. */
export interface LoadPhaseEvent {
  phase: string;
  ms: number;
}

/** A phase clock: `end(name)` reports the time since the previous `end` (or since creation). */
function phaseClock(onPhase: ((event: LoadPhaseEvent) => void) | undefined): { end(phase: string): void; restart(): void } {
  let last = performance.now();
  return {
    restart() {
      last = performance.now();
    },
    end(phase) {
      if (!onPhase) return;
      const now = performance.now();
      onPhase({ phase, ms: now - last });
      last = now;
    },
  };
}

/** A loaded index: the spec's CorpusIndex with this package's manifest and extra accessors. */
export interface LoadedCorpusIndex extends CorpusIndex {
  manifest: IndexDirectoryManifest;
  /** The graph, read from its binary file: nodes and edges are built when asked for. */
  graph: CompactGraphStore;
  chunks: InMemoryChunkStore;
  /** The documents of the corpus. */
  documents: readonly SourceDocument[];
  dir: string;
  /**
   * 'digests': every file matched its recorded sha256; 'sizes': only sizes were checked (`verify:
   * 'sizes'`, or an index built before digests were recorded: rebuild it to get them).
   */
  integrity: IndexIntegrity;
}

async function fileSize(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).size;
  } catch {
    return undefined;
  }
}

/** Read manifest.json of an index directory and validate it (see parseIndexManifest). */
export async function readIndexManifest(dir: string): Promise<IndexDirectoryManifest> {
  const path = join(dir, INDEX_FILES.manifest);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new IndexMismatchError({
      path: dir,
      field: 'manifest',
      expected: INDEX_FILES.manifest,
      actual: 'missing',
      message: `${dir} is not a complete index: ${INDEX_FILES.manifest} is missing`,
      cause,
    });
  }
  return parseIndexManifest({ text, path });
}

/**
 * How much of an index's files loading checks: `'digests'` (default) the size and sha256 of every
 * listed file; `'sizes'` their sizes only. Indexes built before digests were recorded are
 * checked by size whatever this says.
 */
export type IndexVerification = 'digests' | 'sizes';

/** What checkIndexDirectory verified: `'digests'`, or `'sizes'` only (asked for, or no digests recorded). */
export type IndexIntegrity = 'digests' | 'sizes';

/**
 * Check that the encoder matches the manifest and every listed file is present with its recorded
 * size and (with `verify: 'digests'`, the default, when the manifest records them) sha256.
 */
export async function checkIndexDirectory(options: {
  dir: string;
  manifest: IndexDirectoryManifest;
  encoder: Pick<Encoder, 'id' | 'dimension'>;
  expectedEncoderId?: string;
  verify?: IndexVerification;
}): Promise<{ integrity: IndexIntegrity }> {
  const { dir, manifest, encoder } = options;
  if (options.expectedEncoderId !== undefined && manifest.encoder.id !== options.expectedEncoderId) {
    throw new IndexMismatchError({ path: dir, field: 'encoder.id', expected: options.expectedEncoderId, actual: manifest.encoder.id });
  }
  if (manifest.encoder.id !== encoder.id) {
    throw new IndexMismatchError({ path: dir, field: 'encoder.id', expected: encoder.id, actual: manifest.encoder.id });
  }
  if (manifest.encoder.dimension !== encoder.dimension) {
    throw new IndexMismatchError({ path: dir, field: 'encoder.dimension', expected: encoder.dimension, actual: manifest.encoder.dimension });
  }
  for (const [name, bytes] of Object.entries(manifest.files)) {
    const size = await fileSize(join(dir, name));
    if (size === undefined) throw new IndexMismatchError({ path: join(dir, name), field: `files.${name}`, expected: 'present', actual: 'missing' });
    if (size !== bytes) throw new IndexMismatchError({ path: join(dir, name), field: `files.${name}.bytes`, expected: bytes, actual: size });
  }
  if ((options.verify ?? 'digests') === 'sizes' || !manifest.digests) return { integrity: 'sizes' };
  await checkDigests(dir, manifest.digests, Object.keys(manifest.files), (paths) => sequentialDigests(dir, paths));
  return { integrity: 'digests' };
}

/** Every listed file's sha256 against the manifest's; IndexMismatchError naming the first that differs. */
async function checkDigests(
  dir: string,
  digests: Record<string, string>,
  names: readonly string[],
  hash: (names: readonly string[]) => Promise<string[]>,
): Promise<void> {
  const actual = await hash(names);
  names.forEach((name, i) => {
    const expected = digests[name];
    if (actual[i] !== expected) {
      throw new IndexMismatchError({
        path: join(dir, name),
        field: `digests.${name}`,
        expected,
        actual: actual[i],
        message: `${join(dir, name)} was changed after the index was built (its sha256 differs from the manifest's); rebuild the index`,
      });
    }
  });
}

async function sequentialDigests(dir: string, names: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const name of names) out.push(await readListed(dir, name, fileDigest));
  return out;
}

/** Everything stored in an index directory, as plain data (used by loadIndex and addDocuments). */
export interface IndexDirectoryContents {
  manifest: IndexDirectoryManifest;
  documents: SourceDocument[];
  chunks: Chunk[];
  windows: SourceWindow[];
  /** Empty when read with `extractions: false`. */
  extractions: ChunkExtraction[];
  vectors: Record<VectorKind, VectorTable>;
  /**
   * Per kind the stored vectors, when read with `vectorRows: false` (`vectors[kind].vectors` is then
   * empty): one row-major float32 matrix, or the float16 codes of a scalar-quantised file as they are
   * (decode a row with `float16Row` of @mosaic/vector-index), with the file's layout.
   */
  stored?: Record<VectorKind, StoredKindVectors>;
}

/** Wrap unexpected read/parse failures of a listed file into IndexMismatchError naming the file. */
async function readListed<T>(dir: string, name: string, read: (path: string) => Promise<T>): Promise<T> {
  try {
    return await read(join(dir, name));
  } catch (cause) {
    if (MosaicError.isInstance(cause)) throw cause;
    throw new IndexMismatchError({ path: join(dir, name), field: `files.${name}`, expected: 'readable', actual: 'unreadable', cause });
  }
}

/**
 * Read the stored documents, chunks, windows, extractions and vector tables of a checked index
 * directory. The documents must hash to the manifest's `corpusChecksum` and every stored vector
 * must be finite (IndexMismatchError otherwise): both hold for old indexes without digests too.
 */
export async function readIndexContents(
  dir: string,
  manifest: IndexDirectoryManifest,
  options: { extractions?: boolean; vectorRows?: boolean; onPhase?: (event: LoadPhaseEvent) => void } = {},
): Promise<IndexDirectoryContents> {
  const keepFloat16 = options.vectorRows === false;
  return readContents(dir, manifest, options, async (path) => {
    const stored = readFaissStoredVectorsFile(path, { keepFloat16 });
    return { stored, nonFinite: firstNonFiniteVector(stored) };
  });
}

/** What the faiss file of a kind stores, read and checked for non-finite values (by this thread or the load worker). */
type StoredVectorsReader = (path: string) => Promise<{ stored: StoredKindVectors; nonFinite: { row: number; value: number } | undefined }>;

async function readContents(
  dir: string,
  manifest: IndexDirectoryManifest,
  options: { extractions?: boolean; vectorRows?: boolean; onPhase?: (event: LoadPhaseEvent) => void },
  readStored: StoredVectorsReader,
): Promise<IndexDirectoryContents> {
  const clock = phaseClock(options.onPhase);
  // Format 4 kept them as plain JSON Lines, format 5 gzip'd (same rows).
  const names = storeFileNames(manifest.formatVersion);
  const documents = await readListed(dir, names.documents, (p) => readJsonl<SourceDocument>(p));
  const malformed = documents.findIndex(
    (d) =>
      typeof d !== 'object' ||
      d === null ||
      typeof d.id !== 'string' ||
      typeof d.text !== 'string' ||
      (d.outline !== undefined && (typeof d.outline !== 'object' || d.outline === null || Array.isArray(d.outline))),
  );
  if (malformed >= 0) {
    throw new IndexMismatchError({
      path: join(dir, names.documents),
      field: `files.${names.documents}`,
      expected: '{ id, corpus, text } per line',
      actual: `line ${malformed + 1} is not a document`,
      message: `${join(dir, names.documents)}: line ${malformed + 1} is not a document ({ id, corpus, text }); rebuild the index`,
    });
  }
  const checksum = corpusChecksum(documents);
  if (checksum !== manifest.corpusChecksum) {
    throw new IndexMismatchError({
      path: join(dir, names.documents),
      field: 'corpusChecksum',
      expected: manifest.corpusChecksum,
      actual: checksum,
      message: `${join(dir, names.documents)}: the documents differ from the corpus the index was built from (corpusChecksum); rebuild the index`,
    });
  }
  // Line and page anchors packed (one typed array per list instead of an array per anchor): the loaded
  // documents' outlines were a fifth of the heap at 100 MB of plain text (packOutlineAnchors).
  for (const document of documents) if (document.outline) packOutlineAnchors(document.outline);
  clock.end('documents');
  const byId = new Map(documents.map((d) => [d.id, d]));
  // A row's text cut from its document, and its document id the document's own string (the same value):
  // one string instead of one per row that names it (a quarter of a million rows at 100 MB of text,
  // and a full garbage collection marks every string). A window's chunk ids likewise.
  const located = <R extends StoredChunk>(row: R, kind: string) => {
    const document = byId.get(row.documentId);
    if (!document) throw new InputError({ source: join(dir, kind), message: `row ${row.id} names unknown document ${row.documentId}` });
    return { ...row, documentId: document.id, text: document.text.slice(row.start, row.end) };
  };
  const chunks = (await readListed(dir, names.chunks, (p) => readJsonl<StoredChunk>(p))).map((row): Chunk => located(row, names.chunks));
  clock.end('chunks');
  const chunkIdOf = new Map(chunks.map((chunk) => [chunk.id, chunk.id]));
  const windows = (await readListed(dir, names.windows, (p) => readJsonl<StoredWindow>(p))).map((row): SourceWindow => {
    const window = located(row, names.windows);
    if (Array.isArray(row.chunkIds)) window.chunkIds = row.chunkIds.map((id) => chunkIdOf.get(id) ?? id);
    return window;
  });
  clock.end('windows');
  // Loading for retrieval skips the extractions (only an addition merges them again).
  const extractions = options.extractions === false ? [] : await readListed(dir, INDEX_FILES.extractions, (p) => readJsonl<ChunkExtraction>(p));
  if (options.extractions !== false) clock.end('extractions');
  const vectors = {} as Record<VectorKind, VectorTable>;
  const storedByKind = {} as NonNullable<IndexDirectoryContents['stored']>;
  const rows = options.vectorRows ?? true;
  for (const kind of VECTOR_KINDS) {
    const table = await readListed(dir, INDEX_FILES.vectors(kind, 'json'), (p) => readJson<{ ids: string[]; textHashes: string[] }>(p));
    const faissPath = join(dir, INDEX_FILES.vectors(kind, 'faiss'));
    // Read in place: the header fields and the vectors only (an HNSW graph is left to faiss). Kept as
    // float16 codes when loading for retrieval; float32 rows when an addition reuses them.
    const { stored, nonFinite: bad } = await readListed(dir, INDEX_FILES.vectors(kind, 'faiss'), readStored);
    if (stored.dimension !== manifest.encoder.dimension) {
      throw new IndexMismatchError({ path: faissPath, field: 'dimension', expected: manifest.encoder.dimension, actual: stored.dimension });
    }
    if (stored.count !== table.ids.length) {
      throw new IndexMismatchError({ path: faissPath, field: `${kind}.vectors`, expected: table.ids.length, actual: stored.count });
    }
    if (bad !== undefined) {
      throw new IndexMismatchError({
        path: faissPath,
        field: `${kind}.vectors`,
        expected: 'finite numbers',
        actual: `${bad.value} in row ${bad.row} (${table.ids[bad.row]})`,
        message: `${faissPath}: row ${bad.row} (${table.ids[bad.row]}) holds ${bad.value}; the file is corrupt, rebuild the index`,
      });
    }
    if (!rows) storedByKind[kind] = stored;
    vectors[kind] = {
      ids: table.ids,
      textHashes: table.textHashes,
      // One view per row only when asked for (an addition reuses them); loading keeps the matrix.
      vectors: rows ? matrixRows((stored as FaissStoredVectors).matrix, stored.dimension) : [],
      faissPath,
      factory: manifest.vectorIndex.factories?.[kind] ?? manifest.vectorIndex.factory,
    };
  }
  clock.end('vectors');
  return { manifest, documents, chunks, windows, extractions, vectors, ...(rows ? {} : { stored: storedByKind }) };
}

/**
 * Load an index directory as a CorpusIndex. Refuses with IndexMismatchError (path, field,
 * expected, actual): no manifest (e.g. an interrupted build), a manifest of the wrong shape (the
 * field named), unknown formatVersion, another encoder id or dimension than `encoder`, an encoder
 * id other than `expectedEncoderId`, a listed file missing, of another size or (verify 'digests')
 * of another sha256, documents that do not match `corpusChecksum`, a non-finite stored vector, or
 * a vector index whose size disagrees with its ids.
 */
export async function loadIndex(options: LoadIndexOptions): Promise<LoadedCorpusIndex> {
  const { dir, encoder } = options;
  const maxPostingsPerTerm = resolveMaxPostingsPerTerm(options.maxPostingsPerTerm);
  const workers: LoadWorkerOptions = { stallMs: resolveLoadStallMs(options.stallMs), onFallback: options.onWorkerFallback };
  const clock = phaseClock(options.onPhase);
  const manifest = await readIndexManifest(dir);
  clock.end('manifest');
  // Encoder and sizes here; the digests in a worker thread, beside the reading below.
  await checkIndexDirectory({ dir, manifest, encoder, expectedEncoderId: options.expectedEncoderId, verify: 'sizes' });
  const digests = (options.verify ?? 'digests') === 'digests' ? manifest.digests : undefined;
  const digestCheck = digests
    ? checkDigests(dir, digests, Object.keys(manifest.files), (names) =>
        digestsInWorker(dir, names, { ...workers, here: (paths) => sequentialDigests(dir, paths) }),
      )
    : Promise.resolve();
  digestCheck.catch(() => undefined);
  const integrity: IndexIntegrity = digests ? 'digests' : 'sizes';
  clock.end('check');
  try {
    const loaded = await loadChecked({ ...options, maxPostingsPerTerm }, manifest, clock, workers);
    await digestCheck;
    clock.end('digests');
    return { ...loaded, integrity };
  } catch (error) {
    // A file changed after the build explains a failure better than what reading it ran into.
    await digestCheck;
    throw error;
  }
}

/** `options` with `maxPostingsPerTerm` resolved (`resolveMaxPostingsPerTerm`): undefined reads every posting. */
async function loadChecked(
  options: Omit<LoadIndexOptions, 'maxPostingsPerTerm'> & { maxPostingsPerTerm: number | undefined },
  manifest: IndexDirectoryManifest,
  clock: ReturnType<typeof phaseClock>,
  workers: LoadWorkerOptions,
): Promise<Omit<LoadedCorpusIndex, 'integrity'>> {
  const { dir, encoder } = options;
  // Read and gunzipped on libuv's thread pool while this thread parses the other files.
  const early = <T>(promise: Promise<T>): Promise<T> => {
    promise.catch(() => undefined);
    return promise;
  };
  const lexicalNames = manifest.lexical ? VECTOR_KINDS.map((kind) => INDEX_FILES.lexical(kind)) : [];
  // The sentence tokens, when the index has them (built before they existed, it has not).
  const sentencesPath = manifest.files[INDEX_FILES.sentences] === undefined ? undefined : join(dir, INDEX_FILES.sentences);
  // Two load workers: the stored vectors (needed first), and the gzip files.
  const loaded = new Map([
    ...loadInWorker(
      VECTOR_KINDS.map((kind) => ({ vectors: join(dir, INDEX_FILES.vectors(kind, 'faiss')) })),
      workers,
    ),
    ...loadInWorker(
      [
        { gunzip: join(dir, INDEX_FILES.graph) },
        ...lexicalNames.map((name) => ({ bm25: join(dir, name) })),
        ...(sentencesPath ? [{ sentences: sentencesPath }] : []),
      ],
      workers,
    ),
  ]);
  // A file faiss reads itself (an HNSW one; not a flat scalar-quantised one, decoded from the stored
  // vectors below) is read off this thread when the addon can (`readAsync`): started now, the largest
  // (600 MB at 100 MB of text) loads while this thread parses the other files.
  const faissOptions = (kind: VectorKind) => ({
    path: join(dir, INDEX_FILES.vectors(kind, 'faiss')),
    dimension: manifest.encoder.dimension,
    searchParameters: options.searchParameters,
    decodeToFlat: true,
  });
  const faissEarly = new Map<VectorKind, ReturnType<typeof loadFaissVectorIndex>>();
  for (const kind of VECTOR_KINDS) {
    const load = faissOptions(kind);
    if (faissReadsItself(load.path)) faissEarly.set(kind, early(loadFaissVectorIndex(load)));
  }
  const gunzipped = (path: string) =>
    loaded.get(path)!.then((message) => Buffer.from(message.bytes!.buffer, message.bytes!.byteOffset, message.bytes!.byteLength));
  const graphBytes = early(readListed(dir, INDEX_FILES.graph, gunzipped));
  const contents = await readContents(dir, manifest, { extractions: false, vectorRows: false, onPhase: options.onPhase }, async (path) => {
    const message = await loaded.get(path)!;
    return { stored: message.vectors!, nonFinite: message.nonFinite };
  });
  clock.restart(); // readContents reported its own phases
  const graphPath = join(dir, INDEX_FILES.graph);
  const graph = decodeGraphBinary(await graphBytes, { source: graphPath });
  if (graph.nodeCount !== manifest.counts.entities || graph.edgeCount !== manifest.counts.relations) {
    throw new IndexMismatchError({
      path: graphPath,
      field: 'counts',
      expected: { entities: manifest.counts.entities, relations: manifest.counts.relations },
      actual: { entities: graph.nodeCount, relations: graph.edgeCount },
    });
  }
  clock.end('graph');
  const indexes = {} as Record<VectorKind, Awaited<ReturnType<typeof loadFaissVectorIndex>>>;
  const stored = contents.stored!;
  for (const kind of VECTOR_KINDS) {
    const path = join(dir, INDEX_FILES.vectors(kind, 'faiss'));
    // A flat file is searched as a float32 Flat index of its decoded vectors (a float16 one too: the
    // same vectors, ~4× less CPU a query), built from the vectors read above. An HNSW file is read by
    // faiss itself; its float16 vectors stay float16 here, decoded row by row when looked up.
    if (stored[kind].layout !== 'hnsw' && 'float16' in stored[kind]) stored[kind] = { ...float16Matrix(stored[kind]), layout: stored[kind].layout };
    const vectors = stored[kind];
    const index = await (faissEarly.get(kind) ?? loadFaissVectorIndex({ ...faissOptions(kind), ...('matrix' in vectors ? { stored: vectors } : {}) }));
    if (index.size !== contents.vectors[kind].ids.length) {
      throw new IndexMismatchError({ path, field: `${kind}.size`, expected: contents.vectors[kind].ids.length, actual: index.size });
    }
    indexes[kind] = index;
    clock.end(`faiss.${kind}`);
  }
  let lexical: { entities?: LexicalIndex; relations?: LexicalIndex; windows?: LexicalIndex } | undefined;
  if (manifest.lexical) {
    lexical = {};
    for (const kind of VECTOR_KINDS) {
      const path = join(dir, INDEX_FILES.lexical(kind));
      // Decompressed and decoded by the load worker; checked and kept here.
      lexical[kind] = await readListed(dir, INDEX_FILES.lexical(kind), async () =>
        Bm25Index.fromDecoded((await loaded.get(path)!).bm25!, { source: path, maxPostingsPerTerm: options.maxPostingsPerTerm }),
      );
      clock.end(`bm25.${kind}`);
    }
  }
  let sentenceTokens: SentenceTokenTable | undefined;
  if (sentencesPath) {
    // Bytes that are not sentence tokens of this index (RangeError, here or in the worker, whose errors arrive as plain errors of that name).
    const mismatch = (error: unknown): unknown =>
      error instanceof Error && error.name === 'RangeError'
        ? new IndexMismatchError({
            path: sentencesPath,
            field: 'sentences',
            expected: 'the sentence tokens of this index',
            actual: error.message,
            message: `${sentencesPath}: ${error.message}; rebuild the index`,
          })
        : error;
    // Decompressed and decoded by the load worker; checked against the chunks and kept here.
    const { sentences } = await readListed(dir, INDEX_FILES.sentences, (path) =>
      loaded.get(path)!.catch((error: unknown) => {
        throw mismatch(error);
      }),
    );
    try {
      sentenceTokens = sentenceTokensFromParts(sentences!, { chunkIds: contents.chunks.map((chunk) => chunk.id) });
    } catch (error) {
      throw mismatch(error);
    }
    clock.end('sentences');
  }
  const chunkStore = new InMemoryChunkStore({ chunks: contents.chunks, windows: contents.windows, documents: contents.documents, sentenceTokens });
  const relationIds = graphEdgeIds(contents.vectors.relations.ids, graph);
  // The graph's own node id strings (the same values, one copy each: half a million at 100 MB).
  const entityIds = contents.vectors.entities.ids.map((id) => graph.ownNodeId(id) ?? id);
  const entityVectors = storedVectors(entityIds, stored.entities);
  const relationVectors = storedVectors(relationIds, stored.relations);
  clock.end('stores');
  return {
    dir,
    manifest,
    graph,
    chunks: chunkStore,
    documents: contents.documents,
    encoder,
    entityIndex: indexes.entities,
    entityIds,
    relationIndex: indexes.relations,
    relationIds,
    windowIndex: indexes.windows,
    windowIds: contents.vectors.windows.ids,
    lexical,
    windowVector: storedVectors(contents.vectors.windows.ids, stored.windows).byId,
    entityVector: entityVectors.byId,
    entityVectorAt: entityVectors.at,
    relationVector: relationVectors.byId,
    relationVectorAt: relationVectors.at,
  };
}

/**
 * The relation ids as the graph's own strings when they are its edge ids in edge order (as a build
 * writes them), else `ids` as read: the same values, held once instead of twice (1.7 million ids
 * at 100 MB of text). In the first case the graph's edge id → number map is also their id →
 * position map (`shareLabelMap`), which the stages and `relationVector` would otherwise build.
 */
function graphEdgeIds(ids: string[], graph: CompactGraphStore): string[] {
  const view = graph.numberedEdges;
  if (ids.length !== graph.edgeCount) return ids;
  const shared = new Array<string>(ids.length);
  for (let edge = 0; edge < ids.length; edge += 1) {
    const id = view.edgeId(edge);
    if (id !== ids[edge]) return ids;
    shared[edge] = id;
  }
  shareLabelMap(shared, graph.edgeNumbers);
  return shared;
}

/**
 * Id → stored vector lookup over the vectors read at load time (no re-encoding, no index search),
 * and the same by position in `ids` (`at(label)` is `byId(ids[label])`). The id → row map is made
 * on the first lookup; a row is a view of the float32 matrix, or decoded from float16 codes on
 * demand (the same float32 values faiss scores with): loading costs nothing per vector, and a kind
 * never looked up costs nothing at all.
 */
function storedVectors(
  ids: readonly string[],
  vectors: FaissStoredVectors | FaissFloat16Vectors,
): { byId: (id: string, out?: Float32Array) => Float32Array | undefined; at: (label: number, out?: Float32Array) => Float32Array | undefined } {
  // Id → row: the id → position map the stages make of these ids (one per array), or, when an id
  // repeats, a map where it keeps its last row; made on the first lookup.
  let rows: { of: ReadonlyMap<string, number>; distinct: boolean } | undefined;
  const rowsOf = () => {
    if (!rows) {
      const labels = labelMapOf(ids);
      rows = { of: labels ?? new Map(ids.map((value, at) => [value, at])), distinct: labels !== null };
    }
    return rows;
  };
  const { dimension } = vectors;
  const row = (at: number, out: Float32Array | undefined) => {
    if (!('float16' in vectors)) return vectors.matrix.subarray(at * dimension, (at + 1) * dimension);
    // Decoded into the caller's array when it has the vectors' dimension, else into a new one.
    return float16Row(vectors, at, out?.length === dimension ? out : undefined);
  };
  const byId = (id: string, out?: Float32Array) => {
    const at = rowsOf().of.get(id);
    return at === undefined ? undefined : row(at, out);
  };
  const at = (label: number, out?: Float32Array) => {
    if (!(Number.isInteger(label) && label >= 0 && label < ids.length)) return undefined;
    // Distinct ids: id k is row k. Else the row its id finds (the last of a repeated id).
    return rowsOf().distinct ? row(label, out) : byId(ids[label], out);
  };
  return { byId, at };
}
