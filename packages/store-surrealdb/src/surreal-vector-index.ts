import { DimensionMismatchError, IndexMismatchError, InputError, InvalidArgumentError } from '@mosaic/spec';
import type { VectorHit, VectorIndex } from '@mosaic/spec';
import { createInMemoryVectorIndex } from '@mosaic/vector-index';
import { RecordId } from 'surrealdb';
import type { SurrealConnection } from './surreal-connection.js';
import { ReadBatcher } from './read-batcher.js';
import { batches, checkIdentifier, positiveInteger } from './surreal-tables.js';

/** Table holding one description record per vector table (`mosaic_vector_index:<table>`). */
export const VECTOR_META_TABLE = 'mosaic_vector_index';

/**
 * How `search` finds candidates. 'hnsw': approximate k-nearest neighbours on the table's HNSW
 * index (`<|k,ef|>`), exact whenever k ≥ size. 'exact': a full scan ordered by inner product.
 */
export type SurrealVectorSearch = 'hnsw' | 'exact';

export interface SurrealVectorIndexOptions {
  connection: SurrealConnection;
  /** Table of this index (rows `<table>:<label>`). A plain identifier. */
  table: string;
  /** Default 'hnsw'. */
  search?: SurrealVectorSearch;
  /** ef of an HNSW search (candidate list size); raised to k when smaller. Default 64. */
  efSearch?: number;
  /** Coalesce searches with other reads of the same tick into one request (see ReadBatcher). Default: a batcher of its own (its own searches of one tick still go in one request). */
  batcher?: ReadBatcher;
}

export interface CreateSurrealVectorIndexOptions extends SurrealVectorIndexOptions {
  dimension: number;
  /** HNSW M (links per node). Default 12. */
  m?: number;
  /** HNSW EFC (candidate list size while building). Default 150. */
  efConstruction?: number;
}

export interface OpenSurrealVectorIndexOptions extends SurrealVectorIndexOptions {
  /** Expected dimension; IndexMismatchError when the stored index differs. */
  dimension?: number;
}

/** The description record of a vector table. */
interface VectorMeta {
  dimension: number;
  distance: 'COSINE';
  m: number;
  efConstruction: number;
}

interface VectorRow {
  id: RecordId;
  v?: number[];
  zero?: boolean;
  key?: string;
}

function checkDimension(dimension: unknown): asserts dimension is number {
  if (typeof dimension !== 'number' || !Number.isInteger(dimension) || dimension < 1) {
    throw new InvalidArgumentError({ argument: 'dimension', message: `must be a positive integer, got ${String(dimension)}` });
  }
}

function checkK(k: unknown): asserts k is number {
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 0) {
    throw new InvalidArgumentError({ argument: 'k', message: `must be a non-negative integer, got ${String(k)}` });
  }
}

function checkVector(vector: unknown, dimension: number, argument: string, what: string): asserts vector is Float32Array {
  if (vector === null || typeof vector !== 'object' || typeof (vector as { length?: unknown }).length !== 'number') {
    throw new InvalidArgumentError({ argument, message: `${what} must be a Float32Array` });
  }
  const values = vector as ArrayLike<number>;
  if (values.length !== dimension) throw new DimensionMismatchError({ expected: dimension, actual: values.length, what });
  for (let i = 0; i < values.length; i += 1) {
    if (!Number.isFinite(values[i])) throw new InvalidArgumentError({ argument, message: `${what} has a non-finite value at ${i}` });
  }
}

function isZero(vector: Float32Array): boolean {
  for (let i = 0; i < vector.length; i += 1) if (vector[i] !== 0) return false;
  return true;
}

function compareHits(a: VectorHit, b: VectorHit): number {
  return b.score - a.score || a.label - b.label;
}

function labelOf(id: RecordId): number {
  return Number(id.id);
}

/**
 * VectorIndex on a SurrealDB table with an HNSW index (`DEFINE INDEX … HNSW DIMENSION n DIST
 * COSINE`). Row `<table>:<label>` holds vector `v`; labels are insertion order. Search finds
 * candidates with KNN (`v <|k,ef|> $q`) and scores them by exact inner product (`vector::dot`),
 * best first, ties by lower label — for L2-normalised vectors (what encoders emit) cosine and
 * inner product rank alike. All-zero vectors are kept out of the HNSW graph (cosine is undefined
 * for them) and score 0. One request per add batch and per search.
 */
export class SurrealVectorIndex implements VectorIndex {
  readonly specificationVersion = 'v1' as const;
  readonly connection: SurrealConnection;
  readonly table: string;
  readonly dimension: number;
  readonly searchMode: SurrealVectorSearch;
  readonly efSearch: number;
  #size: number;
  #zeros: number;
  #roundTrips = 0;
  readonly #batcher: ReadBatcher;

  private constructor(options: {
    connection: SurrealConnection;
    table: string;
    dimension: number;
    search: SurrealVectorSearch;
    efSearch: number;
    size: number;
    zeros: number;
    batcher?: ReadBatcher;
  }) {
    // A batcher of its own when none is shared: reads of the same tick still go in one request.
    this.#batcher = options.batcher ?? new ReadBatcher(options.connection);
    this.connection = options.connection;
    this.table = options.table;
    this.dimension = options.dimension;
    this.searchMode = options.search;
    this.efSearch = options.efSearch;
    this.#size = options.size;
    this.#zeros = options.zeros;
  }

  /** Define the table, its HNSW index and description record. IndexMismatchError when the table already holds an index. */
  static async create(options: CreateSurrealVectorIndexOptions): Promise<SurrealVectorIndex> {
    const table = checkIdentifier(options.table, 'table');
    checkDimension(options.dimension);
    const { search, efSearch } = searchOptions(options);
    const meta: VectorMeta = {
      dimension: options.dimension,
      distance: 'COSINE',
      m: positiveInteger(options.m, 'm', 12),
      efConstruction: positiveInteger(options.efConstruction, 'efConstruction', 150),
    };
    const [, existing] = await options.connection.query<[unknown, VectorMeta[]]>(
      `DEFINE TABLE IF NOT EXISTS ${VECTOR_META_TABLE} SCHEMALESS; SELECT * FROM $meta;`,
      { meta: new RecordId(VECTOR_META_TABLE, table) },
      'create vector index',
    );
    if (existing.length > 0) {
      throw new IndexMismatchError({
        path: `${options.connection.url}#${table}`,
        field: 'table',
        expected: 'absent',
        actual: 'exists',
        message: `vector table ${table} already exists`,
      });
    }
    await options.connection.query(
      `BEGIN;
       DEFINE TABLE ${table} SCHEMALESS;
       DEFINE INDEX ${table}_hnsw ON ${table} FIELDS v HNSW DIMENSION ${meta.dimension} DIST COSINE TYPE F32 EFC ${meta.efConstruction} M ${meta.m};
       CREATE $meta CONTENT $content RETURN NONE;
       COMMIT;`,
      { meta: new RecordId(VECTOR_META_TABLE, table), content: meta },
      'create vector index',
    );
    return new SurrealVectorIndex({ connection: options.connection, table, dimension: meta.dimension, search, efSearch, size: 0, zeros: 0 });
  }

  /** Open an existing table (one request). InputError when it is not a vector table; IndexMismatchError on another dimension. */
  static async open(options: OpenSurrealVectorIndexOptions): Promise<SurrealVectorIndex> {
    const table = checkIdentifier(options.table, 'table');
    if (options.dimension !== undefined) checkDimension(options.dimension);
    const { search, efSearch } = searchOptions(options);
    const source = `${options.connection.url}#${table}`;
    let meta: VectorMeta[];
    let counts: Array<{ n: number }>;
    let zeros: Array<{ n: number }>;
    try {
      [meta, counts, zeros] = await options.connection.query<[VectorMeta[], Array<{ n: number }>, Array<{ n: number }>]>(
        `SELECT * FROM $meta; SELECT count() AS n FROM ${table} GROUP ALL; SELECT count() AS n FROM ${table} WHERE zero = true GROUP ALL;`,
        { meta: new RecordId(VECTOR_META_TABLE, table) },
        'open vector index',
      );
    } catch (cause) {
      throw new InputError({ source, message: 'not a vector table of this package', cause });
    }
    if (meta.length === 0) throw new InputError({ source, message: 'not a vector table of this package (no description record)' });
    const dimension = meta[0].dimension;
    if (options.dimension !== undefined && dimension !== options.dimension) {
      throw new IndexMismatchError({ path: source, field: 'dimension', expected: options.dimension, actual: dimension });
    }
    return new SurrealVectorIndex({
      connection: options.connection,
      table,
      dimension,
      search,
      efSearch,
      size: counts[0]?.n ?? 0,
      zeros: zeros[0]?.n ?? 0,
      batcher: options.batcher,
    });
  }

  get size(): number {
    return this.#size;
  }

  /** Requests this index has sent (open excluded). */
  get roundTrips(): number {
    return this.#roundTrips;
  }

  /**
   * Append vectors; labels continue from the current size. The whole batch is checked before
   * anything is written; rows go in transactions of `batchSize` (default 500). `keys` (same
   * length) are stored beside the vectors, e.g. the entity id of each label; so are `textHashes`
   * (the hash of the text each vector embeds, read back by an incremental addition).
   */
  async add(vectors: readonly Float32Array[], options: { keys?: readonly string[]; textHashes?: readonly string[]; batchSize?: number } = {}): Promise<void> {
    if (!Array.isArray(vectors)) throw new InvalidArgumentError({ argument: 'vectors', message: 'must be an array of Float32Array' });
    vectors.forEach((vector, i) => {
      checkVector(vector, this.dimension, 'vectors', `Vector ${i}`);
    });
    if (options.keys !== undefined && (options.keys.length !== vectors.length || options.keys.some((key) => typeof key !== 'string'))) {
      throw new InvalidArgumentError({ argument: 'keys', message: 'must be strings, one per vector' });
    }
    const hashes = options.textHashes;
    if (hashes !== undefined && (hashes.length !== vectors.length || hashes.some((hash) => typeof hash !== 'string'))) {
      throw new InvalidArgumentError({ argument: 'textHashes', message: 'must be strings, one per vector' });
    }
    const batchSize = positiveInteger(options.batchSize, 'batchSize', 500);
    let offset = 0;
    for (const batch of batches(vectors, batchSize)) {
      const rows = batch.map((vector, i) => {
        const label = this.#size + i;
        const key = options.keys?.[offset + i];
        const zero = isZero(vector);
        const textHash = hashes?.[offset + i];
        return {
          id: new RecordId(this.table, label),
          ...(zero ? { zero: true } : { v: Array.from(vector) }),
          ...(key !== undefined ? { key } : {}),
          ...(textHash !== undefined ? { textHash } : {}),
        };
      });
      this.#roundTrips += 1;
      await this.connection.query(`BEGIN; INSERT INTO ${this.table} $rows RETURN NONE; COMMIT;`, { rows }, `add to ${this.table}`);
      this.#size += batch.length;
      this.#zeros += rows.filter((row) => 'zero' in row).length;
      offset += batch.length;
    }
  }

  async search(query: Float32Array, k: number): Promise<VectorHit[]> {
    checkVector(query, this.dimension, 'query', 'Query vector');
    checkK(k);
    const count = Math.min(k, this.#size);
    if (count === 0) return [];
    const q = Array.from(query);
    const exact = this.searchMode === 'exact' || count >= this.#size - this.#zeros;
    const scored = exact
      ? `SELECT id, vector::dot(v, $q) AS score FROM ${this.table} WHERE zero != true ORDER BY score DESC, id ASC LIMIT ${count}`
      : `SELECT id, vector::dot(v, $q) AS score FROM ${this.table} WHERE v <|${count},${Math.max(count, this.efSearch)}|> $q`;
    const zeros = this.#zeros > 0 ? `SELECT id FROM ${this.table} WHERE zero = true ORDER BY id ASC LIMIT ${count}` : '[]';
    this.#roundTrips += 1;
    // One statement, so that a batcher can send it with the other reads of the same tick.
    const statement = `RETURN [(${scored}), (${zeros})];`;
    const [rows, zeroRows] = await this.#batcher.read<[Array<{ id: RecordId; score: number }>, Array<{ id: RecordId }>]>(
      statement,
      { q },
      `search ${this.table}`,
    );
    const hits: VectorHit[] = rows.map((row) => ({ label: labelOf(row.id), score: Math.fround(row.score) }));
    for (const row of zeroRows) hits.push({ label: labelOf(row.id), score: 0 });
    return hits.sort(compareHits).slice(0, count);
  }

  /** Stored vectors by label (one request per 1,000 labels); unknown labels → InvalidArgumentError. */
  async getVectors(labels: readonly number[]): Promise<Float32Array[]> {
    for (const label of labels) {
      if (!Number.isInteger(label) || label < 0 || label >= this.#size) {
        throw new InvalidArgumentError({ argument: 'labels', message: `label ${String(label)} is outside 0..${this.#size - 1}` });
      }
    }
    const rows = await this.#readRows(labels);
    return labels.map((label) => rows.get(label)!.vector);
  }

  /** Every stored vector and its key, in label order ('' where no key was given), in one pass over the rows. */
  async getAll(): Promise<{ keys: string[]; vectors: Float32Array[] }> {
    const labels = Array.from({ length: this.#size }, (_, i) => i);
    const rows = await this.#readRows(labels);
    return { keys: labels.map((label) => rows.get(label)!.key), vectors: labels.map((label) => rows.get(label)!.vector) };
  }

  /** The rows of `labels` (one request per 1,000); a missing row → InputError. */
  async #readRows(labels: readonly number[]): Promise<Map<number, { vector: Float32Array; key: string }>> {
    const out = new Map<number, { vector: Float32Array; key: string }>();
    for (const batch of batches([...new Set(labels)], 1000)) {
      this.#roundTrips += 1;
      const [rows] = await this.connection.query<[VectorRow[]]>(
        'SELECT * FROM $ids',
        { ids: batch.map((label) => new RecordId(this.table, label)) },
        `read ${this.table}`,
      );
      for (const row of rows) out.set(labelOf(row.id), { vector: row.v ? Float32Array.from(row.v) : new Float32Array(this.dimension), key: row.key ?? '' });
    }
    for (const label of labels) {
      if (!out.has(label)) throw new InputError({ source: `${this.connection.url}#${this.table}`, message: `row ${label} is missing` });
    }
    return out;
  }

  /** The keys stored with each label (label order; '' where none was given). */
  async getKeys(): Promise<string[]> {
    this.#roundTrips += 1;
    const [rows] = await this.connection.query<[Array<{ id: RecordId; key?: string }>]>(
      `SELECT id, key FROM ${this.table}`,
      undefined,
      `read ${this.table} keys`,
    );
    const keys = new Array<string>(this.#size).fill('');
    for (const row of rows) {
      const label = labelOf(row.id);
      if (label < keys.length) keys[label] = row.key ?? '';
    }
    return keys;
  }

  /**
   * Export a snapshot to `path` in the file format of `InMemoryVectorIndex` (@mosaic/vector-index;
   * read it back with `loadInMemoryVectorIndex`). The database stays the source of truth.
   */
  async save(path: string): Promise<void> {
    if (typeof path !== 'string' || path.length === 0) throw new InvalidArgumentError({ argument: 'path', message: 'must be a non-empty string' });
    const snapshot = createInMemoryVectorIndex({ dimension: this.dimension });
    const labels = Array.from({ length: this.#size }, (_, i) => i);
    for (const batch of batches(labels, 1000)) await snapshot.add(await this.getVectors(batch));
    await snapshot.save(path);
  }
}

function searchOptions(options: SurrealVectorIndexOptions): { search: SurrealVectorSearch; efSearch: number } {
  const search = options.search ?? 'hnsw';
  if (search !== 'hnsw' && search !== 'exact')
    throw new InvalidArgumentError({ argument: 'search', message: `must be 'hnsw' or 'exact', got ${String(search)}` });
  return { search, efSearch: positiveInteger(options.efSearch, 'efSearch', 64) };
}

/** Create an empty vector table with its HNSW index. */
export function createSurrealVectorIndex(options: CreateSurrealVectorIndexOptions): Promise<SurrealVectorIndex> {
  return SurrealVectorIndex.create(options);
}

/** Open a vector table written by this package. */
export function openSurrealVectorIndex(options: OpenSurrealVectorIndexOptions): Promise<SurrealVectorIndex> {
  return SurrealVectorIndex.open(options);
}
