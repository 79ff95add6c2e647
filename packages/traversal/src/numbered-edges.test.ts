import { type CompactGraphStore, createKnowledgeGraph, decodeGraphBinary } from '@mosaic/graph';
import { encodeGraphBinary } from '@mosaic/graph/internal';
import type { GraphStore, NumberedEdgeView, Seed } from '@mosaic/spec';
import { firstPositions, seededRandom } from '@mosaic/stage-utils/internal';
import { makePolicy } from '@mosaic/testing';
import { describe, expect, it } from 'vitest';
import { createBeamTraverser } from './beam-traverser.js';
import { bestNeighbors, bestNeighborsOfEdges, byBoundThenId, HubScanArrays } from './frontier.js';
import { NeighborBoundTables } from './neighbor-bounds.js';
import { FeatureCache } from './path-features.js';
import { buildQuestionSignals } from './question-signals.js';
import { SIZE, hubIndex } from './hub-index.test-support.js';

type HubIndex = Awaited<ReturnType<typeof hubIndex>>;

/** `real` with the calls to its method `name` counted (`calls()`); every other member is its own. */
function countingCalls(real: NumberedEdgeView, name: keyof NumberedEdgeView): { view: NumberedEdgeView; calls: () => number } {
  let calls = 0;
  const view = new Proxy(real, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (key === name && typeof value === 'function') {
        return (...args: unknown[]) => {
          calls += 1;
          return value.apply(target, args);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { view, calls: () => calls };
}

/** The hand-built hub index's graph as a CompactGraphStore; `reversed`: edges stored in reverse order (numbers unlike the relation index's labels). */
function compactGraphOf(index: HubIndex, reversed = false): CompactGraphStore {
  const source = index.graph.graph;
  const graph = createKnowledgeGraph();
  source.forEachNode((id, attributes) => graph.addNode(id, attributes));
  const edges: [string, string, string][] = [];
  source.forEachEdge((id, _attributes, from, to) => edges.push([id, from, to]));
  if (reversed) edges.reverse();
  for (const [id, from, to] of edges) graph.addEdgeWithKey(id, from, to, source.getEdgeAttributes(id));
  return decodeGraphBinary(Buffer.concat(encodeGraphBinary(graph)), { source: 'test' });
}

const QUESTIONS = ['What cures fever in children?', 'Which ships use the harbour?', 'What heals wounds slowly?'];
const WEIGHTS = [
  { lexicalWeight: 0.8, contextWeight: 0.5 },
  { lexicalWeight: 0.5, contextWeight: 0 },
];

/**
 * Every question of QUESTIONS with every weighting of WEIGHTS: the question's signals over `graph`,
 * and feature caches for it without bound tables (`reference`) and with `tables` (`features`).
 */
async function* featureCases(index: HubIndex, graph: CompactGraphStore, tables: NeighborBoundTables) {
  const graphInfo = { hubDegree: 10, maxDegree: SIZE };
  for (const question of QUESTIONS) {
    const [queryVector] = await index.encoder.encode([question]);
    const context = { question: { text: question }, queryVector, policy: makePolicy() };
    for (const weights of WEIGHTS) {
      const signals = await buildQuestionSignals({ index: { ...index, graph }, context, ...weights });
      const reference = new FeatureCache(signals, graphInfo, new Set());
      yield { signals, graphInfo, reference, features: new FeatureCache(signals, graphInfo, new Set(), undefined, undefined, tables) };
    }
  }
}

describe('bounding and keeping a hub’s relations by edge number', () => {
  it.each([false, true])('keeps the neighbours bestNeighbors keeps, with the same bounds (edges stored reversed: %s)', async (reversed) => {
    const index = await hubIndex();
    const graph = compactGraphOf(index, reversed);
    const view = graph.numberedEdges;
    const list = (await graph.neighbors(['H'])).get('H')!;
    const edges = view.incidentEdges('H')!;
    expect(edges.length).toBe(SIZE);
    const position = new Map(list.map((neighbor, i) => [neighbor.edge.id, i]));
    const tables = new NeighborBoundTables();
    const arrays = new HubScanArrays();
    for await (const { signals, graphInfo, reference, features } of featureCases(index, graph, tables)) {
      expect(features.canBoundEdges()).toBe(true);
      // A relation already scored exactly is bounded by its score, as relationScoreBound does.
      reference.relationScore(list[7].edge);
      features.relationScore(list[7].edge);
      const bounds = new Float64Array(edges.length);
      expect(features.relationScoreBoundsOfEdges(view, graph.edgeCount, edges, bounds)).toBe(true);
      const expected = new Float64Array(edges.length);
      edges.forEach((edge, i) => {
        expected[i] = reference.relationScoreBound(list[position.get(view.edgeId(edge))!].edge);
      });
      expect([...bounds]).toEqual([...expected]);
      expect(new Set(expected).size).toBeGreaterThan(2);
      // A relation scored after the first bounding by number is bounded by its score too.
      const later = list[11].edge;
      expect(reference.relationScoreBound(later)).not.toBe(reference.relationScore(later));
      features.relationScore(later);
      expect(features.relationScoreBoundsOfEdges(view, graph.edgeCount, edges, bounds)).toBe(true);
      edges.forEach((edge, i) => {
        expected[i] = reference.relationScoreBound(list[position.get(view.edgeId(edge))!].edge);
      });
      expect([...bounds]).toEqual([...expected]);
      for (const cap of [1, 12, 40]) {
        for (const scan of [Number.POSITIVE_INFINITY, 30]) {
          const expected = bestNeighbors(new FeatureCache(signals, graphInfo, new Set()), list, cap, scan);
          const kept = bestNeighborsOfEdges(
            new FeatureCache(signals, graphInfo, new Set(), undefined, undefined, tables),
            { view, edgeCount: graph.edgeCount, node: 'H', edges },
            cap,
            scan,
          );
          expect(kept).toEqual(expected);
          // The same with arrays lent across these scans (each left holding the previous one's numbers).
          const lent = bestNeighborsOfEdges(
            new FeatureCache(signals, graphInfo, new Set(), undefined, undefined, tables),
            { view, edgeCount: graph.edgeCount, node: 'H', edges },
            cap,
            scan,
            arrays,
          );
          expect(lent).toEqual(expected);
        }
      }
    }
  });

  it.each([false, true])(
    'scores a hub’s relations from numbers as relationScore does, and builds only the kept ones (edges stored reversed: %s)',
    async (reversed) => {
      const index = await hubIndex();
      const graph = compactGraphOf(index, reversed);
      const real = graph.numberedEdges;
      const { view, calls: built } = countingCalls(real, 'neighbor');
      const list = (await graph.neighbors(['H'])).get('H')!;
      const edges = real.incidentEdges('H')!;
      const position = new Map(list.map((neighbor, i) => [neighbor.edge.id, i]));
      const tables = new NeighborBoundTables();
      for await (const { signals, graphInfo, reference, features } of featureCases(index, graph, tables)) {
        const scores = features.relationScoresOfEdges(view, graph.edgeCount, edges, 'H');
        expect(scores).toBeDefined();
        const relationAt = (i: number) => list[position.get(real.edgeId(edges[i]))!].edge;
        for (let i = 0; i < edges.length; i += 1) expect(scores!(i)).toBe(reference.relationScore(relationAt(i)));
        // Kept as relationScore keeps them: a relation's bound is now its score (its bound without the dense part is higher).
        const loose = [...edges.keys()].find(
          (i) => new FeatureCache(signals, graphInfo, new Set()).relationScoreBound(relationAt(i)) > reference.relationScore(relationAt(i)),
        );
        expect(loose).toBeDefined();
        expect(features.relationScoreBound(relationAt(loose!))).toBe(reference.relationScore(relationAt(loose!)));
        for (const cap of [1, 12]) {
          const before = built();
          const kept = bestNeighborsOfEdges(
            new FeatureCache(signals, graphInfo, new Set(), undefined, undefined, tables),
            { view, edgeCount: graph.edgeCount, node: 'H', edges },
            cap,
          );
          expect(kept).toEqual(bestNeighbors(new FeatureCache(signals, graphInfo, new Set()), list, cap));
          expect(built() - before).toBe(cap);
        }
      }
    },
  );

  it("keeps a node's passage chunks across questions: the same bounds, read again only for other edges or another numbering", async () => {
    const index = await hubIndex();
    const graph = compactGraphOf(index);
    const real = graph.numberedEdges;
    const { view, calls: reads } = countingCalls(real, 'passageChunks');
    const edges = real.incidentEdges('H')!;
    const graphInfo = { hubDegree: 10, maxDegree: SIZE };
    const tables = new NeighborBoundTables();
    const boundsOf = async (question: string, list: Uint32Array, node?: string) => {
      const [queryVector] = await index.encoder.encode([question]);
      const signals = await buildQuestionSignals({
        index: { ...index, graph },
        context: { question: { text: question }, queryVector, policy: makePolicy() },
        ...WEIGHTS[0],
      });
      const out = new Float64Array(list.length);
      expect(
        new FeatureCache(signals, graphInfo, new Set(), undefined, undefined, tables).relationScoreBoundsOfEdges(view, graph.edgeCount, list, out, node),
      ).toBe(true);
      return [...out];
    };
    for (const question of QUESTIONS) {
      const before = reads();
      // A copy of the edge numbers, as a store that hands a new array each time gives them.
      expect(await boundsOf(question, edges.slice(), 'H')).toEqual(await boundsOf(question, edges));
      expect(reads() - before).toBe(question === QUESTIONS[0] ? 2 : 1);
    }
    // Other edges under the same node: read again, and bounded right.
    const some = edges.slice(0, 40);
    const before = reads();
    expect(await boundsOf(QUESTIONS[1], some, 'H')).toEqual(await boundsOf(QUESTIONS[1], some));
    expect(reads() - before).toBe(2);
  });

  it('cannot bound by number without bound tables, or with a context term whose passages are not scored by chunk number', async () => {
    const index = await hubIndex();
    const graph = compactGraphOf(index);
    const question = QUESTIONS[0];
    const [queryVector] = await index.encoder.encode([question]);
    const context = { question: { text: question }, queryVector, policy: makePolicy() };
    const signals = await buildQuestionSignals({ index: { ...index, graph }, context, ...WEIGHTS[0] });
    const graphInfo = { hubDegree: 10, maxDegree: SIZE };
    const without = new FeatureCache(signals, graphInfo, new Set());
    expect(without.canBoundEdges()).toBe(false);
    const edges = graph.numberedEdges.incidentEdges('H')!;
    expect(without.relationScoreBoundsOfEdges(graph.numberedEdges, graph.edgeCount, edges, new Float64Array(edges.length))).toBe(false);
    expect(() => bestNeighborsOfEdges(without, { view: graph.numberedEdges, edgeCount: graph.edgeCount, node: 'H', edges }, 3)).toThrow(/canBoundEdges/);
    const unnumbered = { ...signals, context: { ...signals.context!, relevance: { ...signals.context!.relevance! } } };
    expect(new FeatureCache(unnumbered, graphInfo, new Set(), undefined, undefined, new NeighborBoundTables()).canBoundEdges()).toBe(false);
  });

  it('reads a relation’s stored vector by position when the index offers it: the scores stored vectors by id give', async () => {
    const index = await hubIndex();
    const graph = compactGraphOf(index);
    const view = graph.numberedEdges;
    const edges = view.incidentEdges('H')!;
    const list = (await graph.neighbors(['H'])).get('H')!;
    const position = new Map(list.map((neighbor, i) => [neighbor.edge.id, i]));
    const vectors = await index.encoder.encode(index.relationTexts);
    const rows = new Map(index.relationIds.map((id, k) => [id, vectors[k]]));
    const byId = { ...index, graph, relationVector: (id: string) => rows.get(id) };
    let reads = 0;
    let readsById = 0;
    const positional = {
      ...byId,
      relationVector: (id: string) => {
        readsById += 1;
        return rows.get(id);
      },
      relationVectorAt: (label: number) => {
        reads += 1;
        return vectors[label];
      },
    };
    const graphInfo = { hubDegree: 10, maxDegree: SIZE };
    for (const question of QUESTIONS) {
      const [queryVector] = await index.encoder.encode([question]);
      const context = { question: { text: question }, queryVector, policy: makePolicy() };
      const weights = { lexicalWeight: 0.8, contextWeight: 0.5 };
      const reference = new FeatureCache(await buildQuestionSignals({ index: byId, context, ...weights }), graphInfo, new Set());
      const signals = await buildQuestionSignals({ index: positional, context, ...weights });
      const features = new FeatureCache(signals, graphInfo, new Set(), undefined, undefined, new NeighborBoundTables());
      const scores = features.relationScoresOfEdges(view, graph.edgeCount, edges, 'H')!;
      const before = reads;
      const beforeById = readsById;
      for (let i = 0; i < edges.length; i += 1) expect(scores(i)).toBe(reference.relationScore(list[position.get(view.edgeId(edges[i]))!].edge));
      // Every relation of the hub scored from its vector read by position, none by id.
      expect(reads - before).toBe(edges.length);
      expect(readsById - beforeById).toBe(0);
    }
  });

  it('gives a traversal over the compact store the paths and trace it has over the graphology store, without listing the hub', async () => {
    const index = await hubIndex();
    for (const reversed of [false, true]) {
      const graph = compactGraphOf(index, reversed);
      const listed: string[] = [];
      const watched: GraphStore = {
        specificationVersion: 'v1',
        nodeCount: graph.nodeCount,
        edgeCount: graph.edgeCount,
        hubDegree: graph.hubDegree,
        maxDegree: graph.maxDegree,
        getNodes: (ids) => graph.getNodes(ids),
        getNodeSummaries: (ids) => graph.getNodeSummaries(ids),
        getEdges: (ids) => graph.getEdges(ids),
        neighbors: (ids) => {
          listed.push(...ids);
          return graph.neighbors(ids);
        },
        numberedEdges: graph.numberedEdges,
      };
      const seeds: Seed[] = [{ nodeId: 'H', name: 'Harbour', entityScore: 0, relationScore: 1, score: 1, query: 'q' }];
      const traverser = createBeamTraverser();
      const plain = createBeamTraverser();
      for (const question of QUESTIONS) {
        const [queryVector] = await index.encoder.encode([question]);
        const context = { question: { text: question }, queryVector, policy: makePolicy({ maxDepth: 2, beamWidth: 4 }) };
        const numbered = await traverser.traverse({ context, index: { ...index, graph: watched }, seeds });
        const reference = await plain.traverse({ context, index, seeds });
        expect(numbered.paths.length).toBeGreaterThan(0);
        expect(numbered).toEqual(reference);
      }
      expect(listed).not.toContain('H');
    }
  });
});

describe('byBoundThenId', () => {
  it('gives the order firstPositions gives, and stops before the first level stop rejects', () => {
    const random = seededRandom(7);
    for (let round = 0; round < 200; round += 1) {
      const n = 1 + Math.floor(random() * 120);
      // Few distinct levels: long runs of ties, put in `before` order (here: a shuffled rank).
      const bound = Float64Array.from({ length: n }, () => Math.floor(random() * 5) / 4);
      const rank = Array.from({ length: n }, (_, i) => i).sort(() => random() - 0.5);
      const before = (a: number, b: number) => rank[a] < rank[b];
      const k = 1 + Math.floor(random() * (n + 3));
      const expected = firstPositions(n, k, (a, b) => bound[a] > bound[b] || (bound[a] === bound[b] && before(a, b)));
      expect([...byBoundThenId(bound, k, before)]).toEqual(expected);
      const floor = Math.floor(random() * 5) / 4;
      expect([...byBoundThenId(bound, k, before, (level) => level < floor)]).toEqual(expected.filter((i) => bound[i] >= floor));
    }
  });

  it('reads no tie-break of a run it does not reach', () => {
    const bound = Float64Array.from([0.9, 0.1, 0.1, 0.1, 0.5, 0.1]);
    const asked: [number, number][] = [];
    const before = (a: number, b: number) => {
      asked.push([a, b]);
      return a > b;
    };
    expect([...byBoundThenId(bound, 6, before, (level) => level < 0.5)]).toEqual([0, 4]);
    expect(asked).toEqual([]);
    expect([...byBoundThenId(bound, 6, before)]).toEqual([0, 4, 5, 3, 2, 1]);
  });
});
