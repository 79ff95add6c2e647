import type { EvidenceSelection, GraphStore, Neighbor, ScoredPath, Seed } from '@mosaic/spec';
import { buildHandIndex } from '@mosaic/testing/hand-built-index';
import { describe, expect, it } from 'vitest';
import { createEvidenceSelector, type EvidenceSelectionTrace, type EvidenceSelectorOptions } from './evidence-selector.js';
import { makePolicy } from '@mosaic/testing';
import { seededRandom } from '@mosaic/testing';

const terms = { relation: 0, target: 0, specificity: 0, anchor: 0, transition: 0, coherence: 0, hub: 0, repetition: 0, questionLike: 0 };
const words = ['heart', 'lung', 'drug', 'pain', 'fever', 'cell', 'moon', 'star'];
const labels = ['treats', 'causes', 'orbits', 'part of'];

/** A GraphStore wrapper counting getNodes / getEdges calls. */
function countingGraph(graph: GraphStore): { graph: GraphStore; calls: { nodes: number; edges: number } } {
  const calls = { nodes: 0, edges: 0 };
  return {
    calls,
    graph: {
      specificationVersion: 'v1',
      nodeCount: graph.nodeCount,
      edgeCount: graph.edgeCount,
      hubDegree: graph.hubDegree,
      maxDegree: graph.maxDegree,
      getNodes: (ids) => {
        calls.nodes += 1;
        return graph.getNodes(ids);
      },
      getEdges: (ids) => {
        calls.edges += 1;
        return graph.getEdges(ids);
      },
      neighbors: (ids): Promise<Map<string, Neighbor[]>> => graph.neighbors(ids),
    },
  };
}

/** A readable summary of a selection: paths with roles, units with scores at four decimals, the counts. */
function summaryOf(result: EvidenceSelection<EvidenceSelectionTrace>): string[] {
  const { candidates, considered, capped, restored, filtered, evidenceCount, minEvidence, floorApplied } = result.trace;
  return [
    `candidates ${candidates}, considered ${considered}, filtered ${filtered}, capped ${capped}, restored ${restored}; B ${evidenceCount}, L ${minEvidence}, floor ${floorApplied}`,
    ...result.paths.map((path) => `path ${path.rank} ${path.role} ${path.id} ${path.score.toFixed(4)}`),
    ...result.units.map((unit) => `unit ${unit.id} ${unit.score.toFixed(4)}${unit.restored ? ' restored' : ''} chunks ${unit.chunkIds.join(',')}`),
  ];
}

/** Properties of one selection that hold for every path set, policy and option set. */
function expectSelectionProperties(result: EvidenceSelection<EvidenceSelectionTrace>, options: EvidenceSelectorOptions): void {
  const { paths, units, trace } = result;
  const { selected, units: tracedUnits } = trace;
  expect(selected).toEqual(paths);
  expect(tracedUnits).toEqual(units);
  // Ranks 1…n, each path once, at most the filter's size considered and maxPaths kept.
  expect(paths.map((path) => path.rank)).toEqual(paths.map((_, i) => i + 1));
  expect(new Set(paths.map((path) => path.id)).size).toBe(paths.length);
  expect(trace.considered).toBeLessThanOrEqual(trace.candidates);
  // The filter looks at `filterSize` paths, by default max(10, maxPaths), maxPaths defaulting to B.
  expect(trace.considered).toBeLessThanOrEqual(options.filterSize ?? Math.max(10, options.maxPaths ?? trace.evidenceCount));
  expect(paths.length).toBeLessThanOrEqual(trace.considered);
  if (options.maxPaths !== undefined) expect(paths.length).toBeLessThanOrEqual(options.maxPaths);
  // Units: each once; at most B before the floor; restored ones only up to the floor applied.
  expect(new Set(units.map((unit) => unit.id)).size).toBe(units.length);
  const restored = units.filter((unit) => unit.restored);
  expect(restored.length).toBeLessThanOrEqual(trace.restored);
  expect(units.length - restored.length).toBeLessThanOrEqual(trace.evidenceCount);
  if (restored.length > 0) expect(units.length).toBeLessThanOrEqual(trace.floorApplied);
  expect(trace.floorApplied).toBe(options.tuning?.fillToBudget === false ? trace.minEvidence : Math.max(trace.evidenceCount, trace.minEvidence));
  for (const unit of units) {
    expect(unit.score).toBeGreaterThanOrEqual(0);
    expect(unit.score).toBeLessThanOrEqual(1);
  }
}

/** JSON has no Infinity. */
function describeOptions(options: EvidenceSelectorOptions): Record<string, unknown> {
  const { tuning, ...rest } = options;
  return Object.fromEntries(Object.entries({ ...rest, ...tuning }).map(([key, value]) => [key, Number.isFinite(value) ? value : String(value)]));
}

describe('selections on seeded random path sets: properties, and a few readable cases', () => {
  // Two cases are written out (scores at four decimals) for a diff one can read; the properties
  // cover the rest. Re-record an intended change with `vitest run -u`.
  it('floors, caps, margins, reversed and rescored duplicates, odd paths', async () => {
    const readable: Record<string, string[]> = {};
    let restoredSeen = 0;
    let unitsSeen = 0;
    for (let round = 0; round < 60; round += 1) {
      const random = seededRandom(9000 + round);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
      const nodeCount = 5 + Math.floor(random() * 25);
      const entities = Array.from({ length: nodeCount }, (_, i) => ({
        id: `v${i}`,
        name: `${pick(words)} ${pick(words)}`,
        description: random() < 0.6 ? `${pick(words)} ${pick(words)}` : undefined,
        aliases: random() < 0.2 ? [pick(words)] : undefined,
      }));
      const relations = Array.from({ length: nodeCount * 2 }, (_, i) => {
        const source = Math.floor(random() * nodeCount);
        let target = Math.floor(random() * nodeCount);
        if (target === source) target = (target + 1) % nodeCount;
        return { id: `r${i}`, source: `v${source}`, target: `v${target}`, label: pick(labels), description: random() < 0.5 ? pick(words) : undefined };
      });
      const index = await buildHandIndex({ entities, relations });
      // Random walks as paths, plus reversed copies, rescored duplicates and odd ones.
      const paths: ScoredPath[] = [];
      let odd = false;
      const pathCount = 1 + Math.floor(random() * 60);
      for (let p = 0; p < pathCount; p += 1) {
        const nodes = [`v${Math.floor(random() * nodeCount)}`];
        const edges: string[] = [];
        const hops = Math.floor(random() * 4);
        for (let h = 0; h < hops; h += 1) {
          const at = nodes[nodes.length - 1];
          const options = relations.filter((relation) => relation.source === at || relation.target === at);
          if (options.length === 0) break;
          const relation = pick(options);
          edges.push(relation.id);
          nodes.push(relation.source === at ? relation.target : relation.source);
        }
        if (random() < 0.05) nodes.push('ghost'); // unknown node, no edge
        if (random() < 0.05) {
          edges.push(`r${Math.floor(random() * relations.length)}`); // an edge off the path
          odd = true;
        }
        const score = Math.round(random() * 20) / 20; // many exact ties
        const id = nodes.flatMap((node, i) => (i < edges.length ? [node, edges[i]] : [node])).join('|');
        const origin = random() < 0.2 ? 'connector' : 'beam';
        paths.push({ id, nodes, edges, score, terms, seed: nodes[0], origin, depth: edges.length });
        if (random() < 0.2) {
          const reversedNodes = [...nodes].reverse();
          const reversedEdges = [...edges].reverse();
          const reversedId = reversedNodes.flatMap((node, i) => (i < reversedEdges.length ? [node, reversedEdges[i]] : [node])).join('|');
          paths.push({
            id: reversedId,
            nodes: reversedNodes,
            edges: reversedEdges,
            score: Math.round(random() * 20) / 20,
            terms,
            seed: nodes[0],
            origin,
            depth: edges.length,
          });
        }
        if (random() < 0.1) paths.push({ ...paths[paths.length - 1], score: Math.round(random() * 20) / 20 });
      }
      const policy = makePolicy({
        evidenceCount: 1 + Math.floor(random() * 15),
        minEvidence: Math.floor(random() * 16),
        adaptiveFinalEvidence: random() < 0.5,
        targetEntities: random() < 0.6 ? [pick(entities).name, pick(words)] : [],
        targetFacets: random() < 0.5 ? [pick(labels), pick(words)] : [],
      });
      const seeds: Seed[] = [
        { nodeId: 'v0', name: 'v0', entityScore: 0, relationScore: 1, score: 1, query: 'q', targetIndex: 0 },
        { nodeId: pick(entities).id, name: 'x', entityScore: 0, relationScore: 1, score: 1, query: 'q', targetIndex: 1 },
      ];
      const options: EvidenceSelectorOptions = {};
      if (random() < 0.3) options.filterSize = 1 + Math.floor(random() * 12);
      if (random() < 0.3) options.scoreMargin = random() * 0.5;
      if (random() < 0.2) options.maxPaths = 1 + Math.floor(random() * 8);
      if (random() < 0.1) options.filterSize = Number.POSITIVE_INFINITY;
      // Odd rounds pin the floor L alone; even rounds fill B (the default).
      if (round % 2 === 1) options.tuning = { fillToBudget: false };
      const [queryVector] = await index.encoder.encode(['question']);
      const context = { question: { text: 'question' }, queryVector, policy };
      const { graph, calls } = countingGraph(index.graph);
      const actual = await createEvidenceSelector(options).selectEvidence({ context, index: { ...index, graph }, paths, seeds });
      // The same selection with the index's own graph (no call counting) and a fresh selector.
      expect(await createEvidenceSelector(options).selectEvidence({ context, index, paths, seeds })).toEqual(actual);
      expectSelectionProperties(actual, options);
      if (round === 0 || round === 1) readable[`round ${round} ${JSON.stringify(describeOptions(options))}`] = summaryOf(actual);
      // Graph access: one call each for the considered paths; more only for units restored from
      // beyond them, or for the endpoints of a relation that lies off its path.
      expect(calls.nodes + calls.edges).toBeLessThanOrEqual((actual.trace.restored === 0 ? 2 : 4) + (odd ? 1 : 0));
      restoredSeen += actual.trace.restored;
      unitsSeen += actual.units.length;
    }
    expect(restoredSeen).toBeGreaterThan(20);
    expect(unitsSeen).toBeGreaterThan(200);
    expect(readable).toMatchInlineSnapshot(`
      {
        "round 0 {}": [
          "candidates 8, considered 8, filtered 0, capped 4, restored 4; B 11, L 15, floor 15",
          "path 1 core v3|r4|v4|r9|v3|r4|v4 0.9500",
          "path 2 core v4|r9|v3|r5|v2|r3|v1 0.9500",
          "path 3 core v2|r7|v0 0.9000",
          "path 4 core v2|r5|v3|r8|v0|r7|v2|ghost 0.7500",
          "path 5 core v3|r0|v4|r4|v3|r0|v4 0.5500",
          "path 6 core v2|r1|v0 0.4000",
          "path 7 core v4|r0|v3|r4|v4|r4|v3 0.4000",
          "path 8 core v0|r7|v2|r2|v0 0.0500",
          "unit relation:r4 1.0000 chunks doc:r4#0",
          "unit relation:r3 0.5000 chunks doc:r3#0",
          "unit relation:r7 0.3333 chunks doc:r7#0",
          "unit relation:r8 0.2500 chunks doc:r8#0",
          "unit relation:r0 0.2000 chunks doc:r0#0",
          "unit relation:r1 0.1667 chunks doc:r1#0",
          "unit entity:v3 0.1429 chunks doc:v3#0",
          "unit relation:r2 0.1250 chunks doc:r2#0",
          "unit relation:r9 0.1111 chunks doc:r9#0",
          "unit relation:r5 0.1000 chunks doc:r5#0",
          "unit entity:v0 0.0909 chunks doc:v0#0",
          "unit entity:v4 0.0769 restored chunks doc:v4#0",
          "unit entity:v2 0.0714 restored chunks doc:v2#0",
          "unit entity:v1 0.0667 restored chunks doc:v1#0",
        ],
        "round 1 {"filterSize":12,"fillToBudget":"false"}": [
          "candidates 32, considered 12, filtered 0, capped 5, restored 10; B 1, L 11, floor 11",
          "path 1 core v15|r31|v23|r34|v20|r34|v23|r14 0.8500",
          "unit relation:r14 1.0000 chunks doc:r14#0",
          "unit relation:r34 0.5000 restored chunks doc:r34#0",
          "unit relation:r31 0.3333 restored chunks doc:r31#0",
          "unit entity:v23 0.2500 restored chunks doc:v23#0",
          "unit entity:v20 0.2000 restored chunks doc:v20#0",
          "unit entity:v15 0.1667 restored chunks doc:v15#0",
          "unit relation:r3 0.1429 restored chunks doc:r3#0",
          "unit entity:v10 0.1250 restored chunks doc:v10#0",
          "unit entity:v18 0.1111 restored chunks doc:v18#0",
          "unit relation:r45 0.1000 restored chunks doc:r45#0",
          "unit entity:v12 0.0909 restored chunks doc:v12#0",
        ],
      }
    `);
  });
});
