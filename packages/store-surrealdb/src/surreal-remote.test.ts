import { createServer, type AddressInfo } from 'node:net';
import { addDocumentsInto, buildIndexInto, createOfflineExtractor } from '@mosaic/indexing';
import type { AbortOptions, Encoder } from '@mosaic/spec';
import { FIXTURE_DOCUMENTS, hashEmbedding } from '@mosaic/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { connectSurreal, type SurrealConnection } from './surreal-connection.js';
import { createSurrealIndexStore } from './surreal-index-store.js';

/*
 * No SurrealDB server can be installed on this machine (no Debian or npm package ships the
 * `surreal` binary), so the remote protocol is not run end to end here. What a remote index sees
 * is tested instead: connecting to a port with no server fails quickly with InputError, and the
 * requests a build, an addition and a load send — the same through ws://, http:// and the
 * embedded engine, since every request goes through SurrealConnection.query — are batched and
 * transactional as documented (recorded on the embedded engine).
 */

const connections: SurrealConnection[] = [];
afterAll(async () => {
  for (const connection of connections) await connection.close();
});

/** A port that was free a moment ago: nothing listens there. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A connection that records every request (statements and bindings) it sends. */
function recording(connection: SurrealConnection): SurrealConnection & { sent: { sql: string; bindings?: Record<string, unknown> }[] } {
  const sent: { sql: string; bindings?: Record<string, unknown> }[] = [];
  return {
    get url() {
      return connection.url;
    },
    get namespace() {
      return connection.namespace;
    },
    get database() {
      return connection.database;
    },
    get embedded() {
      return connection.embedded;
    },
    get db() {
      return connection.db;
    },
    get roundTrips() {
      return connection.roundTrips;
    },
    sent,
    query(sql, bindings, what) {
      sent.push({ sql, bindings });
      return connection.query(sql, bindings, what);
    },
    close: () => connection.close(),
  };
}

function hashEncoder(): Encoder {
  return {
    specificationVersion: 'v1',
    id: 'test:hash-32',
    dimension: 32,
    async encode(texts: readonly string[], _options?: AbortOptions) {
      return texts.map((text) => Float32Array.from(hashEmbedding(text, 32)));
    },
  };
}

describe('remote code paths without a server', () => {
  it('connecting to a closed port fails with InputError naming the URL, within the timeout', async () => {
    const port = await closedPort();
    for (const url of [`ws://127.0.0.1:${port}`, `http://127.0.0.1:${port}`]) {
      const started = Date.now();
      const error = await connectSurreal({ url, database: 'medical', connectTimeoutMs: 1000 }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ name: 'MosaicInputError', source: url });
      expect(Date.now() - started).toBeLessThan(10_000);
    }
  });

  it('a build sends batched transactional inserts and switches the manifest in one request; an addition reads vectors in pages', async () => {
    const memory = await connectSurreal({ url: 'mem://', database: 'requests' });
    connections.push(memory);
    const connection = recording(memory);
    const batchSize = 7;
    const store = createSurrealIndexStore({ connection, batchSize, readBatchSize: 10 });
    const encoder = hashEncoder();
    const extractor = createOfflineExtractor();
    const documents = FIXTURE_DOCUMENTS.map((d) => ({ id: d.corpus_name, corpus: 'Fixture', text: d.context }));
    const built = await buildIndexInto({ documents: documents.slice(0, 2), store, encoder, extractor, window: { size: 600, stride: 300 }, chunkSize: 300 });
    const counts = built.manifest.counts;

    const inserts = connection.sent.filter((request) => /INSERT/.test(request.sql));
    for (const request of inserts) {
      // One transaction per request, at most batchSize rows.
      expect(request.sql).toMatch(/^BEGIN; INSERT (RELATION )?INTO \w+ \$rows RETURN NONE; COMMIT;$/);
      expect((request.bindings!.rows as unknown[]).length).toBeLessThanOrEqual(batchSize);
    }
    const insertsInto = (table: string) => inserts.filter((request) => new RegExp(`INTO ${table} `).test(request.sql));
    expect(insertsInto('entity')).toHaveLength(Math.ceil(counts.entities / batchSize));
    expect(insertsInto('relation')).toHaveLength(Math.ceil(counts.relations / batchSize));
    expect(insertsInto('entity_vector')).toHaveLength(Math.ceil(counts.entities / batchSize));
    expect(insertsInto('window_vector')).toHaveLength(Math.ceil(counts.windows / batchSize));
    expect(insertsInto('extraction')).toHaveLength(Math.ceil(counts.chunks / batchSize));
    // Every vector row carries its key and text hash.
    const vectorRow = (insertsInto('entity_vector')[0]!.bindings!.rows as Record<string, unknown>[])[0]!;
    expect(Object.keys(vectorRow).sort()).toEqual(['id', 'key', 'textHash', 'v']);
    // The switch is one transaction, the last write of a first build.
    const switches = connection.sent.filter((request) => /UPSERT/.test(request.sql));
    expect(switches).toHaveLength(1);
    expect(switches[0]!.sql).toMatch(/^BEGIN; IF .* \{ THROW .* \}; UPSERT \$id CONTENT \$content RETURN NONE; COMMIT;$/);
    expect(connection.sent.at(-1)).toBe(switches[0]);

    connection.sent.length = 0;
    const result = await addDocumentsInto({ store, documents: documents.slice(2), encoder, extractor });
    const pages = connection.sent.filter((request) => /^SELECT id, v, zero, key, textHash FROM \w+:\d+\.\.\d+;$/.test(request.sql));
    expect(pages).toHaveLength(Math.ceil(counts.entities / 10) + Math.ceil(counts.relations / 10) + Math.ceil(counts.windows / 10));
    // After the switch: the previous generation's tables go in one request.
    const last = connection.sent.at(-1)!;
    expect(last.sql).toMatch(/^REMOVE TABLE IF EXISTS relation; REMOVE TABLE IF EXISTS entity; /);
    expect(result.manifest.counts.documents).toBe(3);
  });
});
