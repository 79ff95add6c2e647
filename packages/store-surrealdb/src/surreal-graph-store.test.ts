import type { RelationEdge } from '@mosaic/spec';
import { runGraphStoreConformance } from '@mosaic/graph/conformance';
import { afterAll, describe, expect, it } from 'vitest';
import { connectSurreal, type SurrealConnection } from './surreal-connection.js';
import { type SurrealGraphStore, openSurrealGraphStore, writeGraphToSurreal } from './surreal-graph-store.js';

runGraphStoreConformance({
  name: 'SurrealGraphStore (mem://)',
  create: async ({ fixture }) => {
    const connection = await connectSurreal({ url: 'mem://', database: 'conformance' });
    await writeGraphToSurreal({ connection, nodes: fixture.nodes, edges: fixture.edges, batchSize: 7 });
    return openSurrealGraphStore({ connection });
  },
  dispose: (store) => (store as SurrealGraphStore).connection.close(),
});

function entity(id: string) {
  return { id, name: id.toUpperCase(), aliases: [], type: 'CONCEPT', description: '', chunkIds: [], questionLike: false };
}

describe('SurrealGraphStore', () => {
  const connections: SurrealConnection[] = [];
  const connect = async () => {
    const connection = await connectSurreal({ url: 'mem://' });
    connections.push(connection);
    return connection;
  };
  afterAll(async () => {
    for (const connection of connections) await connection.close();
  });

  it('answers a whole frontier with one request and counts round trips by kind', async () => {
    const connection = await connect();
    const nodes = Array.from({ length: 200 }, (_, i) => entity(`n${i}`));
    const edges = nodes.slice(1).map((node, i) => ({ id: `e${i}`, source: 'n0', target: node.id, label: 'has', keywords: [], description: '', chunkIds: [] }));
    const written = await writeGraphToSurreal({ connection, nodes, edges, batchSize: 50 });
    expect(written).toMatchObject({ nodes: 200, edges: 199 });
    // One schema request; four batches each of entities, relations, their read copies, and adjacency rows.
    expect(written.roundTrips).toBe(1 + 4 + 4 + 4 + 4 + 4);
    const store = await openSurrealGraphStore({ connection });
    expect(store.roundTrips).toBe(1);
    expect(store.adjacencyTable).toBe(true);
    const before = connection.roundTrips;
    const result = await store.neighbors(nodes.map((node) => node.id));
    expect(connection.roundTrips - before).toBe(1);
    expect(result.get('n0')).toHaveLength(199);
    expect(result.get('n7')!.map((n) => n.node)).toEqual(['n0']);
    // The neighbourhood request brought the edges and the nodes at their other ends: no request.
    expect((await store.getNodes(['n1', 'n2'])).map((node) => node.name)).toEqual(['N1', 'N2']);
    expect((await store.getEdges(['e1'])).map((edge) => edge.target)).toEqual(['n2']);
    expect(connection.roundTrips - before).toBe(1);
    // A neighbourhood read before is answered by the worker.
    expect((await store.neighbors(['n7', 'n0'])).get('n0')).toHaveLength(199);
    expect(connection.roundTrips - before).toBe(1);
    expect(store.stats).toMatchObject({ roundTrips: 2, neighborQueries: 2, nodeQueries: 0, edgeQueries: 0 });
    expect(store.stats.cache.hits).toBeGreaterThan(0);
    expect(store.maxDegree).toBe(199);
    expect(store.hubDegree).toBe(3);
  });

  it('coalesces reads of the same tick into one request, and without a cache reads every call', async () => {
    const connection = await connect();
    const nodes = Array.from({ length: 6 }, (_, i) => entity(`n${i}`));
    const edges = nodes.slice(1).map((node, i) => ({ id: `e${i}`, source: 'n0', target: node.id, label: 'has', keywords: [], description: '', chunkIds: [] }));
    await writeGraphToSurreal({ connection, nodes, edges });
    const store = await openSurrealGraphStore({ connection, cacheRecords: 0 });
    const before = connection.roundTrips;
    const [someNodes, someEdges, around] = await Promise.all([store.getNodes(['n3', 'n1']), store.getEdges(['e4', 'e0']), store.neighbors(['n2'])]);
    expect(connection.roundTrips - before).toBe(1);
    expect(someNodes.map((node) => node.id)).toEqual(['n3', 'n1']);
    expect(someEdges.map((edge) => edge.id)).toEqual(['e4', 'e0']);
    expect(around.get('n2')!.map((n) => [n.edge.id, n.node])).toEqual([['e1', 'n0']]);
    // No cache: the same calls again cost one request each.
    await store.getNodes(['n3']);
    await store.neighbors(['n2']);
    expect(connection.roundTrips - before).toBe(3);
    expect(store.stats.cache.size).toBe(0);
  });

  it('gives a retrieval a view that reads nothing twice, even without a worker cache', async () => {
    const connection = await connect();
    const nodes = Array.from({ length: 6 }, (_, i) => entity(`n${i}`));
    const edges = nodes.slice(1).map((node, i) => ({ id: `e${i}`, source: 'n0', target: node.id, label: 'has', keywords: [], description: '', chunkIds: [] }));
    await writeGraphToSurreal({ connection, nodes, edges });
    const store = await openSurrealGraphStore({ connection, cacheRecords: 0 });
    const view = store.forRetrieval();
    const before = connection.roundTrips;
    await view.neighbors(['n0']);
    expect((await view.getNodes(['n3', 'n1'])).map((node) => node.id)).toEqual(['n3', 'n1']);
    expect((await view.getEdges(['e2'])).map((edge) => edge.source)).toEqual(['n0']);
    await view.neighbors(['n0']);
    expect(connection.roundTrips - before).toBe(1);
    // The worker's store kept nothing; a new view starts empty.
    await store.getNodes(['n3']);
    await store.forRetrieval().getNodes(['n3']);
    expect(connection.roundTrips - before).toBe(3);
  });

  it('bounds its cache: the least recently used record is read again', async () => {
    const connection = await connect();
    const nodes = Array.from({ length: 4 }, (_, i) => entity(`n${i}`));
    await writeGraphToSurreal({ connection, nodes, edges: [] });
    const store = await openSurrealGraphStore({ connection, cacheRecords: 2 });
    const before = connection.roundTrips;
    await store.getNodes(['n0', 'n1']);
    await store.getNodes(['n0']); // cached; n0 is now the most recently used
    await store.getNodes(['n2']); // evicts n1
    expect(connection.roundTrips - before).toBe(2);
    await store.getNodes(['n0', 'n2']);
    expect(connection.roundTrips - before).toBe(2);
    await store.getNodes(['n1']);
    expect(connection.roundTrips - before).toBe(3);
    await expect(openSurrealGraphStore({ connection, cacheRecords: -1 })).rejects.toMatchObject({
      name: 'MosaicInvalidArgumentError',
      argument: 'cacheRecords',
    });
  });

  it('applies hubShare like GraphologyGraphStore', async () => {
    const connection = await connect();
    // Degrees: n0..n9 linked in a chain plus a star on n0 → check the quantile position with share 0.5.
    const nodes = Array.from({ length: 10 }, (_, i) => entity(`n${i}`));
    const edges: RelationEdge[] = [];
    for (let i = 1; i < 10; i += 1) edges.push({ id: `s${i}`, source: 'n0', target: `n${i}`, label: 'x', keywords: [], description: '', chunkIds: [] });
    for (let i = 1; i < 5; i += 1) edges.push({ id: `c${i}`, source: `n${i}`, target: `n${i + 1}`, label: 'y', keywords: [], description: '', chunkIds: [] });
    await writeGraphToSurreal({ connection, nodes, edges });
    const degrees = nodes.map((node) => edges.filter((e) => e.source === node.id || e.target === node.id).length).sort((a, b) => b - a);
    for (const hubShare of [0, 0.05, 0.2, 0.5, 1]) {
      const store = await openSurrealGraphStore({ connection, hubShare });
      expect(store.hubDegree).toBe(Math.max(3, degrees[Math.min(degrees.length - 1, Math.floor(degrees.length * hubShare))]));
      expect(store.maxDegree).toBe(9);
    }
    await expect(openSurrealGraphStore({ connection, hubShare: 2 })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
  });

  it('refuses a database without graph tables (InputError) and opens an empty graph', async () => {
    const connection = await connect();
    await expect(openSurrealGraphStore({ connection })).rejects.toMatchObject({ name: 'MosaicInputError' });
    await writeGraphToSurreal({ connection, nodes: [], edges: [] });
    const store = await openSurrealGraphStore({ connection });
    expect([store.nodeCount, store.edgeCount, store.maxDegree, store.hubDegree]).toEqual([0, 0, 0, 3]);
    expect((await store.neighbors(['x'])).get('x')).toEqual([]);
    expect(await store.getNodes(['x'])).toEqual([]);
  });

  it('refuses bad graphs before writing anything', async () => {
    const connection = await connect();
    const edge = (id: string, source: string, target: string) => ({ id, source, target, label: 'x', keywords: [], description: '', chunkIds: [] });
    const nodes = [entity('a'), entity('b')];
    for (const bad of [
      { nodes: [entity('a'), entity('a')], edges: [] },
      { nodes, edges: [edge('e', 'a', 'zz')] },
      { nodes, edges: [edge('e', 'a', 'a')] },
      { nodes, edges: [edge('e', 'a', 'b'), edge('e', 'b', 'a')] },
    ]) {
      await expect(writeGraphToSurreal({ connection, ...bad })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
    }
    expect(connection.roundTrips).toBe(0);
    await expect(openSurrealGraphStore({ connection, tables: { entity: 'bad name' } })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
  });
});
