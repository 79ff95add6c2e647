import { buildHandIndex, createHashingEncoder, type BuildHandIndexOptions, type HandBuiltIndex } from '@mosaic/testing/hand-built-index';
import type { CorpusIndex, GraphStore, Neighbor, Policy, QueryContext, Seed } from '@mosaic/spec';
import { describe, expect, it } from 'vitest';
import { canonicalPathKey, createBeamTraverser } from './beam-traverser.js';
import { makePolicy } from '@mosaic/testing';
import { pathScore } from './path-scorer.js';
import { randomCase } from './random-cases.test-support.js';

async function contextFor(index: CorpusIndex, question: string, policy: Policy, queryText = question): Promise<QueryContext> {
  const [queryVector] = await index.encoder.encode([queryText]);
  return { question: { text: question }, queryVector, policy };
}

function seed(nodeId: string, targetIndex?: number): Seed {
  return { nodeId, name: nodeId, entityScore: 0, relationScore: 1, score: 1, query: 'q', ...(targetIndex !== undefined ? { targetIndex } : {}) };
}

/** A GraphStore wrapper that records every neighbors() batch. */
function countingGraph(graph: GraphStore): { graph: GraphStore; batches: string[][] } {
  const batches: string[][] = [];
  const wrapped: GraphStore = {
    specificationVersion: 'v1',
    get nodeCount() {
      return graph.nodeCount;
    },
    get edgeCount() {
      return graph.edgeCount;
    },
    hubDegree: graph.hubDegree,
    maxDegree: graph.maxDegree,
    getNodes: (ids) => graph.getNodes(ids),
    getEdges: (ids) => graph.getEdges(ids),
    neighbors: async (ids): Promise<Map<string, Neighbor[]>> => {
      batches.push([...ids]);
      return graph.neighbors(ids);
    },
  };
  return { graph: wrapped, batches };
}

const entity = (id: string, name = id, description = '') => ({ id, name, description });

/** Two targets A and B three hops apart (A – x – y – B) with distractor branches. */
const bridgeGraph: BuildHandIndexOptions = {
  entities: [
    entity('A', 'Alderan'),
    entity('B', 'Bexley'),
    entity('x', 'Xylo'),
    entity('y', 'Yarrow'),
    entity('p', 'Pond'),
    entity('q', 'Quarry'),
    entity('r', 'Ridge'),
    entity('s', 'Shore'),
  ],
  relations: [
    { id: 'e1', source: 'A', target: 'x', label: 'trades with' },
    { id: 'e2', source: 'x', target: 'y', label: 'borders' },
    { id: 'e3', source: 'y', target: 'B', label: 'supplies' },
    { id: 'e4', source: 'A', target: 'p', label: 'trades with' },
    { id: 'e5', source: 'p', target: 'q', label: 'feeds' },
    { id: 'e6', source: 'B', target: 'r', label: 'supplies' },
    { id: 'e7', source: 'r', target: 's', label: 'overlooks' },
  ],
};

describe('createBeamTraverser: beam, gain and trace', () => {
  it('makes one neighbors() round trip per depth with every frontier node in the batch', async () => {
    const index = await buildHandIndex(bridgeGraph);
    const { graph, batches } = countingGraph(index.graph);
    const context = await contextFor(index, 'Who does Alderan trade with?', makePolicy({ maxDepth: 3, beamWidth: 2, stopRegime: 'deep' }));
    const result = await createBeamTraverser().traverse({ context, index: { ...index, graph }, seeds: [seed('A'), seed('B')] });
    const trace = result.trace;
    expect(trace.roundTrips).toBe(batches.length);
    expect(batches.length).toBe(trace.depths.length);
    expect(batches[0]).toEqual(['A', 'B']);
    // depth 2 frontier = the ends of the depth-1 beam
    expect(batches[1]).toEqual([...new Set(trace.depths[0].beam.map((path) => path.nodes[path.nodes.length - 1]))].sort());
    for (const depth of trace.depths) expect(depth.beam.length).toBeLessThanOrEqual(2);
    expect(trace.pathsEvaluated).toBe(trace.depths.reduce((sum, depth) => sum + depth.candidates, 0));
  });

  it('computes g_d from the kept beam against everything accumulated before the depth', async () => {
    const index = await buildHandIndex(bridgeGraph);
    const context = await contextFor(index, 'Who does Alderan trade with?', makePolicy({ maxDepth: 3, beamWidth: 8, stopRegime: 'deep' }));
    const { trace } = await createBeamTraverser().traverse({ context, index, seeds: [seed('A')] });
    const [d1, d2] = trace.depths;
    // depth 1: A's two edges reach x and p: 2 nodes + 2 edges new against {A}
    expect(d1.newNodes).toBe(2);
    expect(d1.newEdges).toBe(2);
    expect(d1.gain).toBeCloseTo(4 / 1);
    // depth 2: y and q, e2 and e5 against {A, x, p, e1, e4}
    expect(d2.newNodes).toBe(2);
    expect(d2.newEdges).toBe(2);
    expect(d2.gain).toBeCloseTo(4 / 5);
  });

  it('stops with no-seeds and exhausted when there is nothing to grow', async () => {
    const index = await buildHandIndex(bridgeGraph);
    const context = await contextFor(index, 'Alderan', makePolicy({ maxDepth: 5, stopRegime: 'deep' }));
    const traverser = createBeamTraverser();
    const none = await traverser.traverse({ context, index, seeds: [] });
    expect(none.trace.stopReason).toBe('no-seeds');
    expect(none.paths).toEqual([]);
    const unknown = await traverser.traverse({ context, index, seeds: [seed('nope')] });
    expect(unknown.trace.stopReason).toBe('no-seeds');
    // The graph is a line s–r–B–y–x–A–p–q: from s the beam runs out after 7 hops.
    const policy = makePolicy({ maxDepth: 10, stopRegime: 'deep', targetEntities: ['Nowhere'] });
    const result = await traverser.traverse({ context: { ...context, policy }, index, seeds: [seed('s')] });
    expect(result.trace.stopReason).toBe('exhausted');
    expect(result.trace.depthReached).toBe(7);
    expect(result.trace.depths.at(-1)).toMatchObject({ depth: 7, stop: true, grown: [] });
    expect(result.trace.roundTrips).toBe(7);
  });

  it('lets kept dead ends pass their slot to paths that can still grow (refillBeam)', async () => {
    // Hub seed Zed with five leaves whose relations match the question, and one chain Zed–m1–m2–m3.
    const entities = [entity('Z', 'Zed'), entity('m1', 'Mid1'), entity('m2', 'Mid2'), entity('m3', 'Mid3')];
    const relations = [
      { id: 'zm', source: 'Z', target: 'm1', label: 'borders' },
      { id: 'mm', source: 'm1', target: 'm2', label: 'borders' },
      { id: 'mn', source: 'm2', target: 'm3', label: 'borders' },
    ];
    for (let i = 0; i < 5; i += 1) {
      entities.push(entity(`l${i}`, `Leaf${i}`));
      relations.push({ id: `zl${i}`, source: 'Z', target: `l${i}`, label: 'grows fruit' });
    }
    const index = await buildHandIndex({ entities, relations });
    const context = await contextFor(index, 'Which fruit grows on Zed?', makePolicy({ maxDepth: 3, beamWidth: 2, stopRegime: 'deep' }));
    const refill = await createBeamTraverser().traverse({ context, index, seeds: [seed('Z')] });
    const depth1 = refill.trace.depths[0];
    expect(depth1.beam.map((path) => path.nodes[1])).toEqual(['l0', 'l1']);
    expect(depth1.grown).toEqual(['Z|zm|m1']);
    expect(refill.trace.depthReached).toBe(3);
    expect(refill.paths.some((path) => path.nodes.join() === 'Z,m1,m2,m3')).toBe(true);

    const literal = await createBeamTraverser({ refillBeam: false }).traverse({ context, index, seeds: [seed('Z')] });
    expect(literal.trace.stopReason).toBe('exhausted');
    expect(literal.trace.depthReached).toBe(1);
  });

  it('honours an aborted signal with AbortedError', async () => {
    const index = await buildHandIndex(bridgeGraph);
    const context = await contextFor(index, 'Alderan', makePolicy());
    const controller = new AbortController();
    controller.abort();
    await expect(createBeamTraverser().traverse({ context, index, seeds: [seed('A')], abortSignal: controller.signal })).rejects.toMatchObject({
      name: 'MosaicAbortedError',
    });
  });

  it('rejects unusable options and policy values with InvalidArgumentError', async () => {
    expect(() => createBeamTraverser({ completenessThreshold: 2 })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
    expect(() => createBeamTraverser({ weights: { nope: 1 } as never })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
    const index = await buildHandIndex(bridgeGraph);
    const context = await contextFor(index, 'Alderan', makePolicy({ beamWidth: 0 }));
    await expect(createBeamTraverser().traverse({ context, index, seeds: [seed('A')] })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
  });

  it('gives identical results for identical inputs', async () => {
    const run = async () => {
      const index = await buildHandIndex(bridgeGraph);
      const policy = makePolicy({ maxDepth: 3, beamWidth: 3, useConnector: true, targetEntities: ['Alderan', 'Bexley'], stopRegime: 'deep' });
      const context = await contextFor(index, 'How is Alderan linked to Bexley?', policy);
      return createBeamTraverser().traverse({ context, index, seeds: [seed('A', 0), seed('B', 1)] });
    };
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);
    expect(first.paths.length).toBeGreaterThan(0);
  });
});

describe('createBeamTraverser: neighbours per node', () => {
  // A hub with 30 relations; three of them state what the question asks.
  const fillers = ['borders', 'overlooks', 'trades with', 'feeds', 'faces', 'follows'];
  const answering = new Set([3, 17, 25]);
  const star: BuildHandIndexOptions = {
    entities: [entity('H', 'Harbour'), ...Array.from({ length: 30 }, (_, i) => entity(`L${i}`, `Leaf ${i}`))],
    relations: Array.from({ length: 30 }, (_, i) => ({
      id: `e${String(i).padStart(2, '0')}`,
      source: 'H',
      target: `L${i}`,
      label: answering.has(i) ? 'cures fever' : fillers[i % fillers.length],
    })),
  };
  const policy = makePolicy({ maxDepth: 1, beamWidth: 12, stopRegime: 'deep' });

  it('expands only the best r(e) neighbours of a node, counts the others in the trace, and Infinity expands all', async () => {
    const index = await buildHandIndex(star);
    const context = await contextFor(index, 'What cures fever?', policy);
    const capped = await createBeamTraverser({ tuning: { maxNeighborsPerNode: 5 } }).traverse({ context, index, seeds: [seed('H')] });
    expect(capped.trace.depths[0].candidates).toBe(5);
    expect(capped.trace.depths[0].neighborsCut).toBe(25);
    const reached = new Set(capped.paths.map((path) => path.nodes[1]));
    for (const i of answering) expect(reached.has(`L${i}`)).toBe(true);

    const all = await createBeamTraverser({ tuning: { maxNeighborsPerNode: Number.POSITIVE_INFINITY } }).traverse({ context, index, seeds: [seed('H')] });
    expect(all.trace.depths[0].candidates).toBe(30);
    expect(all.trace.depths[0].neighborsCut).toBe(0);
    // The kept neighbours score as they do uncapped: the cap removes paths, it does not rescore them.
    const uncapped = new Map(all.paths.map((path) => [path.id, path.score]));
    for (const path of capped.paths) expect(path.score).toBe(uncapped.get(path.id));
    // The best paths of the whole neighbourhood are the ones the cap kept.
    expect(capped.paths.slice(0, 3).map((path) => path.id)).toEqual(all.paths.slice(0, 3).map((path) => path.id));

    const byDefault = await createBeamTraverser().traverse({ context, index, seeds: [seed('H')] });
    expect(byDefault.trace.depths[0].candidates).toBe(24);
    expect(byDefault.trace.depths[0].neighborsCut).toBe(6);
    expect(byDefault.trace.depths[0].hubScanCut).toBe(0);
  });

  it('maxHubScan: of a hub with more relations, only that many (best lexical bound) are scored; the trace counts the rest', async () => {
    const index = await buildHandIndex({ ...star, lexical: true });
    const context = await contextFor(index, 'What cures fever?', policy);
    const scanned = await createBeamTraverser({ maxHubScan: 8, tuning: { maxNeighborsPerNode: 5 } }).traverse({ context, index, seeds: [seed('H')] });
    expect(scanned.trace.depths[0].candidates).toBe(5);
    expect(scanned.trace.depths[0].neighborsCut).toBe(25);
    expect(scanned.trace.depths[0].hubScanCut).toBe(22);
    // The answering relations match the question's terms, so their bounds put them among the 8 scanned.
    const reached = new Set(scanned.paths.map((path) => path.nodes[1]));
    for (const i of answering) expect(reached.has(`L${i}`)).toBe(true);
    // A scan at least the hub's size changes nothing.
    const wide = await createBeamTraverser({ maxHubScan: 30, tuning: { maxNeighborsPerNode: 5 } }).traverse({ context, index, seeds: [seed('H')] });
    const all = await createBeamTraverser({ maxHubScan: Number.POSITIVE_INFINITY, tuning: { maxNeighborsPerNode: 5 } }).traverse({
      context,
      index,
      seeds: [seed('H')],
    });
    expect(wide.trace.depths[0].hubScanCut).toBe(0);
    expect(wide.paths).toEqual(all.paths);
    expect(() => createBeamTraverser({ maxHubScan: 0 })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError', argument: 'maxHubScan' }));
  }, 30_000);

  it('rejects a cap that is not a whole number of at least 1 (or Infinity)', () => {
    for (const bad of [0, -3, Number.NaN, Number.NEGATIVE_INFINITY]) {
      expect(() => createBeamTraverser({ tuning: { maxNeighborsPerNode: bad } }), String(bad)).toThrowError(
        expect.objectContaining({ name: 'MosaicInvalidArgumentError', argument: 'tuning.maxNeighborsPerNode' }),
      );
    }
  });
});

describe('createBeamTraverser: connector view', () => {
  it('joins the regions of two targets that the beam alone cannot connect within the depth cap', async () => {
    const index = await buildHandIndex(bridgeGraph);
    const policy = makePolicy({ maxDepth: 2, beamWidth: 4, stopRegime: 'deep', targetEntities: ['Alderan', 'Bexley'] });
    const question = 'How is Alderan connected to Bexley?';
    const seeds = [seed('A', 0), seed('B', 1)];
    const joins = (paths: { nodes: string[] }[]) => paths.filter((path) => path.nodes.includes('A') && path.nodes.includes('B'));

    const beamOnly = await createBeamTraverser().traverse({ context: await contextFor(index, question, policy), index, seeds });
    expect(joins(beamOnly.paths)).toEqual([]);
    expect(beamOnly.trace.depths.every((depth) => depth.connectorCandidates === 0)).toBe(true);

    const withConnector = await createBeamTraverser().traverse({
      context: await contextFor(index, question, { ...policy, useConnector: true }),
      index,
      seeds,
    });
    const joined = joins(withConnector.paths);
    expect(joined.length).toBeGreaterThan(0);
    expect(joined[0]).toMatchObject({ origin: 'connector', nodes: ['A', 'x', 'y', 'B'], edges: ['e1', 'e2', 'e3'], seed: 'A', depth: 2 });
    expect(withConnector.trace.depths[1].connectorCandidates).toBeGreaterThan(0);
    // the connector competes in the same pool as the beam
    expect(withConnector.trace.depths[1].beam.some((path) => path.origin === 'connector')).toBe(true);
    expect(withConnector.trace.roundTrips).toBe(2);
  });

  it('does not grow a region through a node of more than maxHubScan relations, which can still be where regions meet', async () => {
    // A — h — m — n — B, and h a hub of twelve relations (ten leaves).
    const index = await buildHandIndex({
      entities: [
        entity('A', 'Alderan'),
        entity('B', 'Bexley'),
        entity('h', 'Hubton'),
        entity('m', 'Mere'),
        entity('n', 'Nook'),
        ...Array.from({ length: 10 }, (_, i) => entity(`L${i}`, `Leaf${i}`)),
      ],
      relations: [
        { id: 'e1', source: 'A', target: 'h', label: 'trades with' },
        { id: 'e2', source: 'h', target: 'm', label: 'borders' },
        { id: 'e3', source: 'm', target: 'n', label: 'feeds' },
        { id: 'e4', source: 'n', target: 'B', label: 'supplies' },
        ...Array.from({ length: 10 }, (_, i) => ({ id: `l${i}`, source: 'h', target: `L${i}`, label: 'holds' })),
      ],
    });
    const policy = makePolicy({ maxDepth: 2, beamWidth: 4, useConnector: true, stopRegime: 'deep', targetEntities: ['Alderan', 'Bexley'] });
    const run = async (maxHubScan: number) =>
      createBeamTraverser({ maxHubScan }).traverse({
        context: await contextFor(index, 'How is Alderan connected to Bexley?', policy),
        index,
        seeds: [seed('A', 0), seed('B', 1)],
      });
    const joins = (paths: { nodes: string[] }[]) => paths.filter((path) => path.nodes.includes('A') && path.nodes.includes('B')).map((path) => path.nodes);
    // Every relation scanned: region A grows through h to m at depth 2, where region B (B, n, m) meets it.
    const all = await run(Number.POSITIVE_INFINITY);
    expect(joins(all.paths)).toEqual([['A', 'h', 'm', 'n', 'B']]);
    expect(all.trace.depths.map((depth) => depth.regionHubsHeld)).toEqual([0, 0]);
    // h has more than 8 relations: it joins region A at depth 1 but is not grown through, so the regions do not meet within two levels.
    const held = await run(8);
    expect(held.trace.depths.map((depth) => depth.regionHubsHeld)).toEqual([1, 0]);
    expect(joins(held.paths)).toEqual([]);
    // Two regions that both reach the hub still meet there: A — h — B directly.
    const meeting = await buildHandIndex({
      entities: [entity('A', 'Alderan'), entity('B', 'Bexley'), entity('h', 'Hubton'), ...Array.from({ length: 10 }, (_, i) => entity(`L${i}`, `Leaf${i}`))],
      relations: [
        { id: 'e1', source: 'A', target: 'h', label: 'trades with' },
        { id: 'e2', source: 'h', target: 'B', label: 'supplies' },
        ...Array.from({ length: 10 }, (_, i) => ({ id: `l${i}`, source: 'h', target: `L${i}`, label: 'holds' })),
      ],
    });
    const met = await createBeamTraverser({ maxHubScan: 8 }).traverse({
      context: await contextFor(meeting, 'How is Alderan connected to Bexley?', policy),
      index: meeting,
      seeds: [seed('A', 0), seed('B', 1)],
    });
    expect(met.trace.depths[0]?.regionHubsHeld).toBe(2);
    expect(met.paths.some((path) => path.origin === 'connector' && path.nodes.join(' ') === 'A h B')).toBe(true);
  });

  it('does not join seeds of the same target', async () => {
    const index = await buildHandIndex(bridgeGraph);
    const policy = makePolicy({ maxDepth: 2, beamWidth: 4, useConnector: true, stopRegime: 'deep', targetEntities: ['Alderan'] });
    const result = await createBeamTraverser().traverse({
      context: await contextFor(index, 'Alderan', policy),
      index,
      seeds: [seed('A', 0), seed('B', 0)],
    });
    expect(result.trace.depths.every((depth) => depth.connectorCandidates === 0)).toBe(true);
  });
});

describe('createBeamTraverser: cumulative-gain stopping', () => {
  /** A binary tree of depth 5 under a root named Rootwood; the leaf "Omega" sits at depth 4. */
  async function treeIndex(): Promise<HandBuiltIndex> {
    const entities = [entity('n1', 'Rootwood')];
    const relations: { id: string; source: string; target: string; label: string }[] = [];
    for (let i = 2; i < 64; i += 1) {
      entities.push(entity(`n${i}`, i === 16 ? 'Omega' : `Node${i}`));
      relations.push({ id: `e${i}`, source: `n${Math.floor(i / 2)}`, target: `n${i}`, label: 'contains' });
    }
    // 1024 dimensions: no hash collision between the one-word names.
    return buildHandIndex({ entities, relations, encoder: createHashingEncoder({ dimension: 1024 }) });
  }

  it('shallow stops at depth 2 once completeness holds; deep goes on', async () => {
    const index = await treeIndex();
    const base = { maxDepth: 5, beamWidth: 4, targetEntities: ['Rootwood'] };
    const shallow = await createBeamTraverser().traverse({
      context: await contextFor(index, 'What does Rootwood contain?', makePolicy({ ...base, stopRegime: 'shallow' })),
      index,
      seeds: [seed('n1')],
    });
    expect(shallow.trace.stopReason).toBe('low-gain');
    expect(shallow.trace.depthReached).toBe(2);
    expect(shallow.trace.depths[1]).toMatchObject({ threshold: 5, stop: true, completeness: 1 });

    const deep = await createBeamTraverser().traverse({
      context: await contextFor(index, 'What does Rootwood contain?', makePolicy({ ...base, stopRegime: 'deep' })),
      index,
      seeds: [seed('n1')],
    });
    expect(deep.trace.depthReached).toBeGreaterThan(2);
    for (const depth of deep.trace.depths.slice(1, -1)) expect(depth.gain).toBeGreaterThan(0.24);
    expect(deep.paths.length).toBeGreaterThan(shallow.paths.length);
  });

  it('fixedDepth (baselines) turns the low-gain stop off and runs to the depth cap', async () => {
    const index = await treeIndex();
    const base = { maxDepth: 4, beamWidth: 4, targetEntities: ['Rootwood'], stopRegime: 'shallow' as const };
    const fixed = await createBeamTraverser().traverse({
      context: await contextFor(index, 'What does Rootwood contain?', makePolicy({ ...base, fixedDepth: true })),
      index,
      seeds: [seed('n1')],
    });
    expect(fixed.trace.depths[1].gain).toBeLessThanOrEqual(5); // shallow's low-gain rule would fire here
    expect(fixed.trace.stopReason).not.toBe('low-gain');
    expect(fixed.trace.depthReached).toBeGreaterThan(2);
  });

  it('shallow keeps going while completeness is below 0.35 and stops once the target is covered', async () => {
    const index = await treeIndex();
    const policy = makePolicy({ maxDepth: 5, beamWidth: 16, stopRegime: 'shallow', targetEntities: ['Omega'] });
    const result = await createBeamTraverser().traverse({ context: await contextFor(index, 'Where is Omega?', policy), index, seeds: [seed('n1')] });
    const trace = result.trace;
    expect(trace.depths.slice(0, 3).map((depth) => depth.completeness)).toEqual([0, 0, 0]);
    expect(trace.depthReached).toBe(4);
    expect(trace.stopReason).toBe('low-gain');
    expect(trace.depths[3].coveredTargets).toEqual(['Omega']);
  });

  it('without targets or facets, completeness is the share of seeds explored', async () => {
    const index = await treeIndex();
    const policy = makePolicy({ maxDepth: 3, beamWidth: 1, stopRegime: 'medium' });
    const result = await createBeamTraverser().traverse({
      context: await contextFor(index, 'Node4 contains', policy),
      index,
      seeds: [seed('n2'), seed('n63')],
    });
    // Width 1: the single kept path grows from one seed, so half of the seeds are explored.
    expect(result.trace.depths[0].completeness).toBe(0.5);
  });
});

describe('createBeamTraverser: anchor strength', () => {
  /** Seed Zeta reaches target Tau through the hub Protein or through the specific Kinase. */
  async function hubIndex(): Promise<HandBuiltIndex> {
    const entities = [entity('S', 'Zeta'), entity('H', 'Protein'), entity('X', 'Kinase'), entity('T', 'Tau')];
    const relations = [
      { id: 'sh', source: 'S', target: 'H', label: 'regulates' },
      { id: 'sx', source: 'S', target: 'X', label: 'inhibits' },
      { id: 'ht', source: 'H', target: 'T', label: 'includes' },
      { id: 'xt', source: 'X', target: 'T', label: 'phosphorylates' },
    ];
    for (let i = 0; i < 10; i += 1) {
      entities.push(entity(`L${i}`, `Leaf${i}`));
      relations.push({ id: `hl${i}`, source: 'H', target: `L${i}`, label: 'includes' });
    }
    return buildHandIndex({ entities, relations });
  }

  it('a high anchor strength avoids the hub detour that the relation-driven scorer takes', async () => {
    const index = await hubIndex();
    expect(index.graph.hubDegree).toBe(12);
    const base = { maxDepth: 2, beamWidth: 1, stopRegime: 'deep' as const, targetEntities: ['Zeta'], targetFacets: ['inhibits enzyme'] };
    const run = async (anchorStrength: number) =>
      createBeamTraverser().traverse({
        context: await contextFor(index, 'How does Zeta act?', makePolicy({ ...base, anchorStrength }), 'Zeta regulates Protein'),
        index,
        seeds: [seed('S')],
      });
    const loose = await run(0);
    expect(loose.trace.depths[0].beam[0].nodes).toEqual(['S', 'H']);
    const anchored = await run(0.8);
    expect(anchored.trace.depths[0].beam[0].nodes).toEqual(['S', 'X']);
    expect(anchored.trace.depths.flatMap((depth) => depth.beam).some((path) => path.nodes.includes('H'))).toBe(false);
    expect(anchored.trace.depths[1].beam[0].nodes).toEqual(['S', 'X', 'T']);
    expect(anchored.trace.weights.hub).toBeCloseTo(0.36);
    expect(loose.trace.weights.hub).toBeCloseTo(0.2);
  });
});

describe('createBeamTraverser: properties on random graphs', () => {
  it('every term lies in [0,1], ρ_rep/h too, scores follow equation (8), paths are simple and distinct', async () => {
    for (let round = 0; round < 25; round += 1) {
      const { index, policy, seeds, question } = await randomCase(1000 + round);
      const context = await contextFor(index, question, policy);
      const traverser = createBeamTraverser();
      const { paths, trace } = await traverser.traverse({ context, index, seeds });
      const weights = trace.weights as never;
      const keys = new Set<string>();
      for (const path of paths) {
        const h = path.edges.length;
        expect(h).toBeGreaterThanOrEqual(1);
        expect(path.nodes.length).toBe(h + 1);
        expect(new Set(path.nodes).size).toBe(path.nodes.length);
        for (const [name, value] of Object.entries(path.terms)) {
          const normalised = name === 'repetition' ? value / h : value;
          expect(normalised, name).toBeGreaterThanOrEqual(0);
          expect(normalised, name).toBeLessThanOrEqual(1 + 1e-12);
        }
        expect(path.score).toBeCloseTo(pathScore(path.terms, h, weights), 10);
        const edges = await index.graph.getEdges(path.edges);
        edges.forEach((edge, j) => {
          expect([edge.source, edge.target].sort()).toEqual([path.nodes[j], path.nodes[j + 1]].sort());
        });
        const key = canonicalPathKey(path.nodes, path.edges);
        expect(keys.has(key)).toBe(false);
        keys.add(key);
      }
      for (let i = 1; i < paths.length; i += 1) expect(paths[i - 1].score).toBeGreaterThanOrEqual(paths[i].score);
      for (const depth of trace.depths) {
        expect(depth.beam.length).toBeLessThanOrEqual(policy.beamWidth);
        expect(depth.completeness).toBeGreaterThanOrEqual(0);
        expect(depth.completeness).toBeLessThanOrEqual(1);
        expect(depth.gain).toBeGreaterThanOrEqual(0);
      }
      expect(trace.depthReached).toBeLessThanOrEqual(policy.maxDepth);
      expect(trace.roundTrips).toBeLessThanOrEqual(policy.maxDepth);
    }
  });
});
