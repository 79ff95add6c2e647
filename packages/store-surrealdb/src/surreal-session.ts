import { InputError } from '@mosaic/spec';
import type { Surreal, SurrealSession } from 'surrealdb';
import { runQuery, type SurrealConnection } from './surreal-connection.js';
import { checkIdentifier } from './surreal-tables.js';

export interface OpenSurrealSessionOptions {
  /** An open connection: its engine (and, remote, its socket and login) is shared. */
  connection: SurrealConnection;
  /** Default: the connection's namespace. */
  namespace?: string;
  database: string;
}

/**
 * Another namespace/database on the same open connection, as a SurrealConnection of its own (an
 * SDK session forked from the connection's: same engine, same login). An embedded on-disk engine
 * can be opened only once per process (`surrealkv://`, `rocksdb://`: a second connect to the same
 * path never answers), so a process that reads or writes several databases of one engine — one
 * per corpus — opens the engine once and a session per database. `close()` closes the session
 * only; close the connection itself at the end. Needs SurrealDB 3 (sessions): the embedded engine
 * of `@surrealdb/node` 3.x, or a 3.x server.
 */
export async function openSurrealSession(options: OpenSurrealSessionOptions): Promise<SurrealConnection> {
  const { connection } = options;
  const namespace = checkIdentifier(options.namespace ?? connection.namespace, 'namespace');
  checkIdentifier(options.database, 'database');
  let session: SurrealSession;
  try {
    session = await connection.db.forkSession();
    await session.use({ namespace, database: options.database });
  } catch (cause) {
    throw new InputError({ source: connection.url, message: `cannot open a session on ${namespace}/${options.database}: ${(cause as Error).message}`, cause });
  }
  return new SessionConnection(session, connection, namespace, options.database);
}

class SessionConnection implements SurrealConnection {
  #roundTrips = 0;
  #closed = false;
  readonly url: string;
  readonly embedded: boolean;

  constructor(
    private readonly session: SurrealSession,
    parent: SurrealConnection,
    readonly namespace: string,
    readonly database: string,
  ) {
    this.url = parent.url;
    this.embedded = parent.embedded;
  }

  /** The SDK session (queries, selects; connection-level methods belong to the parent connection). */
  get db(): Surreal {
    return this.session as unknown as Surreal;
  }

  get roundTrips(): number {
    return this.#roundTrips;
  }

  async query<T extends unknown[] = unknown[]>(sql: string, bindings?: Record<string, unknown>, what = 'query'): Promise<T> {
    this.#roundTrips += 1;
    return runQuery<T>(this.session, this, sql, bindings, what);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.session.closeSession().catch(() => undefined);
  }
}
