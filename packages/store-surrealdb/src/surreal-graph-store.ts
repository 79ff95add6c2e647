import { InvalidArgumentError } from '@mosaic/spec';
import type { EntityNode, GraphStore, Neighbor, RelationEdge, TextSpan } from '@mosaic/spec';
import { RecordId } from 'surrealdb';
import type { SurrealConnection } from './surreal-connection.js';
import { compareStrings } from '@mosaic/stage-utils';
import { batches, positiveInteger, resolveTables, type SurrealTableNames } from './surreal-tables.js';

export interface OpenSurrealGraphStoreOptions {
  connection: SurrealConnection;
  /** Table names (default DEFAULT_TABLES; only `entity` and `relation` are read). */
  tables?: Partial<SurrealTableNames>;
  /**
   * Share of nodes counted as hubs, as in GraphologyGraphStore: a node is a hub when its degree is
   * at or above the degree at this upper quantile (default 0.05), and at least 3.
   */
  hubShare?: number;
}

/** Round-trip counts of one SurrealGraphStore, by kind. */
export interface SurrealGraphStoreStats {
  /** Every request this store sent (open included). */
  roundTrips: number;
  /** `neighbors` requests (one per call, whatever the number of ids). */
  neighborQueries: number;
  nodeQueries: number;
  edgeQueries: number;
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

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

function checkIds(ids: unknown, argument: string): asserts ids is readonly string[] {
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
    throw new InvalidArgumentError({ argument, message: 'must be an array of strings' });
  }
}

/**
 * GraphStore on SurrealDB: entities are records of the entity table, relations are graph edges
 * (`RELATE entity:a->relation:r->entity:b`). Every call is one request whatever the number of
 * ids: `neighbors(ids)` follows `->relation` and `<-relation` of all ids in one SELECT, so a
 * traverser's whole beam depth costs one round trip. Counts, maxDegree and hubDegree are read
 * once at open (one request). Nothing is cached: many workers can share the database.
 */
export class SurrealGraphStore implements GraphStore {
  readonly specificationVersion = 'v1' as const;
  readonly connection: SurrealConnection;
  readonly tables: SurrealTableNames;
  readonly nodeCount: number;
  readonly edgeCount: number;
  readonly hubDegree: number;
  readonly maxDegree: number;
  readonly #stats: SurrealGraphStoreStats;

  private constructor(options: {
    connection: SurrealConnection;
    tables: SurrealTableNames;
    nodeCount: number;
    edgeCount: number;
    hubDegree: number;
    maxDegree: number;
    openRoundTrips: number;
  }) {
    this.connection = options.connection;
    this.tables = options.tables;
    this.nodeCount = options.nodeCount;
    this.edgeCount = options.edgeCount;
    this.hubDegree = options.hubDegree;
    this.maxDegree = options.maxDegree;
    this.#stats = { roundTrips: options.openRoundTrips, neighborQueries: 0, nodeQueries: 0, edgeQueries: 0 };
  }

  /** Open over existing tables: one request for counts and the degree histogram. */
  static async open(options: OpenSurrealGraphStoreOptions): Promise<SurrealGraphStore> {
    const tables = resolveTables(options.tables);
    const share = options.hubShare ?? 0.05;
    if (!Number.isFinite(share) || share < 0 || share > 1) {
      throw new InvalidArgumentError({ argument: 'hubShare', message: `must be in [0, 1], got ${String(share)}` });
    }
    const [histogram, edgeCounts] = await options.connection.query<[Array<{ degree?: number; n: number }>, Array<{ n: number }>]>(
      `SELECT degree, count() AS n FROM ${tables.entity} GROUP BY degree; SELECT count() AS n FROM ${tables.relation} GROUP ALL;`,
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
      openRoundTrips: 1,
    });
  }

  /** Requests this store has sent (open included). */
  get roundTrips(): number {
    return this.#stats.roundTrips;
  }

  /** Requests by kind. */
  get stats(): Readonly<SurrealGraphStoreStats> {
    return { ...this.#stats };
  }

  async getNodes(ids: readonly string[]): Promise<EntityNode[]> {
    checkIds(ids, 'ids');
    if (ids.length === 0) return [];
    this.#stats.roundTrips += 1;
    this.#stats.nodeQueries += 1;
    const [rows] = await this.connection.query<[EntityRow[]]>(
      'SELECT * FROM $ids',
      { ids: unique(ids).map((id) => new RecordId(this.tables.entity, id)) },
      'getNodes',
    );
    const byId = new Map(rows.filter((row) => row?.id).map((row) => [key(row.id), toNode(row)]));
    return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }

  async getEdges(ids: readonly string[]): Promise<RelationEdge[]> {
    checkIds(ids, 'ids');
    if (ids.length === 0) return [];
    this.#stats.roundTrips += 1;
    this.#stats.edgeQueries += 1;
    const [rows] = await this.connection.query<[RelationRow[]]>(
      'SELECT * FROM $ids',
      { ids: unique(ids).map((id) => new RecordId(this.tables.relation, id)) },
      'getEdges',
    );
    const byId = new Map(rows.filter((row) => row?.id).map((row) => [key(row.id), toEdge(row)]));
    return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }

  async neighbors(ids: readonly string[]): Promise<Map<string, Neighbor[]>> {
    checkIds(ids, 'ids');
    const result = new Map<string, Neighbor[]>();
    const wanted = unique(ids);
    if (wanted.length === 0) return result;
    this.#stats.roundTrips += 1;
    this.#stats.neighborQueries += 1;
    const relation = this.tables.relation;
    const [rows] = await this.connection.query<[Array<{ id?: RecordId; outgoing?: RelationRow[]; incoming?: RelationRow[] }>]>(
      `SELECT id, ->${relation}.* AS outgoing, <-${relation}.* AS incoming FROM $ids`,
      { ids: wanted.map((id) => new RecordId(this.tables.entity, id)) },
      'neighbors',
    );
    for (const id of wanted) result.set(id, []);
    for (const row of rows) {
      if (!row?.id) continue; // an unknown id yields a row without id
      const id = key(row.id);
      const list: Neighbor[] = [];
      for (const edgeRow of [...(row.outgoing ?? []), ...(row.incoming ?? [])]) {
        if (!edgeRow?.id) continue;
        const edge = toEdge(edgeRow);
        list.push({ edge, node: edge.source === id ? edge.target : edge.source });
      }
      list.sort((a, b) => compareStrings(a.edge.id, b.edge.id));
      result.set(id, list);
    }
    return result;
  }
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
 * entity`), inserts entities with their degree (incident edges, both directions) and relations as
 * graph edges, in batches, each batch in one transaction. Refuses (InvalidArgumentError) duplicate
 * ids, unknown endpoints and self loops before writing anything.
 */
export async function writeGraphToSurreal(options: WriteGraphToSurrealOptions): Promise<WriteGraphToSurrealResult> {
  const tables = resolveTables(options.tables);
  const batchSize = positiveInteger(options.batchSize, 'batchSize', 500);
  const degrees = new Map<string, number>();
  for (const node of options.nodes) {
    if (typeof node.id !== 'string' || node.id.length === 0)
      throw new InvalidArgumentError({ argument: 'nodes', message: 'every node needs a non-empty string id' });
    if (degrees.has(node.id)) throw new InvalidArgumentError({ argument: 'nodes', message: `duplicate node id ${node.id}` });
    degrees.set(node.id, 0);
  }
  const edgeIds = new Set<string>();
  for (const edge of options.edges) {
    if (typeof edge.id !== 'string' || edge.id.length === 0)
      throw new InvalidArgumentError({ argument: 'edges', message: 'every edge needs a non-empty string id' });
    if (edgeIds.has(edge.id)) throw new InvalidArgumentError({ argument: 'edges', message: `duplicate edge id ${edge.id}` });
    if (!degrees.has(edge.source) || !degrees.has(edge.target))
      throw new InvalidArgumentError({ argument: 'edges', message: `edge ${edge.id} has an unknown endpoint` });
    if (edge.source === edge.target) throw new InvalidArgumentError({ argument: 'edges', message: `edge ${edge.id} is a self loop` });
    edgeIds.add(edge.id);
    degrees.set(edge.source, degrees.get(edge.source)! + 1);
    degrees.set(edge.target, degrees.get(edge.target)! + 1);
  }
  const { connection } = options;
  const start = connection.roundTrips;
  await connection.query(
    `DEFINE TABLE IF NOT EXISTS ${tables.entity} SCHEMALESS; DEFINE TABLE IF NOT EXISTS ${tables.relation} TYPE RELATION IN ${tables.entity} OUT ${tables.entity} SCHEMALESS;`,
    undefined,
    'define graph tables',
  );
  for (const batch of batches(options.nodes, batchSize)) {
    const rows = batch.map((node) => ({
      id: new RecordId(tables.entity, node.id),
      name: node.name,
      aliases: [...node.aliases],
      type: node.type,
      description: node.description,
      chunkIds: [...node.chunkIds],
      degree: degrees.get(node.id)!,
      questionLike: node.questionLike,
      ...(node.spans && node.spans.length > 0 ? { spans: node.spans.map(toSpan) } : {}),
    }));
    await connection.query(`BEGIN; INSERT INTO ${tables.entity} $rows RETURN NONE; COMMIT;`, { rows }, 'write entities');
  }
  for (const batch of batches(options.edges, batchSize)) {
    const rows = batch.map((edge) => ({
      id: new RecordId(tables.relation, edge.id),
      in: new RecordId(tables.entity, edge.source),
      out: new RecordId(tables.entity, edge.target),
      label: edge.label,
      keywords: [...edge.keywords],
      description: edge.description,
      chunkIds: [...edge.chunkIds],
      ...(typeof edge.weight === 'number' ? { weight: edge.weight } : {}),
      ...(edge.spans && edge.spans.length > 0 ? { spans: edge.spans.map(toSpan) } : {}),
    }));
    await connection.query(`BEGIN; INSERT RELATION INTO ${tables.relation} $rows RETURN NONE; COMMIT;`, { rows }, 'write relations');
  }
  return { nodes: options.nodes.length, edges: options.edges.length, roundTrips: connection.roundTrips - start };
}
