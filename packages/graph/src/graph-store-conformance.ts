import type { EntityNode, GraphStore, Neighbor, RelationEdge } from '@mosaic/spec';
import { afterAll, describe, expect, it } from 'vitest';

/** A node of a conformance fixture: an EntityNode without its degree (the store derives it from the edges). */
export type GraphFixtureNode = Omit<EntityNode, 'degree'>;

/** The small fixed graph every store under test is built from. */
export interface GraphStoreFixture {
  nodes: readonly GraphFixtureNode[];
  edges: readonly RelationEdge[];
}

export interface GraphStoreConformanceOptions {
  /** Shown in the suite title. */
  name: string;
  /** Build a store holding exactly `fixture` (default hub share, 0.05). Called once per suite. */
  create: (options: { fixture: GraphStoreFixture }) => GraphStore | Promise<GraphStore>;
  /** Release what `create` opened (connections, temp files); called after the suite. */
  dispose?: (store: GraphStore) => void | Promise<void>;
}

const ATTRIBUTES = { aliases: [] as string[], type: 'CONCEPT', description: '', questionLike: false };

function node(id: string, name: string, extra: Partial<GraphFixtureNode> = {}): GraphFixtureNode {
  return { id, name, ...ATTRIBUTES, chunkIds: [`chunk:${id}`], ...extra };
}

function edge(id: string, source: string, target: string, label: string, extra: Partial<RelationEdge> = {}): RelationEdge {
  return { id, source, target, label, keywords: [], description: '', chunkIds: [`chunk:${id}`], ...extra };
}

/**
 * The conformance fixture: 30 nodes; a hub `hub` with 12 incident edges, a second hub `hub-2`
 * with 6; a path a → b → c with a parallel edge and edges pointing both ways; an isolated node;
 * ids with characters a database must escape (`doc:1#0`, `with space`, `42`, `é-node`); edge ids
 * whose string order differs from their numeric order (`e10` < `e2`); optional fields present
 * and absent (`weight`).
 */
export const GRAPH_STORE_FIXTURE: GraphStoreFixture = (() => {
  const nodes: GraphFixtureNode[] = [
    node('a', 'Alpha', { aliases: ['A'], type: 'PERSON', description: 'the first node' }),
    node('b', 'Beta', { chunkIds: ['chunk:b', 'chunk:shared'] }),
    node('c', 'What is gamma?', { questionLike: true, chunkIds: [] }),
    node('doc:1#0', 'Escaped id'),
    node('with space', 'Spaced id'),
    node('42', 'Numeric-looking id'),
    node('é-node', 'Unicode id'),
    node('isolated', 'Isolated'),
    node('hub', 'Hub'),
    node('hub-2', 'Second hub'),
  ];
  for (let i = 0; i < 20; i += 1) nodes.push(node(`s${String(i).padStart(2, '0')}`, `Spoke ${i}`));
  const edges: RelationEdge[] = [
    edge('e2', 'a', 'b', 'causes', {
      keywords: ['cause'],
      description: 'a causes b',
      weight: 3,
      chunkIds: ['chunk:e2', 'chunk:shared'],
      // Sentences in corpus order, one chunk read twice: passages read the first ones.
      spans: [
        { chunkId: 'chunk:e2', start: 0, end: 12 },
        { chunkId: 'chunk:shared', start: 4, end: 30 },
        { chunkId: 'chunk:e2', start: 13, end: 40 },
      ],
    }),
    edge('e10', 'b', 'c', 'treats', { chunkIds: ['chunk:e10', 'chunk:shared'] }),
    edge('e1', 'c', 'a', 'part of'),
    edge('e3', 'a', 'b', 'causes again', { weight: 1 }),
    edge('e4', 'doc:1#0', 'with space', 'links'),
    edge('e5', '42', 'é-node', 'links'),
    edge('e6', 'é-node', 'a', 'mentions', { spans: [{ chunkId: 'chunk:e6', start: 0, end: 9 }] }),
  ];
  // hub: 10 spokes out, 2 edges in (from hub-2 and from doc:1#0) → degree 12.
  for (let i = 0; i < 10; i += 1) edges.push(edge(`h${String(i).padStart(2, '0')}`, 'hub', `s${String(i).padStart(2, '0')}`, 'has'));
  edges.push(edge('h10', 'hub-2', 'hub', 'feeds'), edge('h11', 'doc:1#0', 'hub', 'feeds'));
  // hub-2: h10 plus 5 spokes → degree 6.
  for (let i = 10; i < 15; i += 1) edges.push(edge(`k${i}`, `s${i}`, 'hub-2', 'reports to'));
  return { nodes, edges };
})();

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Degree of every fixture node: incident edges, both directions, parallel edges counted. */
function fixtureDegrees(fixture: GraphStoreFixture): Map<string, number> {
  const degrees = new Map(fixture.nodes.map((n) => [n.id, 0]));
  for (const e of fixture.edges) {
    degrees.set(e.source, (degrees.get(e.source) ?? 0) + 1);
    degrees.set(e.target, (degrees.get(e.target) ?? 0) + 1);
  }
  return degrees;
}

function expectedNeighbors(fixture: GraphStoreFixture, id: string): Array<[string, string]> {
  return fixture.edges
    .filter((e) => e.source === id || e.target === id)
    .map((e): [string, string] => [e.id, e.source === id ? e.target : e.source])
    .sort((x, y) => compareStrings(x[0], y[0]));
}

/** The chunk ids a relation's passage reads, from the edge itself: its first `limit` spans', else its chunk ids. */
function passageChunkIds(edge: RelationEdge, limit: number): string[] {
  return edge.spans && edge.spans.length > 0 ? edge.spans.slice(0, limit).map((span) => span.chunkId) : edge.chunkIds;
}

/** Plain comparable form of an edge (drops undefined optional fields). */
function plainEdge(e: RelationEdge): RelationEdge {
  return JSON.parse(JSON.stringify(e)) as RelationEdge;
}

function roundTripsOf(store: GraphStore): number | undefined {
  const value = (store as { roundTrips?: unknown }).roundTrips;
  return typeof value === 'number' ? value : undefined;
}

/**
 * Vitest suite every GraphStore should pass, on `GRAPH_STORE_FIXTURE`: counts; getNodes/getEdges
 * in input order with unknown ids skipped and every attribute kept; degree = incident edges;
 * neighbours in both directions sorted by edge id, one entry per requested id (unknown → []);
 * batching of many ids in one call (and, when the store exposes a numeric `roundTrips`, one
 * round trip per call); hubDegree / maxDegree with the GraphologyGraphStore rule (hub share 0.05,
 * never below 3); determinism.
 */
export function runGraphStoreConformance(options: GraphStoreConformanceOptions): void {
  const fixture = GRAPH_STORE_FIXTURE;
  const degrees = fixtureDegrees(fixture);
  let storePromise: Promise<GraphStore> | undefined;
  const store = (): Promise<GraphStore> => (storePromise ??= Promise.resolve(options.create({ fixture })));

  describe(`GraphStore conformance: ${options.name}`, () => {
    afterAll(async () => {
      if (storePromise && options.dispose) await options.dispose(await storePromise);
    });

    it('reports its specification version and counts', async () => {
      const s = await store();
      expect(s.specificationVersion).toBe('v1');
      expect(s.nodeCount).toBe(fixture.nodes.length);
      expect(s.edgeCount).toBe(fixture.edges.length);
    });

    it('returns nodes in input order with every attribute and their degree, skipping unknown ids', async () => {
      const s = await store();
      const ids = ['hub', 'missing', 'c', 'doc:1#0', 'a', 'nope', 'with space', '42', 'é-node', 'isolated'];
      const nodes = await s.getNodes(ids);
      expect(nodes.map((n) => n.id)).toEqual(ids.filter((id) => degrees.has(id)));
      for (const n of nodes) {
        const source = fixture.nodes.find((f) => f.id === n.id)!;
        expect(n).toEqual({ ...source, degree: degrees.get(n.id) });
      }
      expect(nodes.find((n) => n.id === 'isolated')!.degree).toBe(0);
      expect(nodes.find((n) => n.id === 'a')!.degree).toBe(4);
    });

    it('repeats duplicated ids and answers empty input with nothing', async () => {
      const s = await store();
      expect((await s.getNodes(['b', 'a', 'b'])).map((n) => n.id)).toEqual(['b', 'a', 'b']);
      expect(await s.getNodes([])).toEqual([]);
      expect(await s.getEdges([])).toEqual([]);
      expect((await s.neighbors([])).size).toBe(0);
    });

    it('returns edges in input order with endpoints and attributes, skipping unknown ids', async () => {
      const s = await store();
      const ids = ['e10', 'x', 'e2', 'e1', 'h10', 'e4', 'a'];
      const edges = await s.getEdges(ids);
      expect(edges.map((e) => e.id)).toEqual(['e10', 'e2', 'e1', 'h10', 'e4']);
      for (const e of edges) expect(plainEdge(e)).toEqual(plainEdge(fixture.edges.find((f) => f.id === e.id)!));
      expect(edges.find((e) => e.id === 'e2')!.weight).toBe(3);
      expect(edges.find((e) => e.id === 'e10')!.weight).toBeUndefined();
    });

    it('returns incident edges in both directions sorted by edge id, parallel edges included', async () => {
      const s = await store();
      const result = await s.neighbors(['a', 'b', 'doc:1#0']);
      for (const id of ['a', 'b', 'doc:1#0']) {
        expect(result.get(id)!.map((n): [string, string] => [n.edge.id, n.node])).toEqual(expectedNeighbors(fixture, id));
      }
      // a: e1 (c → a), e2 and e3 (a → b, parallel), e6 (é-node → a); 'e10' sorts before 'e2'.
      expect(result.get('a')!.map((n) => n.edge.id)).toEqual(['e1', 'e2', 'e3', 'e6']);
      expect(result.get('b')!.map((n) => n.edge.id)).toEqual(['e10', 'e2', 'e3']);
      const incoming = result.get('a')!.find((n) => n.edge.id === 'e1')!;
      expect(incoming.node).toBe('c');
      expect(plainEdge(incoming.edge)).toEqual(plainEdge(fixture.edges.find((f) => f.id === 'e1')!));
    });

    it('answers every requested id once: unknown and isolated nodes get an empty list', async () => {
      const s = await store();
      const result = await s.neighbors(['isolated', 'missing', 'a', 'a']);
      expect([...result.keys()].sort()).toEqual(['a', 'isolated', 'missing']);
      expect(result.get('isolated')).toEqual([]);
      expect(result.get('missing')).toEqual([]);
    });

    it('batches many ids in one call with the same answers as one id at a time', async () => {
      const s = await store();
      const unknown = Array.from({ length: 300 }, (_, i) => `unknown-${i}`);
      const all = [...fixture.nodes.map((n) => n.id), ...unknown].sort(compareStrings).reverse();
      const before = roundTripsOf(s);
      const batch = await s.neighbors(all);
      if (before !== undefined) expect(roundTripsOf(s)! - before).toBe(1);
      expect(batch.size).toBe(all.length);
      for (const n of fixture.nodes) {
        const single = (await s.neighbors([n.id])).get(n.id)!;
        const batched = batch.get(n.id)!;
        expect(batched.map(simpleNeighbor)).toEqual(single.map(simpleNeighbor));
        expect(batched.map((x) => [x.edge.id, x.node])).toEqual(expectedNeighbors(fixture, n.id));
        expect(batched.length).toBe(degrees.get(n.id));
      }
      const nodesBefore = roundTripsOf(s);
      const nodes = await s.getNodes(all);
      if (nodesBefore !== undefined) expect(roundTripsOf(s)! - nodesBefore).toBe(1);
      expect(nodes.map((n) => n.id)).toEqual(all.filter((id) => degrees.has(id)));
      const edgeIds = [...fixture.edges.map((e) => e.id), ...unknown];
      expect((await s.getEdges(edgeIds)).map((e) => e.id)).toEqual(fixture.edges.map((e) => e.id));
    });

    it('derives maxDegree and hubDegree like GraphologyGraphStore (top 5 % by degree, at least 3)', async () => {
      const s = await store();
      const sorted = [...degrees.values()].sort((x, y) => y - x);
      const cut = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.05))];
      expect(s.maxDegree).toBe(sorted[0]);
      expect(s.hubDegree).toBe(Math.max(3, cut));
      // 30 nodes: position floor(1.5) = 1 → the second hub's degree.
      expect(s.maxDegree).toBe(12);
      expect(s.hubDegree).toBe(6);
    });

    it('numbers its edges as neighbors lists them, when it offers a numbered view', async () => {
      const s = await store();
      const view = s.numberedEdges;
      if (!view) return;
      const seen = new Set<number>();
      for (const n of fixture.nodes) {
        const edges = view.incidentEdges(n.id)!;
        expect(edges.length).toBe(degrees.get(n.id));
        const built = [...edges].map((edge) => view.neighbor(n.id, edge));
        built.sort((a, b) => compareStrings(a.edge.id, b.edge.id));
        expect(built.map(simpleNeighbor)).toEqual((await s.neighbors([n.id])).get(n.id)!.map(simpleNeighbor));
        for (const edge of edges) {
          expect(view.edgeNumber(view.edgeId(edge))).toBe(edge);
          expect(view.neighborNode(n.id, edge)).toBe(view.neighbor(n.id, edge).node);
          seen.add(edge);
        }
      }
      expect(seen.size).toBe(fixture.edges.length);
      expect(view.incidentEdges('no-such-node')).toBeUndefined();
      expect(view.edgeNumber('no-such-edge')).toBeUndefined();
      // Passage chunks: the first spans' chunks, else the chunk ids, as numbers of the numbering given.
      const chunkIds = [...new Set(fixture.edges.flatMap((e) => [...e.chunkIds, ...(e.spans ?? []).map((span) => span.chunkId)]))];
      const numbering = new Map(chunkIds.slice(1).map((id, i) => [id, 10 * i]));
      const edges = Uint32Array.from(seen);
      const { start, chunks } = view.passageChunks(edges, 2, numbering);
      const relations = await s.getEdges([...edges].map((edge) => view.edgeId(edge)));
      relations.forEach((relation, i) => {
        expect([...chunks.subarray(start[i], start[i + 1])]).toEqual(passageChunkIds(relation, 2).map((id) => numbering.get(id) ?? -1));
      });
      // A store that keeps every node's passage chunks gives, for a node's own incident list, what
      // passageChunks gives for it, and nothing for another array.
      if (view.incidentPassageChunks) {
        for (const limit of [1, 2, 8]) {
          for (const n of fixture.nodes) {
            const list = view.incidentEdges(n.id)!;
            const expected = view.passageChunks(list, limit, numbering);
            const kept = view.incidentPassageChunks(n.id, list, limit, numbering)!;
            expect(kept.start).toHaveLength(list.length + 1);
            for (let i = 0; i < list.length; i += 1) {
              expect([...kept.chunks.subarray(kept.start[i], kept.start[i + 1])]).toEqual([
                ...expected.chunks.subarray(expected.start[i], expected.start[i + 1]),
              ]);
            }
          }
        }
        const busy = fixture.nodes.find((n) => view.incidentEdges(n.id)!.length > 1)!;
        const list = view.incidentEdges(busy.id)!;
        expect(view.incidentPassageChunks(busy.id, list.slice(), 2, numbering)).toBeUndefined();
        expect(view.incidentPassageChunks(busy.id, list.subarray(1), 2, numbering)).toBeUndefined();
        expect(view.incidentPassageChunks('no-such-node', list, 2, numbering)).toBeUndefined();
        const other = fixture.nodes.find((n) => n.id !== busy.id && view.incidentEdges(n.id)!.length > 0)!;
        expect(view.incidentPassageChunks(other.id, list, 2, numbering)).toBeUndefined();
        // Another numbering gets its own numbers.
        const shifted = new Map([...numbering].map(([id, number]) => [id, number + 1]));
        const again = view.incidentPassageChunks(busy.id, list, 2, shifted)!;
        const before = view.passageChunks(list, 2, numbering);
        expect([...again.chunks.subarray(again.start[0], again.start[list.length])]).toEqual(
          [...before.chunks].map((number) => (number < 0 ? -1 : number + 1)),
        );
      }
    });

    it('gives edge passages as getEdges gives the edges, when it offers them', async () => {
      const s = await store();
      if (!s.getEdgePassages) return;
      const ids = [...fixture.edges.map((e) => e.id), 'missing', 'e2'].reverse();
      for (const limit of [1, 2, 8]) {
        const passages = await s.getEdgePassages(ids, limit);
        const edges = await s.getEdges(ids);
        expect(passages.map((p) => p.id)).toEqual(edges.map((e) => e.id));
        passages.forEach((passage, i) => {
          const edge = edges[i];
          expect(passage).toEqual({ id: edge.id, source: edge.source, target: edge.target, chunkIds: passageChunkIds(edge, limit) });
        });
      }
      // The fixture has relations with more spans than the smallest limit, and without spans.
      expect(fixture.edges.some((e) => (e.spans?.length ?? 0) > 1)).toBe(true);
      expect(fixture.edges.some((e) => !e.spans || e.spans.length === 0)).toBe(true);
      expect(await s.getEdgePassages([], 2)).toEqual([]);
      for (const limit of [0, 1.5, Number.NaN]) await expect(s.getEdgePassages(['e1'], limit)).rejects.toThrow(/spanLimit/);
    });

    it('gives spans as columns as getNodes and getEdges give them, and nodes without spans when asked, when it offers columns', async () => {
      const s = await store();
      if (!s.spanColumns) return;
      const columnSpans = (kind: 'node' | 'edge', id: string) => {
        const columns = s.spanColumns!(kind, id)!;
        return Array.from({ length: columns.count }, (_, i) => ({ chunkId: columns.chunkId(i), start: columns.start(i), end: columns.end(i) }));
      };
      const nodeIds = fixture.nodes.map((n) => n.id);
      const nodes = await s.getNodes(nodeIds);
      for (const n of nodes) expect(columnSpans('node', n.id)).toEqual(n.spans ?? []);
      for (const e of await s.getEdges(fixture.edges.map((e) => e.id))) expect(columnSpans('edge', e.id)).toEqual(e.spans ?? []);
      expect(fixture.edges.some((e) => (e.spans?.length ?? 0) > 1)).toBe(true);
      expect(s.spanColumns('node', 'missing')).toBeUndefined();
      expect(s.spanColumns('edge', 'missing')).toBeUndefined();
      // Without spans: every other field as getNodes gives it.
      const bare = await s.getNodes(nodeIds, { spans: false });
      expect(bare.map(({ spans: _s, ...rest }) => rest)).toEqual(nodes.map(({ spans: _s, ...rest }) => rest));
    });

    it('is deterministic for identical calls', async () => {
      const s = await store();
      const ids = ['hub', 'a', 'é-node', 'with space'];
      const first = await s.neighbors(ids);
      const second = await s.neighbors([...ids].reverse());
      for (const id of ids) expect(second.get(id)!.map(simpleNeighbor)).toEqual(first.get(id)!.map(simpleNeighbor));
      expect(await s.getNodes(ids)).toEqual(await s.getNodes(ids));
    });
  });
}

function simpleNeighbor(n: Neighbor): { node: string; edge: RelationEdge } {
  return { node: n.node, edge: plainEdge(n.edge) };
}
