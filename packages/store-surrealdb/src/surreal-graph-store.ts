import { InvalidArgumentError } from '@mosaic/spec';
import type { EntityNode, GraphStore, Neighbor, RelationEdge, TextSpan } from '@mosaic/spec';
import { RecordId } from 'surrealdb';
import type { SurrealConnection } from './surreal-connection.js';
import { compareStrings } from '@mosaic/stage-utils/internal';
import { ReadBatcher } from './read-batcher.js';
import { CacheLayers, RecordCache } from './record-cache.js';
import { insertBatches, positiveInteger, resolveTables, type SurrealTableNames } from './surreal-tables.js';

export interface OpenSurrealGraphStoreOptions {
  connection: SurrealConnection;
  /** Table names (default DEFAULT_TABLES; `entity`, `relation` and `adjacency` are read). */
  tables?: Partial<SurrealTableNames>;
  /**
   * Share of nodes counted as hubs, as in GraphologyGraphStore: a node is a hub when its degree is
   * at or above the degree at this upper quantile (default 0.05), and at least 3.
   */
  hubShare?: number;
  /**
   * Entity records, relation records and neighbourhoods kept in this worker, each least recently
   * used first out (default 100,000 of each; 0 = none). They do not change until the index is
   * written again (`clearCache()` then, or reload).
   */
  cacheRecords?: number;
  /** Reads to coalesce with (default: a new ReadBatcher on the connection). */
  batcher?: ReadBatcher;
}

/** Round-trip counts of one SurrealGraphStore, by kind. */
export interface SurrealGraphStoreStats {
  /** Every request this store sent (open included); reads coalesced into one request count once. */
  roundTrips: number;
  /** `neighbors` calls. */
  neighborQueries: number;
  /** `getNodes` calls that had to read the database. */
  nodeQueries: number;
  /** `getEdges` calls that had to read the database. */
  edgeQueries: number;
  /** Record lookups answered by the worker's cache, and those read from the database. */
  cache: { hits: number; misses: number; size: number };
}

/** A stored entity record (`entity:<id>`); `degree` is written by writeGraphToSurreal. */
interface EntityRow {
  id: RecordId;
  name?: string;
  aliases?: string[];
  type?: string;
  description?: string;
  chunkIds?: string[];
  degree?: number;
  questionLike?: boolean;
  spans?: TextSpan[];
}

/** A stored relation edge (`relation:<id>`, in = source entity, out = target entity). */
interface RelationRow {
  id: RecordId;
  in: RecordId;
  out: RecordId;
  label?: string;
  keywords?: string[];
  description?: string;
  chunkIds?: string[];
  weight?: number;
  spans?: TextSpan[];
}

function key(id: RecordId): string {
  return String(id.id);
}

function toNode(row: EntityRow): EntityNode {
  return {
    id: key(row.id),
    name: row.name ?? '',
    aliases: row.aliases ?? [],
    type: row.type ?? '',
    description: row.description ?? '',
    chunkIds: row.chunkIds ?? [],
    degree: row.degree ?? 0,
    questionLike: row.questionLike ?? false,
    ...(Array.isArray(row.spans) && row.spans.length > 0 ? { spans: row.spans.map(toSpan) } : {}),
  };
}

/** A stored span as a plain TextSpan (the driver may hand back its own object types). */
function toSpan(span: TextSpan): TextSpan {
  return { chunkId: String(span.chunkId), start: Number(span.start), end: Number(span.end) };
}

function toEdge(row: RelationRow): RelationEdge {
  return {
    id: key(row.id),
    source: key(row.in),
    target: key(row.out),
    label: row.label ?? '',
    keywords: row.keywords ?? [],
    description: row.description ?? '',
    chunkIds: row.chunkIds ?? [],
    ...(typeof row.weight === 'number' ? { weight: row.weight } : {}),
    ...(Array.isArray(row.spans) && row.spans.length > 0 ? { spans: row.spans.map(toSpan) } : {}),
  };
}

/** Records as read: read copies (JSON strings) parsed, stored records converted; unknown ids (null) skipped. */
function readRecords<Row extends { id: RecordId }, T>(rows: ReadonlyArray<Row | string | null | undefined>, convert: (row: Row) => T): T[] {
  const out: T[] = [];
  for (const row of rows) {
    if (typeof row === 'string') out.push(JSON.parse(row) as T);
    else if (row?.id) out.push(convert(row));
  }
  return out;
}

const readNodes = (rows: ReadonlyArray<EntityRow | string | null | undefined>): EntityNode[] => readRecords(rows, toNode);
const readEdges = (rows: ReadonlyArray<RelationRow | string | null | undefined>): RelationEdge[] => readRecords(rows, toEdge);

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

function checkIds(ids: unknown, argument: string): asserts ids is readonly string[] {
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
    throw new InvalidArgumentError({ argument, message: 'must be an array of strings' });
  }
}

/** What a SurrealGraphStore is made of (open reads it; a retrieval's view copies it). */
interface GraphStoreSettings {
  connection: SurrealConnection;
  tables: SurrealTableNames;
  nodeCount: number;
  edgeCount: number;
  hubDegree: number;
  maxDegree: number;
  adjacencyTable: boolean;
  cacheRecords: number;
  batcher: ReadBatcher;
  openRoundTrips: number;
  /** The worker's caches, when this store is a retrieval's view of another. */
  shared?: { nodes: CacheLayers<EntityNode>; edges: CacheLayers<RelationEdge>; adjacency: CacheLayers<Neighbor[]> };
}

/**
 * GraphStore on SurrealDB: entities are records of the entity table, relations are graph edges
 * (`RELATE entity:a->relation:r->entity:b`), and the adjacency table lists every entity's
 * incident edges. Reads are batched and coalesced: `neighbors(ids)` of a whole beam depth is one
 * request (adjacency rows, incident edges and the nodes at their other ends), and `getNodes` and
 * `getEdges` issued in the same tick share one request. Records and neighbourhoods are kept in a
 * bounded worker cache (`cacheRecords`), so what a worker read before costs no request; counts,
 * maxDegree and hubDegree are read once at open.
 */
export class SurrealGraphStore implements GraphStore {
  readonly specificationVersion = 'v1' as const;
  readonly connection: SurrealConnection;
  readonly tables: SurrealTableNames;
  readonly nodeCount: number;
  readonly edgeCount: number;
  readonly hubDegree: number;
  readonly maxDegree: number;
  /**
   * True when the graph has the adjacency table and the read copies (written by this version):
   * neighbourhoods are then one adjacency read and records are read as JSON strings (several
   * times faster to decode in the SDK than records). Else records are read as such and
   * neighbours follow graph edges.
   */
  readonly adjacencyTable: boolean;
  readonly #counts = { neighborQueries: 0, nodeQueries: 0, edgeQueries: 0 };
  readonly #batcher: ReadBatcher;
  readonly #startRequests: number;
  readonly #openRoundTrips: number;
  readonly #nodes: CacheLayers<EntityNode>;
  readonly #edges: CacheLayers<RelationEdge>;
  readonly #adjacency: CacheLayers<Neighbor[]>;

  private constructor(options: GraphStoreSettings) {
    this.connection = options.connection;
    this.tables = options.tables;
    this.nodeCount = options.nodeCount;
    this.edgeCount = options.edgeCount;
    this.hubDegree = options.hubDegree;
    this.maxDegree = options.maxDegree;
    this.adjacencyTable = options.adjacencyTable;
    this.#batcher = options.batcher;
    this.#startRequests = options.batcher.requests;
    this.#openRoundTrips = options.openRoundTrips;
    this.#options = options;
    // A retrieval's view reads its own (unbounded, short-lived) cache first, then the worker's.
    const layers = <T>(shared: CacheLayers<T> | undefined): CacheLayers<T> =>
      new CacheLayers(shared ? [new RecordCache<T>(Number.POSITIVE_INFINITY), ...shared.layers] : [new RecordCache<T>(options.cacheRecords)]);
    this.#nodes = layers(options.shared?.nodes);
    this.#edges = layers(options.shared?.edges);
    this.#adjacency = layers(options.shared?.adjacency);
  }

  readonly #options: GraphStoreSettings;

  /**
   * A view of this store for one retrieval: the same connection, batcher and worker cache, plus
   * a cache of its own that keeps every record the retrieval read until the view is dropped — so
   * a record read once (e.g. with a neighbourhood) is not read again in the same retrieval even
   * when the worker cache is small or off (`cacheRecords: 0`). Its `stats` count its own calls.
   */
  forRetrieval(): SurrealGraphStore {
    return new SurrealGraphStore({
      ...this.#options,
      openRoundTrips: 0,
      shared: { nodes: this.#nodes, edges: this.#edges, adjacency: this.#adjacency },
    });
  }

  /** Open over existing tables: one request for counts and the degree histogram. */
  static async open(options: OpenSurrealGraphStoreOptions): Promise<SurrealGraphStore> {
    const tables = resolveTables(options.tables);
    const share = options.hubShare ?? 0.05;
    if (!Number.isFinite(share) || share < 0 || share > 1) {
      throw new InvalidArgumentError({ argument: 'hubShare', message: `must be in [0, 1], got ${String(share)}` });
    }
    const cacheRecords = options.cacheRecords ?? 100_000;
    if (!Number.isInteger(cacheRecords) || cacheRecords < 0) {
      throw new InvalidArgumentError({ argument: 'cacheRecords', message: `must be an integer ≥ 0, got ${String(cacheRecords)}` });
    }
    const [histogram, edgeCounts, adjacencyCounts, jsonCounts] = await options.connection.query<
      [Array<{ degree?: number; n: number }>, Array<{ n: number }>, Array<{ n: number }>, Array<{ n: number }>]
    >(
      `SELECT degree, count() AS n FROM ${tables.entity} GROUP BY degree; SELECT count() AS n FROM ${tables.relation} GROUP ALL; ` +
        `SELECT count() AS n FROM ${tables.adjacency} GROUP ALL; SELECT count() AS n FROM ${tables.entityRead} GROUP ALL;`,
      undefined,
      'open graph store',
    );
    // Degrees in descending order as (degree, count) runs; the hub cut is the degree at position ⌊n·share⌋.
    const runs = histogram.map((row) => ({ degree: row.degree ?? 0, n: row.n })).sort((a, b) => b.degree - a.degree);
    const nodeCount = runs.reduce((sum, run) => sum + run.n, 0);
    let cut = 0;
    if (nodeCount > 0) {
      const position = Math.min(nodeCount - 1, Math.floor(nodeCount * share));
      let seen = 0;
      for (const run of runs) {
        seen += run.n;
        if (position < seen) {
          cut = run.degree;
          break;
        }
      }
    }
    return new SurrealGraphStore({
      connection: options.connection,
      tables,
      nodeCount,
      edgeCount: edgeCounts[0]?.n ?? 0,
      hubDegree: Math.max(3, cut),
      maxDegree: runs[0]?.degree ?? 0,
      // Both written by writeGraphToSurreal of this version; graphs written before are read the slower way.
      adjacencyTable: (adjacencyCounts?.[0]?.n ?? 0) === nodeCount && (jsonCounts?.[0]?.n ?? 0) === nodeCount,
      cacheRecords,
      batcher: options.batcher ?? new ReadBatcher(options.connection),
      openRoundTrips: 1,
    });
  }

  /**
   * Requests sent through this store's batcher since it opened (open included). When the batcher is
   * shared with the vector indexes (as `loadSurrealIndex` does), their searches count too: a
   * request that carries a graph read and a search together is one request.
   */
  get roundTrips(): number {
    return this.#openRoundTrips + this.#batcher.requests - this.#startRequests;
  }

  /** Requests by kind, and the record cache. */
  get stats(): Readonly<SurrealGraphStoreStats> {
    const caches = [this.#nodes.stats, this.#edges.stats, this.#adjacency.stats];
    const sum = (field: 'hits' | 'misses' | 'size') => caches.reduce((total, cache) => total + cache[field], 0);
    return { roundTrips: this.roundTrips, ...this.#counts, cache: { hits: sum('hits'), misses: sum('misses'), size: sum('size') } };
  }

  /** Drop every cached record (e.g. after the index was written again). */
  clearCache(): void {
    this.#nodes.clear();
    this.#edges.clear();
    this.#adjacency.clear();
  }

  /** Read nodes not cached in one request; returns them, and caches them. */
  async #fetchNodes(ids: readonly string[]): Promise<Map<string, EntityNode>> {
    const copies = this.adjacencyTable;
    const rows = await this.#batcher.read<Array<EntityRow | string>>(
      copies ? 'SELECT VALUE j FROM $ids' : 'SELECT * FROM $ids',
      { ids: ids.map((id) => new RecordId(copies ? this.tables.entityRead : this.tables.entity, id)) },
      'read entities',
    );
    const fetched = new Map<string, EntityNode>();
    for (const node of readNodes(rows)) {
      fetched.set(node.id, node);
      this.#nodes.set(node.id, node);
    }
    return fetched;
  }

  /**
   * Read edges not cached in one request, with the nodes at both ends (a path needs them next);
   * returns the edges, and caches edges and nodes.
   */
  async #fetchEdges(ids: readonly string[]): Promise<Map<string, RelationEdge>> {
    const copies = this.adjacencyTable;
    const [edgeRows, endpointRows] = await this.#batcher.read<[Array<RelationRow | string>, Array<EntityRow | string>]>(
      copies
        ? 'LET $edges = (SELECT * FROM $ids); RETURN [$edges.j, array::distinct(array::flatten([$edges.s, $edges.t])).j];'
        : 'LET $edges = (SELECT * FROM $ids); RETURN [$edges, array::distinct(array::flatten([$edges.in, $edges.out])).*];',
      { ids: ids.map((id) => new RecordId(copies ? this.tables.relationRead : this.tables.relation, id)) },
      'read relations',
      2,
    );
    for (const node of readNodes(endpointRows)) this.#nodes.set(node.id, node);
    const fetched = new Map<string, RelationEdge>();
    for (const edge of readEdges(edgeRows)) {
      fetched.set(edge.id, edge);
      this.#edges.set(edge.id, edge);
    }
    return fetched;
  }

  async getNodes(ids: readonly string[]): Promise<EntityNode[]> {
    return this.#lookUp(ids, this.#nodes, async (missing) => {
      this.#counts.nodeQueries += 1;
      return this.#fetchNodes(missing);
    });
  }

  async getEdges(ids: readonly string[]): Promise<RelationEdge[]> {
    return this.#lookUp(ids, this.#edges, async (missing) => {
      this.#counts.edgeQueries += 1;
      return this.#fetchEdges(missing);
    });
  }

  /** Records by id in input order (unknown ids skipped): from the cache, the rest read in one request. */
  async #lookUp<T>(ids: readonly string[], cache: CacheLayers<T>, read: (missing: string[]) => Promise<Map<string, T>>): Promise<T[]> {
    checkIds(ids, 'ids');
    if (ids.length === 0) return [];
    const found = new Map<string, T>();
    const missing: string[] = [];
    for (const id of unique(ids)) {
      const record = cache.get(id);
      if (record) found.set(id, record);
      else missing.push(id);
    }
    if (missing.length > 0) for (const [id, record] of await read(missing)) found.set(id, record);
    return ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
  }

  /**
   * Incident edges of every id. Frontier nodes whose neighbourhood this worker already read are
   * answered from the cache; the others cost one request for all of them: their adjacency rows,
   * every incident edge and every node at the other ends (so the traverser's `getNodes` of the new
   * neighbours that follows needs no request).
   */
  async neighbors(ids: readonly string[]): Promise<Map<string, Neighbor[]>> {
    checkIds(ids, 'ids');
    const result = new Map<string, Neighbor[]>();
    const wanted = unique(ids);
    if (wanted.length === 0) return result;
    this.#counts.neighborQueries += 1;
    const missing: string[] = [];
    for (const id of wanted) {
      const cached = this.#adjacency.get(id);
      result.set(id, cached ?? []);
      if (!cached) missing.push(id);
    }
    if (missing.length === 0) return result;
    if (!this.adjacencyTable) return this.#neighborsByGraphEdges(missing, result);
    const [edgeTexts, nodeTexts] = await this.#batcher.read<[string[], string[]]>(
      'LET $rows = (SELECT * FROM $ids); RETURN [array::distinct(array::flatten($rows.e)).j, array::distinct(array::flatten($rows.n)).j];',
      { ids: missing.map((id) => new RecordId(this.tables.adjacency, id)) },
      'neighbourhood',
      2,
    );
    for (const node of readNodes(nodeTexts)) this.#nodes.set(node.id, node);
    const lists = new Map<string, Neighbor[]>(missing.map((id) => [id, []]));
    for (const edge of readEdges(edgeTexts)) {
      this.#edges.set(edge.id, edge);
      lists.get(edge.source)?.push({ edge, node: edge.target });
      lists.get(edge.target)?.push({ edge, node: edge.source });
    }
    for (const [id, list] of lists) {
      list.sort((a, b) => compareStrings(a.edge.id, b.edge.id));
      this.#adjacency.set(id, list);
      result.set(id, list);
    }
    return result;
  }

  /** Neighbours of a graph written without an adjacency table: follow `->relation` and `<-relation` (one request). */
  async #neighborsByGraphEdges(wanted: readonly string[], result: Map<string, Neighbor[]>): Promise<Map<string, Neighbor[]>> {
    const relation = this.tables.relation;
    const rows = await this.#batcher.read<Array<{ id?: RecordId; outgoing?: RelationRow[]; incoming?: RelationRow[] }>>(
      `SELECT id, ->${relation}.* AS outgoing, <-${relation}.* AS incoming FROM $ids`,
      { ids: wanted.map((id) => new RecordId(this.tables.entity, id)) },
      'neighbors',
    );
    for (const row of rows) {
      if (!row?.id) continue; // an unknown id yields a row without id
      const id = key(row.id);
      const list: Neighbor[] = [];
      for (const edgeRow of [...(row.outgoing ?? []), ...(row.incoming ?? [])]) {
        if (!edgeRow?.id) continue;
        const edge = toEdge(edgeRow);
        this.#edges.set(edge.id, edge);
        list.push({ edge, node: edge.source === id ? edge.target : edge.source });
      }
      list.sort((a, b) => compareStrings(a.edge.id, b.edge.id));
      this.#adjacency.set(id, list);
      result.set(id, list);
    }
    return result;
  }
}

/** The entity as `getNodes` returns it (what `toNode` reads back from the record's fields): stored as fields and as its read copy. */
function nodeJson(node: Omit<EntityNode, 'degree'>, degree: number): EntityNode {
  return {
    id: node.id,
    name: node.name,
    aliases: [...node.aliases],
    type: node.type,
    description: node.description,
    chunkIds: [...node.chunkIds],
    degree,
    questionLike: node.questionLike ?? false,
    ...(node.spans && node.spans.length > 0 ? { spans: node.spans.map(toSpan) } : {}),
  };
}

/** The relation as `getEdges` returns it: stored as fields (source/target as `in`/`out`) and as its read copy. */
function edgeJson(edge: RelationEdge): RelationEdge {
  return {
    id: edge.id,
    source: edge.source,
    target: edge.target,
    label: edge.label,
    keywords: [...edge.keywords],
    description: edge.description,
    chunkIds: [...edge.chunkIds],
    ...(typeof edge.weight === 'number' ? { weight: edge.weight } : {}),
    ...(edge.spans && edge.spans.length > 0 ? { spans: edge.spans.map(toSpan) } : {}),
  };
}

/** Open a SurrealGraphStore over tables written by writeGraphToSurreal. */
export function openSurrealGraphStore(options: OpenSurrealGraphStoreOptions): Promise<SurrealGraphStore> {
  return SurrealGraphStore.open(options);
}

export interface WriteGraphToSurrealOptions {
  connection: SurrealConnection;
  /** Entities (their `degree` is ignored and recomputed from `edges`). */
  nodes: ReadonlyArray<Omit<EntityNode, 'degree'> & { degree?: number }>;
  edges: readonly RelationEdge[];
  tables?: Partial<SurrealTableNames>;
  /** Records per request (default 500). */
  batchSize?: number;
}

export interface WriteGraphToSurrealResult {
  nodes: number;
  edges: number;
  /** Requests sent. */
  roundTrips: number;
}

/**
 * Write a graph: defines the entity table and the relation table (`TYPE RELATION IN entity OUT
 * entity`), inserts entities with their degree (incident edges, both directions), relations as
 * graph edges, and one adjacency row per entity, in batches, each batch in one transaction. Refuses (InvalidArgumentError) duplicate
 * ids, unknown endpoints and self loops before writing anything.
 */
export async function writeGraphToSurreal(options: WriteGraphToSurrealOptions): Promise<WriteGraphToSurrealResult> {
  const tables = resolveTables(options.tables);
  const batchSize = positiveInteger(options.batchSize, 'batchSize', 500);
  // Each entity's incident edges (edge id, node at the other end): its degree and its adjacency row.
  const incident = new Map<string, Array<[string, string]>>();
  for (const node of options.nodes) {
    if (typeof node.id !== 'string' || node.id.length === 0)
      throw new InvalidArgumentError({ argument: 'nodes', message: 'every node needs a non-empty string id' });
    if (incident.has(node.id)) throw new InvalidArgumentError({ argument: 'nodes', message: `duplicate node id ${node.id}` });
    incident.set(node.id, []);
  }
  const edgeIds = new Set<string>();
  for (const edge of options.edges) {
    if (typeof edge.id !== 'string' || edge.id.length === 0)
      throw new InvalidArgumentError({ argument: 'edges', message: 'every edge needs a non-empty string id' });
    if (edgeIds.has(edge.id)) throw new InvalidArgumentError({ argument: 'edges', message: `duplicate edge id ${edge.id}` });
    if (!incident.has(edge.source) || !incident.has(edge.target))
      throw new InvalidArgumentError({ argument: 'edges', message: `edge ${edge.id} has an unknown endpoint` });
    if (edge.source === edge.target) throw new InvalidArgumentError({ argument: 'edges', message: `edge ${edge.id} is a self loop` });
    edgeIds.add(edge.id);
    incident.get(edge.source)!.push([edge.id, edge.target]);
    incident.get(edge.target)!.push([edge.id, edge.source]);
  }
  const { connection } = options;
  const start = connection.roundTrips;
  await connection.query(
    `DEFINE TABLE IF NOT EXISTS ${tables.entity} SCHEMALESS; DEFINE TABLE IF NOT EXISTS ${tables.relation} TYPE RELATION IN ${tables.entity} OUT ${tables.entity} SCHEMALESS; ` +
      `DEFINE TABLE IF NOT EXISTS ${tables.adjacency} SCHEMALESS; DEFINE TABLE IF NOT EXISTS ${tables.entityRead} SCHEMALESS; ` +
      `DEFINE TABLE IF NOT EXISTS ${tables.relationRead} SCHEMALESS;`,
    undefined,
    'define graph tables',
  );
  // Each record once, as getNodes/getEdges return it: the fields of the stored record and its read copy.
  const nodes = options.nodes.map((node) => nodeJson(node, incident.get(node.id)!.length));
  const edges = options.edges.map(edgeJson);
  const write = <T>(table: string, items: readonly T[], toRow: (item: T) => Record<string, unknown>, what: string, relation = false) =>
    insertBatches({ connection, table, items, batchSize, toRow, what, relation });
  await write(tables.entity, nodes, ({ id, ...fields }) => ({ ...fields, id: new RecordId(tables.entity, id) }), 'write entities');
  await write(
    tables.relation,
    edges,
    ({ id, source, target, ...fields }) => ({
      ...fields,
      id: new RecordId(tables.relation, id),
      in: new RecordId(tables.entity, source),
      out: new RecordId(tables.entity, target),
    }),
    'write relations',
    true,
  );
  // Read copies: one JSON string each.
  await write(tables.entityRead, nodes, (node) => ({ id: new RecordId(tables.entityRead, node.id), j: JSON.stringify(node) }), 'write entity read copies');
  await write(
    tables.relationRead,
    edges,
    (edge) => ({
      id: new RecordId(tables.relationRead, edge.id),
      j: JSON.stringify(edge),
      s: new RecordId(tables.entityRead, edge.source),
      t: new RecordId(tables.entityRead, edge.target),
    }),
    'write relation read copies',
  );
  // Adjacency last: a row per entity, its incident edges sorted by id with the node at the other end.
  await write(
    tables.adjacency,
    nodes,
    (node) => {
      const pairs = incident.get(node.id)!.sort((a, b) => compareStrings(a[0], b[0]));
      return {
        id: new RecordId(tables.adjacency, node.id),
        e: pairs.map((pair) => new RecordId(tables.relationRead, pair[0])),
        n: pairs.map((pair) => new RecordId(tables.entityRead, pair[1])),
      };
    },
    'write adjacency',
  );
  return { nodes: options.nodes.length, edges: options.edges.length, roundTrips: connection.roundTrips - start };
}
