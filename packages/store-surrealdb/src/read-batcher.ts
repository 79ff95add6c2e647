import type { SurrealConnection } from './surreal-connection.js';

interface PendingRead {
  statement: string;
  /** Statements in `statement`; the caller gets the last one's result. */
  count: number;
  bindings: Record<string, unknown>;
  what: string;
  resolve: (rows: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Coalesces reads: every `read` issued in the same tick (before the next microtask) is sent to
 * the database as one request of several statements, and each caller gets its statement's
 * result. Stages that ask for independent things concurrently (`Promise.all`) thus cost one round
 * trip. Bindings are renamed per statement (`$ids` → `$r0_ids`), so statements may reuse names.
 */
export class ReadBatcher {
  readonly #connection: SurrealConnection;
  #pending: PendingRead[] = [];
  #requests = 0;

  constructor(connection: SurrealConnection) {
    this.#connection = connection;
  }

  /** Requests this batcher has sent. */
  get requests(): number {
    return this.#requests;
  }

  /**
   * Queue `statement` (its `$name`s must be keys of `bindings`; `count` statements, default 1,
   * e.g. a LET and a RETURN); resolves to the result of its last statement.
   */
  read<T>(statement: string, bindings: Record<string, unknown>, what: string, count = 1): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.#pending.length === 0) queueMicrotask(() => void this.#flush());
      this.#pending.push({ statement, count, bindings, what, resolve: resolve as (rows: unknown) => void, reject });
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    if (batch.length === 0) return;
    const bindings: Record<string, unknown> = {};
    const statements = batch.map((read, i) => {
      let statement = read.statement;
      // Longest names first, so `$ids` never rewrites part of `$idsAll`.
      for (const name of Object.keys(read.bindings).sort((a, b) => b.length - a.length)) {
        const renamed = `r${i}_${name}`;
        bindings[renamed] = read.bindings[name];
        statement = statement.replace(new RegExp(`\\$${name}\\b`, 'g'), `$${renamed}`);
      }
      return statement.trim().replace(/;?$/, ';');
    });
    this.#requests += 1;
    try {
      const results = await this.#connection.query(statements.join(' '), bindings, [...new Set(batch.map((read) => read.what))].join(' + '));
      let offset = 0;
      for (const read of batch) {
        offset += read.count;
        read.resolve(results[offset - 1]);
      }
    } catch (error) {
      for (const read of batch) read.reject(error);
    }
  }
}
