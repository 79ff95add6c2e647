import type {
  BuiltIndexManifest,
  IndexContents,
  IndexStore,
  ReadStoredIndexOptions,
  StoredIndexContents,
  VectorTable,
  WriteIndexContentsOptions,
  WriteIndexContentsResult,
} from '@mosaic/indexing';
import { IndexMismatchError, InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import { RecordId } from 'surrealdb';
import { VECTOR_KINDS, enumerateGraph, type EnumerableGraph, type SurrealIndexPieces, type VectorKind } from './index-pieces.js';
import type { SurrealConnection } from './surreal-connection.js';
import { generationOf, storedTables } from './surreal-generations.js';
import {
  type ChunkRow,
  checkCounts,
  type DocumentRow,
  MANIFEST_RECORD,
  readManifestRecord,
  textsFromRows,
  vectorTable,
  type WindowRow,
  writeIndexToSurreal,
} from './surreal-index.js';
import { positiveInteger, resolveTables, type SurrealTableNames } from './surreal-tables.js';

export interface SurrealIndexStoreOptions {
  /** An open connection (namespace and database selected); the store does not close it. */
  connection: SurrealConnection;
  tables?: Partial<SurrealTableNames>;
  /** Replace an index already in the database when writing a build (default false → InvalidArgumentError). Additions always replace. */
  replace?: boolean;
  /** Records per request (default 500). */
  batchSize?: number;
  /** Vector rows per request when an addition reads the stored vectors (default 2,000). */
  readBatchSize?: number;
  /** HNSW build parameters (defaults M 12, EFC 150). */
  hnsw?: { m?: number; efConstruction?: number };
  /** Clock for the manifest record's `writtenAt` (default: now). */
  now?: () => Date;
}

/** The IndexStore of a SurrealDB database, with the generation its last `read` saw. */
export interface SurrealIndexStore extends IndexStore<BuiltIndexManifest> {
  readonly connection: SurrealConnection;
  /** Generation of the index the last `read` returned (an addition switches only if it is still current). */
  readonly readGeneration: number | undefined;
}

type ExtractionRow = { id: RecordId; chunkId: string; json: string };
type VectorRow = { id: RecordId; v?: number[]; zero?: boolean; key?: string; textHash?: string };

/**
 * The plain pieces writeIndexToSurreal writes, from index contents built in memory by
 * @mosaic/indexing (composeIndex / buildIndexInto): the graph's nodes and edges, chunks, windows,
 * documents, per-chunk extractions, vectors with ids and text hashes, BM25 states, manifest.
 */
export function piecesFromIndexContents(contents: IndexContents): SurrealIndexPieces {
  // This store has no writeGraph: the build hands it the graph in the contents.
  if (!contents.graph) throw new InvalidArgumentError({ argument: 'contents.graph', message: 'is required' });
  const { entities, relations } = enumerateGraph(contents.graph as unknown as EnumerableGraph);
  const vectors = {} as SurrealIndexPieces['vectors'];
  for (const kind of VECTOR_KINDS) {
    const table = contents.vectors[kind];
    vectors[kind] = { ids: table.ids, vectors: table.vectors, textHashes: table.textHashes };
  }
  return {
    manifest: contents.manifest,
    entities: entities.map(({ degree: _degree, ...node }) => node),
    relations,
    chunks: contents.chunks,
    windows: contents.windows,
    documents: contents.documents,
    vectors,
    ...(contents.lexical ? { lexical: contents.lexical } : {}),
    extractions: contents.extractions,
  };
}

/**
 * An IndexStore (@mosaic/indexing) over one SurrealDB database: `buildIndexInto({ store })` builds
 * straight into the database (no index directory), `addDocumentsInto({ store })` extends the index
 * there. Writes go to a new generation of tables and switch the manifest record at the end (see
 * writeIndexToSurreal): an addition that fails or is aborted leaves the previous index intact.
 * `read` returns what an addition needs (documents, chunks, windows, extractions, vectors with
 * their text hashes); indexes written without extractions (format 1, or migrated without them)
 * are refused with IndexMismatchError (field 'extractions').
 */
export function createSurrealIndexStore(options: SurrealIndexStoreOptions): SurrealIndexStore {
  const { connection } = options;
  if (!connection || typeof connection.query !== 'function')
    throw new InvalidArgumentError({ argument: 'connection', message: 'must be an open SurrealConnection' });
  const base = resolveTables(options.tables);
  const batchSize = positiveInteger(options.batchSize, 'batchSize', 500);
  const readBatchSize = positiveInteger(options.readBatchSize, 'readBatchSize', 2000);
  const location = `${connection.url}#${connection.namespace}/${connection.database}`;
  let readGeneration: number | undefined;

  const mismatch = (field: string, expected: unknown, actual: unknown, message?: string) =>
    new IndexMismatchError({ path: location, field, expected, actual, ...(message ? { message } : {}) });

  async function readVectors(table: string, size: number, kind: VectorKind, dimension: number): Promise<VectorTable> {
    const ids = new Array<string>(size);
    const textHashes = new Array<string>(size);
    const vectors = new Array<Float32Array>(size);
    let seen = 0;
    for (let start = 0; start < size; start += readBatchSize) {
      // A key range of the numeric labels: one request per page.
      const [rows] = await connection.query<[VectorRow[]]>(
        `SELECT id, v, zero, key, textHash FROM ${table}:${start}..${Math.min(size, start + readBatchSize)};`,
        undefined,
        `read ${table}`,
      );
      for (const row of rows) {
        const label = Number(row.id.id);
        if (!(label >= 0 && label < size)) continue;
        if (typeof row.textHash !== 'string') {
          throw mismatch(
            `${kind}.textHashes`,
            'a text hash per vector',
            'missing',
            `${location}#${table}: vectors without text hashes (written before format 2); rebuild the index to add documents`,
          );
        }
        ids[label] = row.key ?? '';
        textHashes[label] = row.textHash;
        vectors[label] = row.v ? Float32Array.from(row.v) : new Float32Array(dimension);
        seen += 1;
      }
    }
    if (seen !== size) throw mismatch(`${kind}.size`, size, seen);
    return { ids, textHashes, vectors };
  }

  return {
    location,
    connection,
    get readGeneration() {
      return readGeneration;
    },
    async read({ encoder, abortSignal }: ReadStoredIndexOptions): Promise<StoredIndexContents> {
      const record = await readManifestRecord({ connection, tables: base, path: location, encoder });
      const manifest = record.manifest as BuiltIndexManifest;
      const extractions = record.counts.extractions ?? 0;
      if (extractions !== record.counts.chunks || typeof manifest.chunking?.chunkSize !== 'number' || typeof manifest.lexical !== 'boolean') {
        throw mismatch(
          'extractions',
          record.counts.chunks,
          extractions,
          `${location}: the index was written without its per-chunk extractions or chunking (format ${record.formatVersion}, or migrated from pieces without them); build it with mosaic index --store to add documents`,
        );
      }
      const tables = storedTables(record, base);
      const [documentRows, chunkRows, windowRows, extractionRows] = await connection.query<[DocumentRow[], ChunkRow[], WindowRow[], ExtractionRow[]]>(
        `SELECT * FROM ${tables.document}; SELECT * FROM ${tables.chunk}; SELECT * FROM ${tables.window}; SELECT * FROM ${tables.extraction};`,
        undefined,
        'read index for an addition',
      );
      throwIfAborted(abortSignal, 'read index');
      checkCounts(
        location,
        { documents: record.counts.documents, chunks: record.counts.chunks, windows: record.counts.windows, extractions },
        { documents: documentRows.length, chunks: chunkRows.length, windows: windowRows.length, extractions: extractionRows.length },
      );
      const { chunks, windows, documents } = textsFromRows({ chunkRows, windowRows, documentRows });
      const stored: StoredIndexContents['extractions'] = extractionRows
        .sort((a, b) => Number(a.id.id) - Number(b.id.id))
        .map((row) => ({ chunkId: row.chunkId, extraction: JSON.parse(row.json) }));
      const vectors = {} as Record<VectorKind, VectorTable>;
      for (const kind of VECTOR_KINDS) {
        vectors[kind] = await readVectors(vectorTable(tables, kind), record.counts.vectors[kind], kind, manifest.encoder.dimension);
        throwIfAborted(abortSignal, 'read index');
      }
      readGeneration = generationOf(record);
      return { manifest, documents, chunks, windows, extractions: stored, vectors };
    },
    /** Before extraction: a build (no `read` first) over an existing index without `replace` is refused at once, not after encoding. */
    async prepare() {
      if (readGeneration !== undefined || options.replace) return;
      let records: unknown[] = [];
      try {
        [records] = await connection.query<[unknown[]]>('SELECT id FROM $id;', { id: new RecordId(base.manifest, MANIFEST_RECORD) }, 'read manifest');
      } catch {
        records = [];
      }
      if (records.length > 0) {
        throw new InvalidArgumentError({ argument: 'replace', message: `${location} already holds an index; pass replace: true` });
      }
    },
    async write(write: WriteIndexContentsOptions): Promise<WriteIndexContentsResult<BuiltIndexManifest>> {
      const pieces = piecesFromIndexContents(write.contents);
      if (write.startedAt !== undefined) {
        pieces.manifest = { ...pieces.manifest, buildTimeMs: Math.round(performance.now() - write.startedAt) };
      }
      const addition = write.previous !== undefined;
      const result = await writeIndexToSurreal({
        connection,
        pieces,
        tables: base,
        replace: addition || (options.replace ?? false),
        ...(addition && readGeneration !== undefined ? { expectedGeneration: readGeneration } : {}),
        batchSize,
        hnsw: options.hnsw,
        now: options.now,
        abortSignal: write.abortSignal,
        onProgress: write.onProgress,
      });
      readGeneration = undefined;
      return { location, manifest: result.record.manifest as BuiltIndexManifest };
    },
  };
}
