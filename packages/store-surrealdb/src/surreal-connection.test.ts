import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { connectSurreal, isEmbeddedUrl } from './surreal-connection.js';

describe('connectSurreal', () => {
  it('tells embedded from remote URLs and refuses unknown schemes and bad names', async () => {
    expect(['mem://', 'surrealkv:///tmp/x', 'rocksdb://data/db', 'surrealkv+versioned://x'].map(isEmbeddedUrl)).toEqual([true, true, true, true]);
    expect(['ws://db:8000', 'wss://db', 'http://db:8000', 'https://db'].map(isEmbeddedUrl)).toEqual([false, false, false, false]);
    await expect(connectSurreal({ url: 'ftp://db' })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError', argument: 'url' });
    await expect(connectSurreal({ url: 'db:8000' })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError', argument: 'url' });
    await expect(connectSurreal({ url: 'mem://', database: 'a-b' })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError', argument: 'database' });
  });

  it('counts requests and closes idempotently', async () => {
    const connection = await connectSurreal({ url: 'mem://', namespace: 'ns', database: 'db' });
    expect([connection.embedded, connection.namespace, connection.database, connection.roundTrips]).toEqual([true, 'ns', 'db', 0]);
    expect(await connection.query('RETURN 1; RETURN [2, 3];')).toEqual([1, [2, 3]]);
    expect(connection.roundTrips).toBe(1);
    await expect(connection.query('SELEC nonsense')).rejects.toMatchObject({ name: 'MosaicInputError' });
    expect(connection.roundTrips).toBe(2);
    await connection.close();
    await connection.close();
  });

  it('fails with InputError when a remote server does not answer', async () => {
    // A port that accepts TCP and then closes: no SurrealDB there.
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      for (const scheme of ['http', 'ws']) {
        const started = Date.now();
        await expect(connectSurreal({ url: `${scheme}://127.0.0.1:${port}`, connectTimeoutMs: 1500 })).rejects.toMatchObject({ name: 'MosaicInputError' });
        expect(Date.now() - started).toBeLessThan(10_000);
      }
    } finally {
      server.close();
    }
  });
});
