import { InvalidArgumentError } from '@mosaic/spec';
import type { SurrealConnection } from './surreal-connection.js';

/** Table names of a Mosaic index in one SurrealDB database. */
export interface SurrealTableNames {
  /** Entity records (`entity:<entity id>`). Default 'entity'. */
  entity: string;
  /** Relation edges, a `TYPE RELATION IN entity OUT entity` table. Default 'relation'. */
  relation: string;
  /**
   * Incident edges of every entity (`adjacency:<entity id>` = `{ e, n }`: links to the edges'
   * and the neighbours' read copies, sorted by edge id), written with the graph: a depth of
   * traversal reads one small row per frontier node. Default 'adjacency'.
   */
  adjacency: string;
  /**
   * Read copies of the entities (`entity_read:<entity id>` = `{ j }`, the node as `getNodes`
   * returns it, as JSON): one string per record decodes several times faster than the record in
   * the SDK, and small rows are faster for the engine. Default 'entity_read'.
   */
  entityRead: string;
  /** Read copies of the relations (`relation_read:<id>` = `{ j, s, t }`, s/t = links to the endpoints' read copies). Default 'relation_read'. */
  relationRead: string;
  /** Chunk records. Default 'chunk'. */
  chunk: string;
  /** Source-window records. Default 'source_window'. */
  window: string;
  /** Source documents (optional). Default 'document'. */
  document: string;
  /** Vector tables, one row per label (`<table>:<label>`), HNSW index on `v`. */
  entityVectors: string;
  relationVectors: string;
  windowVectors: string;
  /** BM25 state per kind (`lexical:entities`, …). Default 'lexical'. */
  lexical: string;
  /** Per-chunk extractions in corpus order (`extraction:<order>`), merged again by an addition. Default 'extraction'. */
  extraction: string;
  /** The manifest record (`mosaic_manifest:current`). Default 'mosaic_manifest'. */
  manifest: string;
}

export const DEFAULT_TABLES: Readonly<SurrealTableNames> = Object.freeze({
  entity: 'entity',
  relation: 'relation',
  adjacency: 'adjacency',
  entityRead: 'entity_read',
  relationRead: 'relation_read',
  chunk: 'chunk',
  window: 'source_window',
  document: 'document',
  entityVectors: 'entity_vector',
  relationVectors: 'relation_vector',
  windowVectors: 'window_vector',
  lexical: 'lexical',
  extraction: 'extraction',
  manifest: 'mosaic_manifest',
});

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Table names are interpolated into SurrealQL, so only plain identifiers are accepted. */
export function checkIdentifier(value: unknown, argument: string): string {
  if (typeof value !== 'string' || !IDENTIFIER.test(value)) {
    throw new InvalidArgumentError({ argument, message: `must be a plain identifier (letters, digits, _), got ${JSON.stringify(value)}` });
  }
  return value;
}

/** Defaults overridden by `tables`, every name checked. */
export function resolveTables(tables: Partial<SurrealTableNames> = {}): SurrealTableNames {
  const resolved = { ...DEFAULT_TABLES, ...tables };
  for (const [key, value] of Object.entries(resolved)) checkIdentifier(value, `tables.${key}`);
  return resolved;
}

/** Split `items` into slices of at most `size`. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Check an optional positive-integer option. */
export function positiveInteger(value: number | undefined, argument: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError({ argument, message: `must be a positive integer, got ${String(value)}` });
  return value;
}

/**
 * Insert `items` into `table`, `batchSize` rows per request, each batch in one transaction
 * (`INSERT RELATION` for a relation table). `afterBatch` runs after each batch is written.
 */
export async function insertBatches<T>(options: {
  connection: SurrealConnection;
  table: string;
  items: readonly T[];
  batchSize: number;
  toRow: (item: T) => Record<string, unknown>;
  what: string;
  relation?: boolean;
  afterBatch?: () => void;
}): Promise<void> {
  const insert = options.relation ? 'INSERT RELATION' : 'INSERT';
  for (const batch of batches(options.items, options.batchSize)) {
    await options.connection.query(`BEGIN; ${insert} INTO ${options.table} $rows RETURN NONE; COMMIT;`, { rows: batch.map(options.toRow) }, options.what);
    options.afterBatch?.();
  }
}
