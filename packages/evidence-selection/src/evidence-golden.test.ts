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

/** What a golden file records of a selection: paths with roles, units with provenance, the trace's counts. */
function goldenOf(result: EvidenceSelection<EvidenceSelectionTrace>): unknown {
  const { selected, units, ...trace } = result.trace;
  expect(selected).toEqual(result.paths);
  expect(units).toEqual(result.units);
  return {
    paths: result.paths.map((path) => `${path.rank} ${path.role} ${path.id} ${path.score.toFixed(9)}`),
    units: result.units.map((unit) => ({
      unit: `${unit.id} ${unit.score.toFixed(9)}${unit.restored ? ' restored' : ''}`,
      text: unit.text,
      chunks: unit.chunkIds,
      paths: unit.pathIds,
    })),
    trace,
  };
}

/** JSON has no Infinity. */
function describeOptions(options: EvidenceSelectorOptions): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options).map(([key, value]) => [key, Number.isFinite(value) ? value : String(value)]));
}

describe('golden outputs: selections, units and traces on seeded random path sets', () => {
  // __golden__/selections.json was recorded from the selector; an intended change is re-recorded
  // with `vitest run -u` and reviewed in the diff.
  it('floors, caps, margins, reversed and rescored duplicates, odd paths', async () => {
    const cases: unknown[] = [];
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
      if (round % 2 === 1) options.fillToBudget = false;
      const [queryVector] = await index.encoder.encode(['question']);
      const context = { question: { text: 'question' }, queryVector, policy };
      const { graph, calls } = countingGraph(index.graph);
      const actual = await createEvidenceSelector(options).selectEvidence({ context, index: { ...index, graph }, paths, seeds });
      // The same selection with the index's own graph (no call counting) and a fresh selector.
      expect(await createEvidenceSelector(options).selectEvidence({ context, index, paths, seeds })).toEqual(actual);
      cases.push({ round, options: describeOptions(options), ...(goldenOf(actual) as object) });
      // Graph access: one call each for the considered paths; more only for units restored from
      // beyond them, or for the endpoints of a relation that lies off its path.
      expect(calls.nodes + calls.edges).toBeLessThanOrEqual((actual.trace.restored === 0 ? 2 : 4) + (odd ? 1 : 0));
      restoredSeen += actual.trace.restored;
      unitsSeen += actual.units.length;
    }
    expect(restoredSeen).toBeGreaterThan(20);
    expect(unitsSeen).toBeGreaterThan(200);
    await expect(`${JSON.stringify(cases, null, 1)}\n`).toMatchFileSnapshot('./__golden__/selections.json');
  });
});
