import type { Encoder } from '@mosaic/spec';
import { InputError, InvalidArgumentError } from '@mosaic/spec';
import {
  connectSurreal,
  loadSurrealIndex,
  openSurrealSession,
  type ConnectSurrealOptions,
  type SurrealConnection,
  type SurrealCorpusIndex,
} from '@mosaic/store-surrealdb';
import { isEmbeddedUrl } from '@mosaic/store-surrealdb/internal';
import { positiveInteger, type OptionSpec } from './args.js';
import { CliError, CliFailure } from './cli-error.js';

/** The flags of every command that reads or writes an index in SurrealDB. */
export const STORE_FLAGS = {
  store: { type: 'string' },
  namespace: { type: 'string' },
  database: { type: 'string' },
  user: { type: 'string' },
  pass: { type: 'string' },
  'auth-level': { type: 'string' },
  'connect-timeout': { type: 'string' },
} as const satisfies OptionSpec;

/** Help lines of STORE_FLAGS (`what`: how the database defaults). */
export function storeHelp(database: string): string {
  return `  --store URL           the index lives in SurrealDB instead of a directory:
                        surrealkv://PATH | rocksdb://PATH (embedded, on disk) | ws(s)://HOST:PORT | http(s)://HOST:PORT
  --namespace NAME      SurrealDB namespace (default mosaic)
  --database NAME       SurrealDB database (default ${database})
  --user NAME / --pass SECRET
                        SurrealDB user (default: $SURREAL_USER / $SURREAL_PASS when the flags are absent);
                        $SURREAL_TOKEN (a token issued by the server) is used when no user is given
  --auth-level LEVEL    root (default) | namespace | database: where the user is defined
  --connect-timeout MS  give up reaching the server after MS milliseconds (default 10000)
`;
}

/**
 * A SurrealDB database name for a corpus name: letters, digits and _ (everything else becomes _),
 * never starting with a digit. `Medical` → `Medical`, `Novel-30752` → `Novel_30752`.
 */
export function databaseName(corpus: string): string {
  const name = corpus.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(name) ? name : `_${name}`;
}

/** Where an index lives in SurrealDB, from the flags (`database` when --database is absent). */
export function storeTarget(values: Record<string, unknown>, database: string | undefined): ConnectSurrealOptions {
  const url = (values.store ?? values.surreal) as string;
  const namespace = (values.namespace as string | undefined) ?? 'mosaic';
  const chosen = (values.database as string | undefined) ?? database;
  if (!chosen) throw new CliError('--store needs --database NAME (or --corpus NAME, whose name is the default database)');
  const username = (values.user as string | undefined) ?? process.env.SURREAL_USER;
  const password = (values.pass as string | undefined) ?? process.env.SURREAL_PASS ?? '';
  const level = (values['auth-level'] as string | undefined) ?? 'root';
  if (!['root', 'namespace', 'database'].includes(level)) throw new CliError(`--auth-level must be one of root, namespace, database, got '${level}'`);
  let authentication: ConnectSurrealOptions['authentication'];
  if (username) {
    authentication =
      level === 'root'
        ? { username, password }
        : level === 'namespace'
          ? { namespace, username, password }
          : { namespace, database: chosen, username, password };
  } else if (process.env.SURREAL_TOKEN) {
    authentication = process.env.SURREAL_TOKEN;
  }
  const connectTimeoutMs = positiveInteger('connect-timeout', values['connect-timeout'], 10_000);
  return { url, namespace, database: chosen, connectTimeoutMs, ...(authentication !== undefined ? { authentication } : {}) };
}

/** The identity of a target's database, `url#namespace/database`: one index per key. */
export function storeKey(target: ConnectSurrealOptions): string {
  return `${target.url}#${target.namespace}/${target.database}`;
}

/** A usage error for a bad URL or name; a one-line runtime failure naming the URL when the server cannot be reached. */
function storeError(target: ConnectSurrealOptions, error: unknown): unknown {
  if (InvalidArgumentError.isInstance(error)) return new CliError(`--store ${target.url}: ${(error as InvalidArgumentError).message}`);
  if (InputError.isInstance(error) && /cannot connect/.test((error as Error).message)) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    return new CliFailure({ message: `cannot reach SurrealDB at ${target.url} (${cause})`, exitCode: 1, cause: error });
  }
  return error;
}

/** Connections of one command: opened on demand, all closed at the end. */
export interface StoreConnections {
  /** A connection to the database of `target` (errors: a bad URL is a usage error, an unreachable server a one-line failure naming it). */
  open(target: ConnectSurrealOptions): Promise<SurrealConnection>;
  close(): Promise<void>;
}

/**
 * Remote URLs get one connection per database. An embedded on-disk engine can be opened only once
 * per process, so its other databases (one per corpus) are sessions on the first connection.
 */
export function createStoreConnections(): StoreConnections {
  const engines = new Map<string, SurrealConnection>();
  const opened: SurrealConnection[] = [];
  return {
    async open(target) {
      try {
        const engine = isEmbeddedUrl(target.url) ? engines.get(target.url) : undefined;
        if (engine && engine.namespace === target.namespace && engine.database === target.database) return engine;
        const connection = engine
          ? await openSurrealSession({ connection: engine, namespace: target.namespace, database: target.database! })
          : await connectSurreal(target);
        if (!engine && isEmbeddedUrl(target.url)) engines.set(target.url, connection);
        opened.push(connection);
        return connection;
      } catch (error) {
        throw storeError(target, error);
      }
    },
    async close() {
      for (const connection of opened.reverse()) await connection.close().catch(() => undefined);
      opened.length = 0;
      engines.clear();
    },
  };
}

/** Load the index of `target` for retrieval, its vectors cached in memory (what the traversal reads per question). */
export async function openStoreIndex(connections: StoreConnections, target: ConnectSurrealOptions, encoder: Encoder): Promise<SurrealCorpusIndex> {
  const connection = await connections.open(target);
  try {
    return await loadSurrealIndex({ connection, encoder, cacheVectors: true });
  } catch (error) {
    throw storeError(target, error);
  }
}

/**
 * A warning for writing an index into `url`, or undefined. `surrealkv://` (@surrealdb/node 3.0.3)
 * lost committed rows when the database was opened again after a large write (Medical: about 180
 * of 20,826 relation vectors, every run); `loadSurrealIndex` then refuses the index (counts).
 */
export function storeWriteWarning(url: string): string | undefined {
  if (!/^surrealkv(\+versioned)?:\/\//i.test(url)) return undefined;
  return `warning: ${url}: the surrealkv engine of @surrealdb/node 3.0.3 lost committed rows on reopening after large writes in our tests (the loader then refuses the index); rocksdb:// kept them — prefer rocksdb://PATH for an on-disk index`;
}
