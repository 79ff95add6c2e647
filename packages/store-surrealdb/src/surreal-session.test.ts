import { afterAll, describe, expect, it } from 'vitest';
import { buildFixtureIndex } from './__fixtures__/fixture-hand-index.js';
import { connectSurreal, type SurrealConnection } from './surreal-connection.js';
import { loadSurrealIndex, writeIndexToSurreal } from './surreal-index.js';
import { openSurrealSession } from './surreal-session.js';

const connections: SurrealConnection[] = [];
afterAll(async () => {
  for (const connection of connections) await connection.close();
});

describe('openSurrealSession', () => {
  it('serves another database of the same engine, and closing it leaves the connection open', async () => {
    const connection = await connectSurreal({ url: 'mem://', database: 'first' });
    connections.push(connection);
    const index = await buildFixtureIndex();
    const texts = { entities: index.entityTexts, relations: index.relationTexts };
    await writeIndexToSurreal({ connection, index, texts });
    const second = await openSurrealSession({ connection, database: 'second' });
    expect([second.url, second.namespace, second.database]).toEqual(['mem://', 'mosaic', 'second']);
    // An empty database of its own: no index there yet.
    await expect(loadSurrealIndex({ connection: second, encoder: index.encoder })).rejects.toMatchObject({
      name: 'MosaicIndexMismatchError',
      field: 'manifest',
    });
    await writeIndexToSurreal({ connection: second, index, texts });
    const loaded = await loadSurrealIndex({ connection: second, encoder: index.encoder });
    expect(loaded.entityIds).toEqual(index.entityIds);
    expect(second.roundTrips).toBeGreaterThan(5);
    await second.close();
    await second.close();
    expect((await loadSurrealIndex({ connection, encoder: index.encoder })).entityIds).toEqual(index.entityIds);
    await expect(openSurrealSession({ connection, database: 'bad-name' })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError', argument: 'database' });
  });
});
