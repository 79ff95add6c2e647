import { InputError, InvalidArgumentError, MosaicError } from '@mosaic/spec';
import { Surreal, createRemoteEngines } from 'surrealdb';
import type { AuthProvider, DriverOptions } from 'surrealdb';

/** URL schemes served in-process by `@surrealdb/node` (no server). */
export const EMBEDDED_SCHEMES: readonly string[] = ['mem', 'surrealkv', 'surrealkv+versioned', 'rocksdb'];
/** URL schemes reached over the network (a SurrealDB server or cluster, e.g. on TiKV). */
export const REMOTE_SCHEMES: readonly string[] = ['ws', 'wss', 'http', 'https'];

export interface ConnectSurrealOptions {
  /**
   * Where the database lives: `mem://` (in-process, gone on close), `surrealkv://<path>` or
   * `rocksdb://<path>` (in-process, on disk), `ws(s)://host:port` or `http(s)://host:port` (remote).
   */
  url: string;
  /** Default 'mosaic'. */
  namespace?: string;
  /** Default 'default'. */
  database?: string;
  /** Credentials for a remote server, e.g. `{ username, password }` (root user) or a token. */
  authentication?: AuthProvider;
  /** Give up connecting after this many milliseconds (default 10,000) → InputError. */
  connectTimeoutMs?: number;
}

/**
 * One open SurrealDB connection with a selected namespace and database. Every query the stores
 * of this package send goes through `query`, which counts it in `roundTrips`.
 */
export interface SurrealConnection {
  readonly url: string;
  readonly namespace: string;
  readonly database: string;
  /** True for the in-process engines (mem, surrealkv, rocksdb). */
  readonly embedded: boolean;
  /** The SDK client (for queries of your own). */
  readonly db: Surreal;
  /** Requests sent through `query` since the connection opened. */
  readonly roundTrips: number;
  /** Run SurrealQL statements as one request; returns one result per statement. Failures → InputError. */
  query<T extends unknown[] = unknown[]>(sql: string, bindings?: Record<string, unknown>, what?: string): Promise<T>;
  /**
   * Close the connection. For `mem://` the database is removed first: the data is discarded
   * anyway, and `@surrealdb/node` 3.0 otherwise keeps the process alive after close once an
   * index was defined (surrealdb.js#673). Idempotent.
   */
  close(): Promise<void>;
}

function schemeOf(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url);
  if (!match) throw new InvalidArgumentError({ argument: 'url', message: `must look like scheme://…, got ${JSON.stringify(url)}` });
  return match[1].toLowerCase();
}

/** True when `url` names an in-process engine of `@surrealdb/node`. */
export function isEmbeddedUrl(url: string): boolean {
  return EMBEDDED_SCHEMES.includes(schemeOf(url));
}

async function driverOptions(scheme: string): Promise<DriverOptions> {
  if (EMBEDDED_SCHEMES.includes(scheme)) {
    // Loaded only for embedded URLs: remote-only deployments never load the native engine.
    const { createNodeEngines } = await import('@surrealdb/node');
    return { engines: { ...createRemoteEngines(), ...createNodeEngines() } };
  }
  if ((scheme === 'ws' || scheme === 'wss') && typeof globalThis.WebSocket !== 'function') {
    // Node 20 has no global WebSocket: use undici's (the WHATWG implementation Node 22 ships).
    const { WebSocket } = await import('undici');
    return { engines: createRemoteEngines(), websocketImpl: WebSocket };
  }
  return { engines: createRemoteEngines() };
}

/** Open a connection and select namespace and database. Unreachable or refused → InputError. */
export async function connectSurreal(options: ConnectSurrealOptions): Promise<SurrealConnection> {
  const url = options.url;
  if (typeof url !== 'string' || url.length === 0) throw new InvalidArgumentError({ argument: 'url', message: 'must be a non-empty string' });
  const scheme = schemeOf(url);
  if (!EMBEDDED_SCHEMES.includes(scheme) && !REMOTE_SCHEMES.includes(scheme)) {
    throw new InvalidArgumentError({
      argument: 'url',
      message: `unsupported scheme ${scheme}: use one of ${[...EMBEDDED_SCHEMES, ...REMOTE_SCHEMES].join(', ')}`,
    });
  }
  const namespace = options.namespace ?? 'mosaic';
  const database = options.database ?? 'default';
  for (const [argument, value] of [
    ['namespace', namespace],
    ['database', database],
  ] as const) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) {
      throw new InvalidArgumentError({ argument, message: `must be a plain identifier (letters, digits, _), got ${JSON.stringify(value)}` });
    }
  }
  const timeoutMs = options.connectTimeoutMs ?? 10_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new InvalidArgumentError({ argument: 'connectTimeoutMs', message: 'must be a positive number' });
  const embedded = EMBEDDED_SCHEMES.includes(scheme);
  const db = new Surreal(await driverOptions(scheme));
  let timer: NodeJS.Timeout | undefined;
  try {
    const connected = (async () => {
      await db.connect(url, {
        namespace,
        database,
        ...(options.authentication !== undefined ? { authentication: options.authentication } : {}),
        reconnect: !embedded,
      });
      await db.ready;
    })();
    connected.catch(() => undefined);
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    await Promise.race([connected, timedOut]);
  } catch (cause) {
    await db.close().catch(() => undefined);
    throw new InputError({ source: url, message: `cannot connect to SurrealDB: ${(cause as Error).message}`, cause });
  } finally {
    clearTimeout(timer);
  }
  return new Connection(db, url, namespace, database, embedded, scheme === 'mem');
}

/** Run statements on an SDK client or session; a failure → InputError naming url, namespace/database and `what`. */
export async function runQuery<T extends unknown[]>(
  client: Pick<Surreal, 'query'>,
  where: Pick<SurrealConnection, 'url' | 'namespace' | 'database'>,
  sql: string,
  bindings: Record<string, unknown> | undefined,
  what: string,
): Promise<T> {
  try {
    return (await client.query(sql, bindings).collect()) as T;
  } catch (cause) {
    if (MosaicError.isInstance(cause)) throw cause;
    throw new InputError({ source: `${where.url} (${where.namespace}/${where.database})`, message: `${what} failed: ${(cause as Error).message}`, cause });
  }
}

class Connection implements SurrealConnection {
  #roundTrips = 0;
  #closed = false;

  constructor(
    readonly db: Surreal,
    readonly url: string,
    readonly namespace: string,
    readonly database: string,
    readonly embedded: boolean,
    private readonly memory: boolean,
  ) {}

  get roundTrips(): number {
    return this.#roundTrips;
  }

  async query<T extends unknown[] = unknown[]>(sql: string, bindings?: Record<string, unknown>, what = 'query'): Promise<T> {
    this.#roundTrips += 1;
    return runQuery<T>(this.db, this, sql, bindings, what);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.memory)
      await this.db
        .query(`REMOVE DATABASE IF EXISTS ${this.database}`)
        .collect()
        .catch(() => undefined);
    await this.db.close();
  }
}
