import { RecordId } from 'surrealdb';
import type { SurrealConnection } from './surreal-connection.js';
import { checkIdentifier, type SurrealTableNames } from './surreal-tables.js';
import { VECTOR_META_TABLE } from './surreal-vector-index.js';

/**
 * Generations: every write of an index (a build, a replace, an addition) goes into a fresh set of
 * tables — generation 0 uses the plain names (`entity`, `relation`, …), generation g > 0 the names
 * with a suffix (`entity_g3`, `relation_g3`, …). The manifest record names the generation and its
 * tables; switching it (one transaction) is what makes the new index current. The old
 * generation's tables are removed after the switch; tables of other generations (left by a writer
 * that died) are removed before the next write.
 */

/** The table names the manifest record stores: every table of a generation except the manifest table. */
export type SurrealDataTables = Omit<SurrealTableNames, 'manifest'>;

/** Table names of `generation`: the plain names for 0, `<name>_g<generation>` otherwise (the manifest table is shared). */
export function generationTables(base: SurrealTableNames, generation: number): SurrealTableNames {
  if (generation === 0) return { ...base };
  const out = { ...base };
  for (const key of Object.keys(out) as (keyof SurrealTableNames)[]) {
    if (key !== 'manifest') out[key] = `${base[key]}_g${generation}`;
  }
  return out;
}

/** The tables of a generation other than the manifest table, as stored in the manifest record. */
export function dataTables(tables: SurrealTableNames): SurrealDataTables {
  const { manifest: _manifest, ...data } = tables;
  return data;
}

/** The data tables of a generation in the order to remove them: the relation (edge) table before the entity table it points to. */
export function tablesToRemove(tables: SurrealTableNames): string[] {
  const { relation, ...rest } = dataTables(tables);
  return [relation, ...Object.values(rest)];
}

/**
 * The table names an index's manifest record points to (`record.tables`), over `fallback` for
 * records written before generations (format 1: the plain names). Names are checked identifiers.
 */
export function storedTables(record: { tables?: Partial<SurrealDataTables> }, fallback: SurrealTableNames): SurrealTableNames {
  const tables = { ...fallback, ...(record.tables ?? {}), manifest: fallback.manifest };
  for (const [key, value] of Object.entries(tables)) checkIdentifier(value, `record.tables.${key}`);
  return tables;
}

/** The generation a manifest record names (0 for records written before generations). */
export function generationOf(record: { generation?: number } | undefined): number {
  return typeof record?.generation === 'number' && Number.isInteger(record.generation) && record.generation >= 0 ? record.generation : 0;
}

/** Remove tables (with their indexes) and the vector description records of those that are vector tables; one request. */
export async function removeTables(connection: SurrealConnection, tables: readonly string[]): Promise<void> {
  if (tables.length === 0) return;
  await connection.query(
    [
      ...tables.map((table) => `REMOVE TABLE IF EXISTS ${checkIdentifier(table, 'table')};`),
      `DEFINE TABLE IF NOT EXISTS ${VECTOR_META_TABLE} SCHEMALESS;`,
      'DELETE $meta;',
    ].join(' '),
    { meta: tables.map((table) => new RecordId(VECTOR_META_TABLE, table)) },
    'remove tables',
  );
}

/**
 * Tables of the database that belong to some generation of `base` (`<name>` or `<name>_g<n>` of
 * every data table name) but not to `keep`: leftovers of interrupted writes or of a removal that
 * did not happen. One request (`INFO FOR DB`).
 */
export async function strayGenerationTables(connection: SurrealConnection, base: SurrealTableNames, keep?: SurrealTableNames): Promise<string[]> {
  const [info] = await connection.query<[{ tables?: Record<string, unknown> }]>('INFO FOR DB;', undefined, 'list tables');
  const names = Object.keys(info?.tables ?? {});
  const kept = new Set(keep ? Object.values(dataTables(keep)) : []);
  const patterns = Object.values(dataTables(base)).map((name) => new RegExp(`^${name}(_g\\d+)?$`));
  const relation = new RegExp(`^${base.relation}(_g\\d+)?$`);
  // Relation (edge) tables first: they point to the entity tables.
  return names
    .filter((name) => !kept.has(name) && patterns.some((pattern) => pattern.test(name)))
    .sort((a, b) => Number(!relation.test(a)) - Number(!relation.test(b)) || a.localeCompare(b));
}
