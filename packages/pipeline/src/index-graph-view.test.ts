import { describe, expect, it } from 'vitest';
import type { CorpusIndex, EntityNode, GraphStore, Neighbor, NumberedEdgeView } from '@mosaic/spec';
import { createIndexGraphView, normalizeMention } from './index-graph-view.js';
import { buildMedicalIndex, medicalEntityId } from './__fixtures__/medical-index.js';

/** `graph` with some methods replaced; the others call it. */
function storeWith(graph: GraphStore, overrides: Partial<GraphStore>): GraphStore {
  return {
    ...graph,
    nodeCount: graph.nodeCount,
    edgeCount: graph.edgeCount,
    neighbors: (ids) => graph.neighbors(ids),
    getEdges: (ids) => graph.getEdges(ids),
    getNodes: (ids) => graph.getNodes(ids),
    ...overrides,
  };
}

describe('createIndexGraphView', () => {
  it('resolves mentions by normalised name and omits unknown ones', async () => {
    const index = await buildMedicalIndex();
    const view = createIndexGraphView({ index });
    const found = await view.lookup(['  morrow   SYNDROME ', 'Calditrex?', 'aspirin']);
    expect(found).toEqual(
      new Map([
        ['  morrow   SYNDROME ', medicalEntityId(index, 'Morrow syndrome')],
        ['Calditrex?', medicalEntityId(index, 'Calditrex')],
      ]),
    );
    expect(normalizeMention('"MX-7".')).toBe('mx-7');
  });

  it('reads the names through getNodeNames when the store has it (the same table, no whole nodes)', async () => {
    const index = await buildMedicalIndex();
    const graph = index.graph;
    const names = storeWith(graph, {
      getNodes: async () => {
        throw new Error('getNodes is not needed for names');
      },
      getNodeNames: async (ids) => (await graph.getNodes(ids)).map(({ id, name, aliases }) => ({ id, name, aliases })),
    });
    const view = createIndexGraphView({ index: { ...index, graph: names } });
    const mentions = ['  morrow   SYNDROME ', 'Calditrex?', 'aspirin'];
    expect(await view.lookup(mentions)).toEqual(await createIndexGraphView({ index }).lookup(mentions));
    expect((await view.lookup(mentions)).size).toBe(2);
  });

  it('prepare makes the name table once, before any lookup; a failed making is tried again', async () => {
    const index = await buildMedicalIndex();
    const graph = index.graph;
    const asked: number[] = [];
    let fail = true;
    const counted = storeWith(graph, {
      getNodeNames: async (ids) => {
        asked.push(ids.length);
        if (fail) throw new Error('store down');
        return (await graph.getNodes(ids)).map(({ id, name, aliases }) => ({ id, name, aliases }));
      },
    });
    const view = createIndexGraphView({ index: { ...index, graph: counted } });
    await expect(view.prepare()).rejects.toThrow('store down');
    fail = false;
    await view.prepare();
    const tableReads = asked.length;
    expect(tableReads).toBeGreaterThan(1);
    await view.prepare();
    expect(asked.length).toBe(tableReads);
    // A lookup then reads only the names of the entities it found (one call), not the table again.
    expect((await view.lookup(['Morrow syndrome', 'aspirin'])).size).toBe(1);
    expect(asked.length).toBe(tableReads + 1);
  });

  it('answers only with an entity that has the name: a table entry whose entity lost the name finds nothing', async () => {
    const index = await buildMedicalIndex();
    const graph = index.graph;
    const node = (await graph.getNodes([index.entityIds[0]]))[0] as EntityNode;
    let renamed = false;
    const changing = storeWith(graph, {
      // After the table is built, the first entity answers with another name.
      getNodeNames: async (ids) =>
        (await graph.getNodes(ids)).map(({ id, name, aliases }) =>
          renamed && id === node.id ? { id, name: 'something else entirely', aliases: [] } : { id, name, aliases },
        ),
    });
    const view = createIndexGraphView({ index: { ...index, graph: changing } });
    expect(await view.lookup([node.name])).toEqual(new Map([[node.name, node.id]]));
    renamed = true;
    expect(await view.lookup([node.name])).toEqual(new Map());
    expect(normalizeMention(node.name).length).toBeGreaterThan(0);
  });

  it('resolves every entity name of an index to the first entity holding it, as a Map of names would', async () => {
    const index = await buildMedicalIndex();
    const nodes = await index.graph.getNodes(index.entityIds);
    const first = new Map<string, string>();
    const mentions: string[] = [];
    for (const node of nodes) {
      for (const name of [node.name, ...node.aliases]) {
        const key = normalizeMention(name);
        if (key.length > 0 && !first.has(key)) first.set(key, node.id);
        mentions.push(name, ` ${name.toUpperCase()}? `);
      }
    }
    const found = await createIndexGraphView({ index }).lookup(mentions);
    expect(found.size).toBe(new Set(mentions).size);
    for (const [mention, id] of found) expect(id).toBe(first.get(normalizeMention(mention)));
  });

  it('answers connectivity within a number of hops', async () => {
    const index = await buildMedicalIndex();
    const view = createIndexGraphView({ index });
    const [veltrane, calditrex, quarry, liver, harlow, dunmere] = [
      'Veltrane dust',
      'Calditrex',
      'Quarry workers',
      'Liver function test',
      'Harlow fever',
      'Dunmere fever',
    ].map((name) => medicalEntityId(index, name));
    expect(await view.connected!(veltrane, calditrex, 1)).toBe(false);
    expect(await view.connected!(veltrane, calditrex, 2)).toBe(true);
    expect(await view.connected!(quarry, liver, 3)).toBe(false);
    expect(await view.connected!(quarry, liver, 4)).toBe(true);
    expect(await view.connected!(harlow, dunmere, 5)).toBe(false);
  });
});

describe('connected (bidirectional search)', () => {
  /**
   * A graph of the nodes `nodeIds` and the edges `ends` behind the GraphStore contract, counting
   * neighbour calls; with `numbered`, it also numbers its edges (NumberedEdgeView), counting per node
   * the neighbours read off them (`reads`).
   */
  function graphOf(nodeIds: readonly string[], ends: readonly [string, string][], numbered: boolean) {
    const adjacency = new Map<string, Neighbor[]>(nodeIds.map((id) => [id, []]));
    const incident = new Map<string, number[]>();
    ends.forEach(([source, target], number) => {
      const edge = { id: `e${number}`, source, target, label: '', keywords: [], description: '', chunkIds: [] };
      adjacency.get(source)!.push({ edge, node: target });
      adjacency.get(target)!.push({ edge, node: source });
      for (const end of [source, target]) incident.set(end, [...(incident.get(end) ?? []), number]);
    });
    const calls = { neighbors: 0 };
    const reads = new Map<string, number>();
    const unused = () => {
      throw new Error('not needed by connected');
    };
    const numberedEdges: NumberedEdgeView = {
      incidentEdges: (id) => (adjacency.has(id) ? Uint32Array.from(incident.get(id) ?? []) : undefined),
      neighborNode: (id, edge) => {
        reads.set(id, (reads.get(id) ?? 0) + 1);
        return ends[edge][0] === id ? ends[edge][1] : ends[edge][0];
      },
      edgeId: unused,
      edgeNumber: unused,
      neighbor: unused,
      passageChunks: unused,
    };
    const graph: GraphStore = {
      specificationVersion: 'v1',
      nodeCount: nodeIds.length,
      edgeCount: ends.length,
      hubDegree: 3,
      maxDegree: Math.max(0, ...[...adjacency.values()].map((list) => list.length)),
      getNodes: async () => [],
      getEdges: async () => [],
      neighbors: async (ids) => {
        calls.neighbors += 1;
        return new Map(ids.map((id) => [id, adjacency.get(id) ?? []]));
      },
      ...(numbered ? { numberedEdges } : {}),
    };
    /** Hop distance by plain breadth-first search. */
    const distance = (a: string, b: string): number => {
      const seen = new Map([[a, 0]]);
      const queue = [a];
      while (queue.length > 0) {
        const id = queue.shift()!;
        if (id === b) return seen.get(id)!;
        for (const neighbor of adjacency.get(id)!) {
          if (!seen.has(neighbor.node)) {
            seen.set(neighbor.node, seen.get(id)! + 1);
            queue.push(neighbor.node);
          }
        }
      }
      return Number.POSITIVE_INFINITY;
    };
    const degree = (id: string) => incident.get(id)?.length ?? 0;
    return { index: { graph, entityIds: [...nodeIds] } as Pick<CorpusIndex, 'graph' | 'entityIds'>, calls, reads, distance, degree };
  }

  /** `graphOf` `nodes` nodes and `edges` random edges (self-loops left out). */
  function randomGraph(seed: number, nodes: number, edges: number, numbered = false) {
    let state = seed;
    const random = () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    const nodeIds = Array.from({ length: nodes }, (_, i) => `n${i}`);
    const ends: [string, string][] = [];
    for (let i = 0; i < edges; i += 1) {
      const [source, target] = [`n${Math.floor(random() * nodes)}`, `n${Math.floor(random() * nodes)}`];
      if (source !== target) ends.push([source, target]);
    }
    return graphOf(nodeIds, ends, numbered);
  }

  it('reads the neighbours off a numbered edge view when the store has one, with the same answers and no neighbour lists', async () => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const listed = randomGraph(seed, 60, 70);
      const numbered = randomGraph(seed, 60, 70, true);
      const [fromLists, fromNumbers] = [listed, numbered].map(({ index }) => createIndexGraphView({ index: index as CorpusIndex }));
      for (let pair = 0; pair < 15; pair += 1) {
        const [a, b] = [`n${(seed * 7 + pair * 13) % 60}`, `n${(seed * 11 + pair * 5) % 60}`];
        for (const hops of [1, 2, 3, 4]) {
          const expected = numbered.distance(a, b) <= hops;
          expect(await fromNumbers.connected!(a, b, hops), `${a}–${b} within ${hops} (seed ${seed})`).toBe(expected);
          expect(await fromLists.connected!(a, b, hops)).toBe(expected);
        }
      }
      expect(numbered.calls.neighbors).toBe(0);
      expect(listed.calls.neighbors).toBeGreaterThan(0);
    }
  });

  it("answers 1 and 2 hops over numbered edges from the two ends alone: each end's edges read once, whatever maxVisited", async () => {
    // Two hubs (h1: 5,000 leaves, h2: 3,000 of them too), a pair joined through one leaf, and a node of its own.
    const ends: [string, string][] = [];
    for (let i = 0; i < 5000; i += 1) ends.push(['h1', `leaf${i}`]);
    for (let i = 2000; i < 5000; i += 1) ends.push([`leaf${i}`, 'h2']);
    ends.push(['p', 'mid'], ['mid', 'q'], ['lone', 'lone2']);
    const nodeIds = [...new Set(ends.flat())];
    const { index, calls, reads, degree } = graphOf(nodeIds, ends, true);
    const view = createIndexGraphView({ index: index as CorpusIndex, maxVisited: 1 });
    const cases: [string, string, number, boolean][] = [
      ['h1', 'h2', 2, true],
      ['h1', 'h2', 1, false],
      ['leaf3', 'leaf4000', 2, true],
      ['leaf0', 'h2', 2, false],
      ['leaf2001', 'h1', 2, true],
      ['leaf0', 'h2', 1, false],
      ['leaf2500', 'h2', 1, true],
      ['p', 'q', 2, true],
      ['p', 'q', 1, false],
      ['p', 'mid', 1, true],
      ['h1', 'lone', 2, false],
      ['h1', 'unknown', 2, false],
    ];
    for (const [a, b, hops, expected] of cases) {
      for (const [x, y] of [
        [a, b],
        [b, a],
      ]) {
        reads.clear();
        expect(await view.connected!(x, y, hops), `${x}–${y} within ${hops}`).toBe(expected);
        for (const [id, count] of reads) expect(count, `${id}'s edges read for ${x}–${y}`).toBeLessThanOrEqual(degree(id));
      }
    }
    expect(calls.neighbors).toBe(0);
  });

  it('agrees with plain breadth-first search and makes ⌈hops / 2⌉ graph calls at most', async () => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const { index, calls, distance } = randomGraph(seed, 60, 70);
      const view = createIndexGraphView({ index: index as CorpusIndex });
      for (let pair = 0; pair < 15; pair += 1) {
        const [a, b] = [`n${(seed * 7 + pair * 13) % 60}`, `n${(seed * 11 + pair * 5) % 60}`];
        for (const hops of [1, 2, 3, 4]) {
          const before = calls.neighbors;
          expect(await view.connected!(a, b, hops), `${a}–${b} within ${hops} (seed ${seed})`).toBe(distance(a, b) <= hops);
          expect(calls.neighbors - before).toBeLessThanOrEqual(Math.ceil(hops / 2));
        }
      }
    }
  });
});
