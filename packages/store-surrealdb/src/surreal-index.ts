import { IndexMismatchError, InputError, InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type {
  AbortOptions,
  Chunk,
  CorpusIndex,
  DocumentOutline,
  Encoder,
  IndexManifest,
  LexicalIndex,
  SourceDocument,
  SourceWindow,
  VectorIndex,
} from '@mosaic/spec';
import { Bm25Index, FaissUnavailableError, createFaissVectorIndex, createInMemoryVectorIndex, resolveMaxPostingsPerTerm } from '@mosaic/vector-index';
import { RecordId } from 'surrealdb';
import { VECTOR_KINDS, piecesFromCorpusIndex, type SurrealIndexPieces, type VectorKind, type VectorSource } from './index-pieces.js';
import { SurrealChunkStore } from './surreal-chunk-store.js';
import { connectSurreal, isEmbeddedUrl, type ConnectSurrealOptions, type SurrealConnection } from './surreal-connection.js';
import {
  dataTables,
  generationOf,
  generationTables,
  removeTables,
  storedTables,
  strayGenerationTables,
  tablesToRemove,
  type SurrealDataTables,
} from './surreal-generations.js';
import { ReadBatcher } from './read-batcher.js';
import { SurrealGraphStore, writeGraphToSurreal } from './surreal-graph-store.js';
import { insertBatches, positiveInteger, resolveTables, type SurrealTableNames } from './surreal-tables.js';
import { type SurrealVectorIndex, createSurrealVectorIndex, openSurrealVectorIndex, type SurrealVectorSearch } from './surreal-vector-index.js';

/**
 * Version of the table layout written by writeIndexToSurreal. 2: generations (the manifest record
 * names its tables), per-chunk extractions and the text hash of every vector are stored.
 */
export const SURREAL_INDEX_FORMAT_VERSION = 2;
/** Layout versions loadSurrealIndex reads (1: the plain table names, no extractions — not extendable). */
export const READABLE_SURREAL_FORMAT_VERSIONS: readonly number[] = [1, 2];
/** Id of the manifest record in the manifest table. */
export const MANIFEST_RECORD = 'current';

/** Where to write or read: an open connection, or the options to open one. */
export type SurrealTarget = { connection: SurrealConnection } | ConnectSurrealOptions;

/** The manifest record (`mosaic_manifest:current`), switched last. */
export interface SurrealManifestRecord {
  /** SURREAL_INDEX_FORMAT_VERSION of the layout. */
  formatVersion: number;
  /** Generation of the tables (0: plain names; g: `<name>_g<g>`). Absent in format 1 (= 0). */
  generation?: number;
  /** The tables of this generation (absent in format 1: the plain names). */
  tables?: SurrealDataTables;
  /** The index's manifest (vectorIndex.factory names the SurrealDB HNSW index). */
  manifest: IndexManifest;
  /** Kinds with a stored BM25 index. */
  lexical: VectorKind[];
  counts: {
    entities: number;
    relations: number;
    chunks: number;
    windows: number;
    documents: number;
    vectors: Record<VectorKind, number>;
    /** Stored per-chunk extractions (format 2; 0 when none were given). */
    extractions?: number;
  };
  writtenAt: string;
}

/** A progress event of a write: `stage` 'write', `done` of `total` phases. */
export interface SurrealWriteProgress {
  stage: string;
  done: number;
  total: number;
}

export type WriteIndexToSurrealOptions = SurrealTarget &
  AbortOptions & {
    /** A loaded index (vectors via `vectors`, `windowVector` or re-encoding; see piecesFromCorpusIndex). */
    index?: CorpusIndex;
    /** Or the plain pieces (exactly one of `index` / `pieces`). */
    pieces?: SurrealIndexPieces;
    /** With `index`: stored vectors in label order per kind. */
    vectors?: Partial<Record<VectorKind, readonly Float32Array[]>>;
    /** With `index`: texts to re-encode per kind, in label order. */
    texts?: Partial<Record<'entities' | 'relations', readonly string[]>>;
    tables?: Partial<SurrealTableNames>;
    /** Replace an index already in the database (default false → InvalidArgumentError). */
    replace?: boolean;
    /**
     * Only switch when the current index is still of this generation (what an addition read);
     * otherwise IndexMismatchError (field 'generation'): another writer changed it meanwhile.
     */
    expectedGeneration?: number;
    /** Records per request (default 500). */
    batchSize?: number;
    /** HNSW build parameters (defaults M 12, EFC 150). */
    hnsw?: { m?: number; efConstruction?: number };
    /** Clock for `writtenAt` (default: now). */
    now?: () => Date;
    /** Called after every phase of the write (`stage: 'write'`). */
    onProgress?: (event: SurrealWriteProgress) => void;
  };

export interface WriteIndexToSurrealResult {
  record: SurrealManifestRecord;
  /** Requests sent. */
  roundTrips: number;
  timings: { readMs: number; graphMs: number; chunksMs: number; vectorsMs: number; totalMs: number };
  vectorSources: Record<VectorKind, VectorSource>;
  /** The generation written (now current) and the one it replaced (its tables removed), if any. */
  generation: number;
  previousGeneration?: number;
  /** Tables removed after the switch (the previous generation) and before the write (leftovers of interrupted writes). */
  removedTables: string[];
}

async function withConnection<T>(target: SurrealTarget, run: (connection: SurrealConnection, owned: boolean) => Promise<T>): Promise<T> {
  if ('connection' in target && target.connection) return run(target.connection, false);
  const options = target as ConnectSurrealOptions;
  const connection = await connectSurreal(options);
  try {
    return await run(connection, true);
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw error;
  }
}

/** The vector table of `kind`. */
export function vectorTable(tables: SurrealTableNames, kind: VectorKind): string {
  return kind === 'entities' ? tables.entityVectors : kind === 'relations' ? tables.relationVectors : tables.windowVectors;
}

function checkPieces(pieces: SurrealIndexPieces): void {
  const dimension = pieces.manifest?.encoder?.dimension;
  if (!Number.isInteger(dimension) || dimension < 1) {
    throw new InvalidArgumentError({ argument: 'pieces.manifest', message: 'needs encoder.dimension' });
  }
  for (const kind of VECTOR_KINDS) {
    const table = pieces.vectors?.[kind];
    if (!table || table.ids.length !== table.vectors.length) {
      throw new InvalidArgumentError({ argument: `pieces.vectors.${kind}`, message: 'needs ids and vectors of the same length' });
    }
    if (table.textHashes !== undefined && table.textHashes.length !== table.ids.length) {
      throw new InvalidArgumentError({ argument: `pieces.vectors.${kind}.textHashes`, message: 'needs one hash per id' });
    }
  }
}

/** What every phase of a write reads: the open connection, the tables of the generation written, the pieces and the write options. */
interface WriteState {
  connection: SurrealConnection;
  tables: SurrealTableNames;
  batchSize: number;
  pieces: SurrealIndexPieces;
  options: WriteIndexToSurrealOptions;
  manifestId: RecordId;
}

/** Refuse a call that names no index or two, or a `mem://` URL that would vanish with its own connection. */
function checkWriteOptions(options: WriteIndexToSurrealOptions): void {
  if ((options.index === undefined) === (options.pieces === undefined)) {
    throw new InvalidArgumentError({ argument: 'index', message: 'give exactly one of index and pieces' });
  }
  if (
    !('connection' in options && options.connection) &&
    isEmbeddedUrl((options as ConnectSurrealOptions).url) &&
    /^mem:/i.test((options as ConnectSurrealOptions).url)
  ) {
    throw new InvalidArgumentError({ argument: 'url', message: 'a mem:// database is gone when its connection closes: pass an open `connection` instead' });
  }
}

/** The pieces to write: as given, or read from the loaded index (re-encoding what has no stored vectors). */
async function piecesToWrite(options: WriteIndexToSurrealOptions): Promise<{ pieces: SurrealIndexPieces; vectorSources: Record<VectorKind, VectorSource> }> {
  if (options.pieces) return { pieces: options.pieces, vectorSources: { entities: 'given', relations: 'given', windows: 'given' } };
  return piecesFromCorpusIndex({ index: options.index!, vectors: options.vectors, texts: options.texts, abortSignal: options.abortSignal });
}

/** The current manifest record, if any (defines the manifest table when missing). */
async function currentRecord(connection: SurrealConnection, manifestId: RecordId): Promise<SurrealManifestRecord | undefined> {
  const [, existing] = await connection.query<[unknown, SurrealManifestRecord[]]>(
    `DEFINE TABLE IF NOT EXISTS ${manifestId.table.name} SCHEMALESS; SELECT * FROM $id;`,
    { id: manifestId },
    'read manifest',
  );
  return existing[0];
}

/** Insert rows into a (schemaless) table, `batchSize` per transaction. */
async function insertRows(state: WriteState, table: string, rows: readonly Record<string, unknown>[], what: string): Promise<void> {
  await state.connection.query(`DEFINE TABLE IF NOT EXISTS ${table} SCHEMALESS;`, undefined, `define ${table}`);
  await insertBatches({
    connection: state.connection,
    table,
    items: rows,
    batchSize: state.batchSize,
    toRow: (row) => row,
    what,
    afterBatch: () => throwIfAborted(state.options.abortSignal, 'write index'),
  });
}

/** Chunks, windows (with `order`, the label order of the window index, for the chunk store), documents and extractions. */
async function writeTexts(state: WriteState): Promise<void> {
  const { tables, pieces } = state;
  await insertRows(
    state,
    tables.chunk,
    pieces.chunks.map((chunk, order) => ({
      id: new RecordId(tables.chunk, chunk.id),
      order,
      documentId: chunk.documentId,
      start: chunk.start,
      end: chunk.end,
      text: chunk.text,
    })),
    'write chunks',
  );
  await insertRows(
    state,
    tables.window,
    pieces.windows.map((window, order) => ({
      id: new RecordId(tables.window, window.id),
      order,
      documentId: window.documentId,
      chunkIds: [...window.chunkIds],
      start: window.start,
      end: window.end,
      text: window.text,
    })),
    'write windows',
  );
  await insertRows(
    state,
    tables.document,
    (pieces.documents ?? []).map((document, order) => ({
      id: new RecordId(tables.document, document.id),
      order,
      corpus: document.corpus,
      text: document.text,
      // The outline (title, sections, line/page anchors) as JSON text, read back exactly.
      ...(document.outline ? { outline: JSON.stringify(document.outline) } : {}),
    })),
    'write documents',
  );
  // The extraction as JSON text: read back exactly as the extractor returned it (merge order and all).
  await insertRows(
    state,
    tables.extraction,
    Array.from(pieces.extractions ?? [], (item, order) => ({
      id: new RecordId(tables.extraction, order),
      chunkId: item.chunkId,
      json: JSON.stringify(item.extraction),
    })),
    'write extractions',
  );
}

/** The three vector tables with their HNSW indexes, then the BM25 states; returns the kinds with a BM25 state. */
async function writeVectors(state: WriteState, progress: () => void): Promise<VectorKind[]> {
  const { connection, tables, pieces, options } = state;
  const dimension = pieces.manifest.encoder.dimension;
  for (const kind of VECTOR_KINDS) {
    const index = await createSurrealVectorIndex({
      connection,
      table: vectorTable(tables, kind),
      dimension,
      m: options.hnsw?.m,
      efConstruction: options.hnsw?.efConstruction,
    });
    const table = pieces.vectors[kind];
    await index.add(table.vectors, { keys: table.ids, ...(table.textHashes ? { textHashes: table.textHashes } : {}), batchSize: state.batchSize });
    throwIfAborted(options.abortSignal, 'write index');
    progress();
  }
  const lexicalKinds = VECTOR_KINDS.filter((kind) => pieces.lexical?.[kind] !== undefined);
  await insertRows(
    state,
    tables.lexical,
    lexicalKinds.map((kind) => ({ id: new RecordId(tables.lexical, kind), json: JSON.stringify(pieces.lexical![kind]) })),
    'write lexical indexes',
  );
  return lexicalKinds;
}

/** The manifest record of what was written. */
function manifestRecord(state: WriteState, generation: number, lexicalKinds: VectorKind[]): SurrealManifestRecord {
  const { pieces, options, tables } = state;
  const m = options.hnsw?.m ?? 12;
  const efConstruction = options.hnsw?.efConstruction ?? 150;
  return {
    formatVersion: SURREAL_INDEX_FORMAT_VERSION,
    generation,
    tables: dataTables(tables),
    manifest: { ...pieces.manifest, vectorIndex: { factory: `surrealdb:HNSW(M=${m},EFC=${efConstruction},COSINE)` } },
    lexical: lexicalKinds,
    counts: {
      entities: pieces.entities.length,
      relations: pieces.relations.length,
      chunks: pieces.chunks.length,
      windows: pieces.windows.length,
      documents: pieces.documents?.length ?? 0,
      vectors: { entities: pieces.vectors.entities.ids.length, relations: pieces.vectors.relations.ids.length, windows: pieces.vectors.windows.ids.length },
      extractions: pieces.extractions?.length ?? 0,
    },
    writtenAt: (options.now ?? (() => new Date()))().toISOString(),
  };
}

/**
 * Make `record` current in one transaction, only if the current record still names `expected`
 * (undefined: no record). A record that changed meanwhile → IndexMismatchError (field 'generation').
 */
async function switchManifest(state: WriteState, record: SurrealManifestRecord, expected: number | undefined): Promise<void> {
  const { connection, manifestId } = state;
  try {
    const changed =
      expected === undefined
        ? '(SELECT VALUE id FROM ONLY $id) != NONE'
        : '(SELECT VALUE id FROM ONLY $id) = NONE OR ((SELECT VALUE generation FROM ONLY $id) ?? 0) != $expected';
    await connection.query(
      `BEGIN; IF ${changed} { THROW "the index changed meanwhile" }; UPSERT $id CONTENT $content RETURN NONE; COMMIT;`,
      // JSON round trip: plain data only (no undefined fields) in the manifest record.
      { id: manifestId, ...(expected === undefined ? {} : { expected }), content: JSON.parse(JSON.stringify(record)) },
      'switch manifest',
    );
  } catch (cause) {
    const now = await currentRecord(connection, manifestId).catch(() => undefined);
    const actual = now === undefined ? 'none' : generationOf(now);
    if (actual !== (expected ?? 'none')) {
      throw new IndexMismatchError({
        path: `${connection.url}#${connection.namespace}/${connection.database}`,
        field: 'generation',
        expected: expected ?? 'none',
        actual,
        message: `another writer changed the index in ${connection.url} (${connection.namespace}/${connection.database}) during this write; nothing was switched`,
        cause,
      });
    }
    throw cause;
  }
}

/** After a failed write: remove the tables of the generation being written, unless it became current. */
async function discardGeneration(state: WriteState, generation: number): Promise<void> {
  try {
    const now = await currentRecord(state.connection, state.manifestId);
    if (now && generationOf(now) === generation) return;
    await removeTables(state.connection, tablesToRemove(state.tables));
  } catch {
    // Left for the next write, which removes the tables of every generation that is not current.
  }
}

/** Milliseconds `run` took. */
async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** Phases reported by onProgress: graph, texts, three vector tables, BM25 + switch. */
const WRITE_PHASES = 6;

/**
 * Write an index into SurrealDB as a new generation of tables: entities and relations (graph
 * edges), chunks, windows, documents, per-chunk extractions, the three vector tables with HNSW
 * indexes (with each vector's text hash), BM25 state; then switch the manifest record to the new
 * generation in one transaction, and remove the previous generation's tables. A write that fails
 * or is aborted before the switch leaves the current index as it was (its own tables are removed);
 * a first write interrupted before the switch leaves a database loadSurrealIndex refuses. An
 * existing index is refused unless `replace`. With a `url` of its own the connection is closed at
 * the end (so `mem://` needs `connection`). One writer per database at a time.
 */
export async function writeIndexToSurreal(options: WriteIndexToSurrealOptions): Promise<WriteIndexToSurrealResult> {
  checkWriteOptions(options);
  const base = resolveTables(options.tables);
  const batchSize = positiveInteger(options.batchSize, 'batchSize', 500);
  const started = performance.now();
  const { pieces, vectorSources } = await piecesToWrite(options);
  checkPieces(pieces);
  const readMs = performance.now() - started;

  return withConnection(options, async (connection, owned) => {
    const start = connection.roundTrips;
    const manifestId = new RecordId(base.manifest, MANIFEST_RECORD);
    const current = await currentRecord(connection, manifestId);
    if (current && !options.replace && options.expectedGeneration === undefined) {
      throw new InvalidArgumentError({
        argument: 'replace',
        message: `${connection.url} (${connection.namespace}/${connection.database}) already holds an index; pass replace: true`,
      });
    }
    const previousGeneration = current ? generationOf(current) : undefined;
    if (options.expectedGeneration !== undefined && previousGeneration !== options.expectedGeneration) {
      throw new IndexMismatchError({
        path: `${connection.url}#${connection.namespace}/${connection.database}`,
        field: 'generation',
        expected: options.expectedGeneration,
        actual: previousGeneration ?? 'none',
        message: `the index in ${connection.url} (${connection.namespace}/${connection.database}) changed since it was read`,
      });
    }
    const generation = previousGeneration === undefined ? 0 : previousGeneration + 1;
    const currentTables = current ? storedTables(current, base) : undefined;
    const tables = generationTables(base, generation);
    const state: WriteState = { connection, tables, batchSize, pieces, options, manifestId };
    // Leftovers of writers that died (this generation's tables included): not part of the current index.
    const stray = await strayGenerationTables(connection, base, currentTables);
    await removeTables(connection, stray);
    throwIfAborted(options.abortSignal, 'write index');

    let done = 0;
    const progress = () => options.onProgress?.({ stage: 'write', done: ++done, total: WRITE_PHASES });
    options.onProgress?.({ stage: 'write', done: 0, total: WRITE_PHASES });
    let graphMs = 0;
    let chunksMs = 0;
    let vectorsMs = 0;
    let record: SurrealManifestRecord;
    try {
      graphMs = await timed(() => writeGraphToSurreal({ connection, nodes: pieces.entities, edges: pieces.relations, tables, batchSize }));
      throwIfAborted(options.abortSignal, 'write index');
      progress();
      chunksMs = await timed(() => writeTexts(state));
      progress();
      let lexicalKinds: VectorKind[] = [];
      vectorsMs = await timed(async () => {
        lexicalKinds = await writeVectors(state, progress);
      });
      throwIfAborted(options.abortSignal, 'write index');
      record = manifestRecord(state, generation, lexicalKinds);
      await switchManifest(state, record, previousGeneration);
    } catch (error) {
      await discardGeneration(state, generation);
      throw error;
    }
    progress();
    // The previous generation is no longer current: readers that loaded it must reload.
    const removed = [...stray];
    if (currentTables) {
      const old = tablesToRemove(currentTables);
      await removeTables(connection, old).then(
        () => removed.push(...old),
        () => undefined, // left for the next write
      );
    }
    const roundTrips = connection.roundTrips - start;
    if (owned) await connection.close();
    return {
      record,
      roundTrips,
      timings: { readMs, graphMs, chunksMs, vectorsMs, totalMs: performance.now() - started },
      vectorSources,
      generation,
      ...(previousGeneration !== undefined ? { previousGeneration } : {}),
      removedTables: removed,
    };
  });
}

export type LoadSurrealIndexOptions = SurrealTarget &
  AbortOptions & {
    /** Encoder for queries; must have the manifest's encoder id and dimension. */
    encoder: Encoder;
    /** When set, the manifest's encoder id must also equal this. */
    expectedEncoderId?: string;
    tables?: Partial<SurrealTableNames>;
    /** Vector search mode (default 'hnsw'). */
    search?: SurrealVectorSearch;
    /** HNSW ef at query time (default 64). */
    efSearch?: number;
    /** Hub share of the graph store (default 0.05). */
    hubShare?: number;
    /** Load the stored BM25 indexes (default true). */
    lexical?: boolean;
    /**
     * Most postings a BM25 query reads per term, as in loadIndex of @mosaic/indexing (default
     * DEFAULT_MAX_POSTINGS_PER_TERM of @mosaic/vector-index; `false`: every posting), so that both
     * stores score a question alike.
     */
    maxPostingsPerTerm?: number | false;
    /**
     * Read stored vectors into memory and expose them as `windowVector(id)` (windows),
     * `entityVector(id)` / `relationVector(id)` (entities, relations; read by @mosaic/traversal
     * instead of one whole-index search per question, target and facet). `true` = all three.
     * A cached kind is also searched in the worker (exact inner product, FAISS Flat when
     * faiss-node is installed): no request, and the same hits as the file index. Costs size ×
     * dimension × 4 bytes per kind. Default false: every search goes to the database (HNSW).
     */
    cacheVectors?: boolean | Partial<Record<VectorKind, boolean>>;
    /** Entity and relation records kept in the worker (least recently used evicted; default 100,000; 0 = none). */
    cacheRecords?: number;
  };

/** A CorpusIndex served by SurrealDB. */
export interface SurrealCorpusIndex extends CorpusIndex {
  /** Stored entity vector by id (only with `cacheVectors` for entities). */
  entityVector?(id: string): Float32Array | undefined;
  /** Stored relation vector by id (only with `cacheVectors` for relations). */
  relationVector?(id: string): Float32Array | undefined;
  graph: SurrealGraphStore;
  chunks: SurrealChunkStore;
  /** The worker's exact index over the cached vectors, or the database's (`databaseIndexes.entities`). */
  entityIndex: VectorIndex;
  relationIndex: VectorIndex;
  windowIndex: VectorIndex;
  /** The vector tables in the database (HNSW), whichever index `entityIndex` & co. search. */
  databaseIndexes: Record<VectorKind, SurrealVectorIndex>;
  /** Where each kind is searched: 'worker' (cached vectors) or 'database'. */
  vectorSearch: Record<VectorKind, 'worker' | 'database'>;
  record: SurrealManifestRecord;
  documents: SourceDocument[];
  connection: SurrealConnection;
  /** Requests sent on the connection since it opened (graph and vector queries). */
  readonly roundTrips: number;
  /** Close the connection when loadSurrealIndex opened it (no-op for a passed `connection`). */
  close(): Promise<void>;
  /** This index for one retrieval: its graph store keeps every record the retrieval read (the pipeline calls it per question). */
  forRetrieval(): SurrealCorpusIndex;
}

/** What every phase of a load reads: the open connection, the tables, the path named in errors and the load options. */
interface LoadState {
  connection: SurrealConnection;
  tables: SurrealTableNames;
  /** `url#namespace/database`, the path of IndexMismatchError. */
  path: string;
  options: LoadSurrealIndexOptions;
  /** `options.maxPostingsPerTerm` resolved (`resolveMaxPostingsPerTerm`): undefined reads every posting. */
  maxPostingsPerTerm: number | undefined;
  /** Shared by the graph store and the vector indexes: their reads of the same tick go in one request. */
  batcher: ReadBatcher;
}

/** Stored rows of the text tables (`order`: corpus order; chunks of format 1 have none). */
export type ChunkRow = Omit<Chunk, 'id'> & { id: RecordId; order?: number };
export type WindowRow = Omit<SourceWindow, 'id'> & { id: RecordId; order: number };
export type DocumentRow = { id: RecordId; order: number; corpus: string; text: string; outline?: string };

const byOrder = (a: { order?: number }, b: { order?: number }) => (a.order ?? 0) - (b.order ?? 0);

/** Chunks, windows and documents from their stored rows, each in stored order (loading and adding documents read them alike). */
export function textsFromRows(rows: { chunkRows: ChunkRow[]; windowRows: WindowRow[]; documentRows: DocumentRow[] }): {
  chunks: Chunk[];
  windows: SourceWindow[];
  documents: SourceDocument[];
} {
  return {
    chunks: rows.chunkRows.sort(byOrder).map((row) => ({ id: String(row.id.id), documentId: row.documentId, start: row.start, end: row.end, text: row.text })),
    windows: rows.windowRows
      .sort(byOrder)
      .map((row) => ({ id: String(row.id.id), documentId: row.documentId, chunkIds: row.chunkIds, start: row.start, end: row.end, text: row.text })),
    documents: rows.documentRows.sort(byOrder).map((row) => ({
      id: String(row.id.id),
      corpus: row.corpus,
      text: row.text,
      ...(typeof row.outline === 'string' ? { outline: JSON.parse(row.outline) as DocumentOutline } : {}),
    })),
  };
}
type LexicalRow = { id: RecordId; json: string };

/** The manifest record, checked: present, this layout's version, the encoder's id and dimension. */
/**
 * The manifest record of the index in `connection`, checked: present (else field 'manifest'), a
 * readable layout version ('formatVersion'), made with `encoder`'s id and dimension
 * ('encoder.id', 'encoder.dimension') and, when given, `expectedEncoderId`. `path` names the index
 * in the errors. Loading and adding documents both start here.
 */
export async function readManifestRecord(options: {
  connection: SurrealConnection;
  tables: Pick<SurrealTableNames, 'manifest'>;
  path: string;
  encoder: Pick<Encoder, 'id' | 'dimension'>;
  expectedEncoderId?: string;
}): Promise<SurrealManifestRecord> {
  const { connection, tables, path, encoder } = options;
  let records: SurrealManifestRecord[] = [];
  try {
    [records] = await connection.query<[SurrealManifestRecord[]]>(
      'SELECT * FROM $id;',
      { id: new RecordId(tables.manifest, MANIFEST_RECORD) },
      'read manifest',
    );
  } catch (cause) {
    if (!InputError.isInstance(cause)) throw cause;
    records = []; // no manifest table yet
  }
  const record = records[0];
  if (!record) {
    throw new IndexMismatchError({
      path,
      field: 'manifest',
      expected: `${tables.manifest}:${MANIFEST_RECORD}`,
      actual: 'missing',
      message: `${path} holds no complete Mosaic index: the manifest record is missing`,
    });
  }
  if (!READABLE_SURREAL_FORMAT_VERSIONS.includes(record.formatVersion)) {
    throw new IndexMismatchError({ path, field: 'formatVersion', expected: SURREAL_INDEX_FORMAT_VERSION, actual: record.formatVersion });
  }
  const { encoder: stored } = record.manifest;
  if (options.expectedEncoderId !== undefined && stored.id !== options.expectedEncoderId) {
    throw new IndexMismatchError({ path, field: 'encoder.id', expected: options.expectedEncoderId, actual: stored.id });
  }
  if (stored.id !== encoder.id) throw new IndexMismatchError({ path, field: 'encoder.id', expected: encoder.id, actual: stored.id });
  if (stored.dimension !== encoder.dimension) {
    throw new IndexMismatchError({ path, field: 'encoder.dimension', expected: encoder.dimension, actual: stored.dimension });
  }
  return record;
}

/** IndexMismatchError (field 'counts') unless every stored count equals the manifest's. */
export function checkCounts(path: string, expected: Record<string, number>, actual: Record<string, number>): void {
  if (Object.keys(expected).some((key) => expected[key] !== actual[key])) throw new IndexMismatchError({ path, field: 'counts', expected, actual });
}

/** The graph store, its node and edge counts checked against the manifest. */
async function openGraph(state: LoadState, record: SurrealManifestRecord): Promise<SurrealGraphStore> {
  const { connection, tables, path, options } = state;
  const graph = await SurrealGraphStore.open({ connection, tables, hubShare: options.hubShare, cacheRecords: options.cacheRecords, batcher: state.batcher });
  checkCounts(path, { entities: record.counts.entities, relations: record.counts.relations }, { entities: graph.nodeCount, relations: graph.edgeCount });
  return graph;
}

/**
 * The three vector indexes (sizes checked against the manifest) and their label → id tables; the
 * kinds `cacheVectors` asks for are read whole once (keys and vectors together).
 */
async function openVectorIndexes(
  state: LoadState,
  record: SurrealManifestRecord,
): Promise<{ indexes: Record<VectorKind, SurrealVectorIndex>; ids: Record<VectorKind, string[]>; vectors: Partial<Record<VectorKind, Float32Array[]>> }> {
  const { connection, tables, path, options } = state;
  const indexes = {} as Record<VectorKind, SurrealVectorIndex>;
  const ids = {} as Record<VectorKind, string[]>;
  const vectors: Partial<Record<VectorKind, Float32Array[]>> = {};
  for (const kind of VECTOR_KINDS) {
    const index = await openSurrealVectorIndex({
      connection,
      table: vectorTable(tables, kind),
      dimension: record.manifest.encoder.dimension,
      search: options.search,
      efSearch: options.efSearch,
      batcher: state.batcher,
    });
    if (index.size !== record.counts.vectors[kind]) {
      throw new IndexMismatchError({ path: `${path}#${index.table}`, field: `${kind}.size`, expected: record.counts.vectors[kind], actual: index.size });
    }
    indexes[kind] = index;
    if (cachesVectors(options.cacheVectors, kind)) {
      const all = await index.getAll();
      ids[kind] = all.keys;
      vectors[kind] = all.vectors;
    } else {
      ids[kind] = await index.getKeys();
    }
  }
  return { indexes, ids, vectors };
}

/** Whether `cacheVectors` asks for the vectors of `kind`. */
function cachesVectors(cache: LoadSurrealIndexOptions['cacheVectors'], kind: VectorKind): boolean {
  return cache === true || (typeof cache === 'object' && Boolean(cache[kind]));
}

/** Chunks, windows (in label order) and documents read into memory, counts checked; and the stored BM25 rows. */
async function readTexts(
  state: LoadState,
  record: SurrealManifestRecord,
): Promise<{ chunks: Chunk[]; windows: SourceWindow[]; documents: SourceDocument[]; lexicalRows: LexicalRow[] }> {
  const { connection, tables, path } = state;
  const [chunkRows, windowRows, documentRows, lexicalRows] = await connection.query<[ChunkRow[], WindowRow[], DocumentRow[], LexicalRow[]]>(
    `SELECT * FROM ${tables.chunk}; SELECT * FROM ${tables.window}; SELECT * FROM ${tables.document}; SELECT * FROM ${tables.lexical};`,
    undefined,
    'read chunks and windows',
  );
  const { chunks, windows, documents } = textsFromRows({ chunkRows, windowRows, documentRows });
  checkCounts(path, { chunks: record.counts.chunks, windows: record.counts.windows }, { chunks: chunks.length, windows: windows.length });
  return { chunks, windows, documents, lexicalRows };
}

/** The stored BM25 indexes by kind (undefined when none are stored or `lexical: false`). */
function lexicalIndexes(state: LoadState, rows: readonly LexicalRow[]): CorpusIndex['lexical'] {
  if (state.options.lexical === false || rows.length === 0) return undefined;
  const lexical: NonNullable<CorpusIndex['lexical']> = {};
  for (const row of rows) {
    const kind = String(row.id.id) as VectorKind;
    if (!VECTOR_KINDS.includes(kind)) continue;
    lexical[kind] = Bm25Index.fromJSON(row.json, {
      source: `${state.path}#${state.tables.lexical}:${kind}`,
      maxPostingsPerTerm: state.maxPostingsPerTerm,
    }) as LexicalIndex;
  }
  return lexical;
}

/** An exact inner-product index over `vectors` in the worker: FAISS Flat when faiss-node loads, else the in-memory one. */
async function workerIndex(dimension: number, vectors: readonly Float32Array[]): Promise<VectorIndex> {
  let index: VectorIndex;
  try {
    index = createFaissVectorIndex({ dimension, factory: 'Flat' });
  } catch (error) {
    if (!FaissUnavailableError.isInstance(error)) throw error;
    index = createInMemoryVectorIndex({ dimension });
  }
  if (vectors.length > 0) await index.add(vectors);
  return index;
}

/** The kinds `cacheVectors` asked for (their vectors read by `openVectorIndexes`): by-id accessors, and a worker index to search. */
async function cachedVectors(
  state: LoadState,
  indexes: Record<VectorKind, SurrealVectorIndex>,
  ids: Record<VectorKind, string[]>,
  read: Partial<Record<VectorKind, Float32Array[]>>,
): Promise<Partial<Record<VectorKind, { vector: (id: string) => Float32Array | undefined; index: VectorIndex }>>> {
  const cached: Partial<Record<VectorKind, { vector: (id: string) => Float32Array | undefined; index: VectorIndex }>> = {};
  for (const kind of VECTOR_KINDS) {
    const vectors = read[kind];
    if (!vectors) continue;
    const byId = new Map<string, Float32Array>();
    ids[kind].forEach((id, label) => {
      if (!byId.has(id)) byId.set(id, vectors[label]);
    });
    cached[kind] = { vector: (id: string) => byId.get(id), index: await workerIndex(indexes[kind].dimension, vectors) };
    throwIfAborted(state.options.abortSignal, 'load index');
  }
  return cached;
}

/**
 * Load an index written by writeIndexToSurreal. The manifest rules of the file index apply:
 * IndexMismatchError (path = url#table, field, expected, actual) for no manifest record (e.g.
 * an interrupted write), another layout formatVersion, another encoder id or dimension, an
 * encoder id other than `expectedEncoderId`, or stored counts that disagree with the manifest.
 * Graph and vector queries go to the database; chunks, windows, label → id tables and BM25 state
 * are read into memory (ChunkStore and LexicalIndex are synchronous).
 */
export async function loadSurrealIndex(options: LoadSurrealIndexOptions): Promise<SurrealCorpusIndex> {
  const tables = resolveTables(options.tables);
  const { encoder } = options;
  if (!encoder || typeof encoder.id !== 'string' || !Number.isInteger(encoder.dimension)) {
    throw new InvalidArgumentError({ argument: 'encoder', message: 'must be an Encoder' });
  }
  const maxPostingsPerTerm = resolveMaxPostingsPerTerm(options.maxPostingsPerTerm); // refused before connecting
  return withConnection(options, async (connection, owned) => {
    const state: LoadState = {
      connection,
      tables,
      path: `${connection.url}#${connection.namespace}/${connection.database}`,
      options,
      maxPostingsPerTerm,
      batcher: new ReadBatcher(connection),
    };
    const record = await readManifestRecord({
      connection,
      tables,
      path: state.path,
      encoder: options.encoder,
      expectedEncoderId: options.expectedEncoderId,
    });
    // The tables of the generation the manifest record names (format 1: the plain names).
    state.tables = storedTables(record, tables);
    throwIfAborted(options.abortSignal, 'load index');
    const graph = await openGraph(state, record);
    const { indexes, ids, vectors } = await openVectorIndexes(state, record);
    throwIfAborted(options.abortSignal, 'load index');
    const { chunks, windows, documents, lexicalRows } = await readTexts(state, record);
    const lexical = lexicalIndexes(state, lexicalRows);
    const cached = await cachedVectors(state, indexes, ids, vectors);
    const index: SurrealCorpusIndex = {
      manifest: record.manifest,
      record,
      graph,
      chunks: new SurrealChunkStore({ chunks, windows, documents }),
      encoder,
      entityIndex: cached.entities?.index ?? indexes.entities,
      entityIds: ids.entities,
      relationIndex: cached.relations?.index ?? indexes.relations,
      relationIds: ids.relations,
      windowIndex: cached.windows?.index ?? indexes.windows,
      windowIds: ids.windows,
      databaseIndexes: indexes,
      vectorSearch: {
        entities: cached.entities ? 'worker' : 'database',
        relations: cached.relations ? 'worker' : 'database',
        windows: cached.windows ? 'worker' : 'database',
      },
      ...(lexical ? { lexical } : {}),
      ...(cached.windows ? { windowVector: cached.windows.vector } : {}),
      ...(cached.entities ? { entityVector: cached.entities.vector } : {}),
      ...(cached.relations ? { relationVector: cached.relations.vector } : {}),
      documents,
      connection,
      get roundTrips() {
        return connection.roundTrips;
      },
      close: async () => {
        if (owned) await connection.close();
      },
      // The same index with a graph store that remembers what this retrieval read (see SurrealGraphStore.forRetrieval).
      forRetrieval: () => Object.assign(Object.create(index) as SurrealCorpusIndex, { graph: graph.forRetrieval() }),
    };
    return index;
  });
}
