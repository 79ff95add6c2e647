import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadInMemoryVectorIndex } from '@mosaic/vector-index';
import { runVectorIndexConformance } from '@mosaic/vector-index/conformance';
import { afterAll, describe, expect, it } from 'vitest';
import { connectSurreal, type SurrealConnection } from './surreal-connection.js';
import { createSurrealVectorIndex, openSurrealVectorIndex } from './surreal-vector-index.js';

const connections: SurrealConnection[] = [];
let shared: Promise<SurrealConnection> | undefined;
let tables = 0;
function connection(): Promise<SurrealConnection> {
  shared ??= connectSurreal({ url: 'mem://', database: 'vectors' }).then((c) => (connections.push(c), c));
  return shared;
}
afterAll(async () => {
  for (const c of connections) await c.close();
});

runVectorIndexConformance({
  name: 'SurrealVectorIndex HNSW (mem://)',
  create: async ({ dimension }) => createSurrealVectorIndex({ connection: await connection(), table: `hnsw_${tables++}`, dimension }),
  exact: false,
  minimumRecall: 0.9,
});

runVectorIndexConformance({
  name: 'SurrealVectorIndex exact (mem://)',
  create: async ({ dimension }) => createSurrealVectorIndex({ connection: await connection(), table: `exact_${tables++}`, dimension, search: 'exact' }),
  // save() exports the InMemoryVectorIndex file format.
  load: loadInMemoryVectorIndex,
});

function unit(values: number[]): Float32Array {
  const norm = Math.hypot(...values);
  return Float32Array.from(values.map((value) => value / norm));
}

describe('SurrealVectorIndex', () => {
  it('reopens a table with its size, keys and vectors, and refuses another dimension', async () => {
    const c = await connection();
    const index = await createSurrealVectorIndex({ connection: c, table: 'reopen', dimension: 3 });
    const vectors = [unit([1, 0, 0]), unit([0, 1, 0]), unit([1, 1, 0]), new Float32Array(3)];
    await index.add(vectors, { keys: ['a', 'b', 'c', 'zero'] });
    const reopened = await openSurrealVectorIndex({ connection: c, table: 'reopen', dimension: 3 });
    expect(reopened.size).toBe(4);
    expect(await reopened.getKeys()).toEqual(['a', 'b', 'c', 'zero']);
    expect(await reopened.getVectors([2, 3, 0])).toEqual([vectors[2], vectors[3], vectors[0]]);
    await expect(openSurrealVectorIndex({ connection: c, table: 'reopen', dimension: 4 })).rejects.toMatchObject({
      name: 'MosaicIndexMismatchError',
      field: 'dimension',
    });
    await expect(openSurrealVectorIndex({ connection: c, table: 'absent' })).rejects.toMatchObject({ name: 'MosaicInputError' });
    await expect(createSurrealVectorIndex({ connection: c, table: 'reopen', dimension: 3 })).rejects.toMatchObject({ name: 'MosaicIndexMismatchError' });
    await expect(createSurrealVectorIndex({ connection: c, table: 'bad-name', dimension: 3 })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
  });

  it('scores all-zero vectors 0 and ranks them between positive and negative hits', async () => {
    const c = await connection();
    for (const search of ['hnsw', 'exact'] as const) {
      const index = await createSurrealVectorIndex({ connection: c, table: `zeros_${search}`, dimension: 3, search });
      // Labels: 0 zero, 1 +x, 2 −x, 3 zero, 4 +y, 5 (+x+y).
      await index.add([new Float32Array(3), unit([1, 0, 0]), unit([-1, 0, 0]), new Float32Array(3), unit([0, 1, 0]), unit([1, 1, 0])]);
      const hits = await index.search(unit([1, 0.2, 0]), 6);
      expect(hits.map((hit) => hit.label)).toEqual([1, 5, 4, 0, 3, 2]);
      expect(hits[3].score).toBe(0);
      // A top-2 HNSW search never returns a zero vector ahead of positive hits.
      expect((await index.search(unit([1, 0.2, 0]), 2)).map((hit) => hit.label)).toEqual([1, 5]);
    }
  });

  it('sends one request per search and per add batch', async () => {
    const c = await connection();
    const index = await createSurrealVectorIndex({ connection: c, table: 'trips', dimension: 2 });
    const vectors = Array.from({ length: 25 }, (_, i) => unit([Math.cos(i), Math.sin(i)]));
    const before = c.roundTrips;
    await index.add(vectors, { batchSize: 10 });
    expect(c.roundTrips - before).toBe(3);
    await index.search(vectors[0], 3);
    expect(c.roundTrips - before).toBe(4);
    expect(index.roundTrips).toBe(4);
  });

  it('exports a snapshot in the in-memory file format', async () => {
    const c = await connection();
    const index = await createSurrealVectorIndex({ connection: c, table: 'snapshot', dimension: 3 });
    const vectors = [unit([1, 2, 3]), unit([3, 2, 1]), new Float32Array(3)];
    await index.add(vectors);
    const folder = await mkdtemp(join(tmpdir(), 'mosaic-surreal-'));
    try {
      await index.save(join(folder, 'v.bin'));
      const loaded = await loadInMemoryVectorIndex({ path: join(folder, 'v.bin'), dimension: 3 });
      expect(loaded.size).toBe(3);
      expect((await loaded.search(vectors[1], 3)).map((hit) => hit.label)).toEqual((await index.search(vectors[1], 3)).map((hit) => hit.label));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
