import type { CorpusIndex, GraphStore } from '@mosaic/spec';
import { describe, expect, it } from 'vitest';
import { buildMedicalIndex } from './__fixtures__/medical-index.js';
import { createMosaic } from './create-mosaic.js';
import { createSeedSelector } from '@mosaic/seed-selection';
import { createBeamTraverser } from '@mosaic/traversal';
import { createEvidenceSelector } from '@mosaic/evidence-selection';
import { createFusionReranker } from '@mosaic/window-reranker';

/** The fixture index behind a graph store that counts every call as one request, like a database-backed index. */
async function countingIndex(): Promise<{ index: CorpusIndex; calls: string[] }> {
  const base = await buildMedicalIndex();
  const calls: string[] = [];
  const graph: GraphStore = {
    specificationVersion: 'v1',
    nodeCount: base.graph.nodeCount,
    edgeCount: base.graph.edgeCount,
    hubDegree: base.graph.hubDegree,
    maxDegree: base.graph.maxDegree,
    getNodes: (ids) => (calls.push('getNodes'), base.graph.getNodes(ids)),
    getEdges: (ids) => (calls.push('getEdges'), base.graph.getEdges(ids)),
    neighbors: (ids) => (calls.push('neighbors'), base.graph.neighbors(ids)),
  };
  const index: CorpusIndex = {
    ...base,
    graph,
    get roundTrips() {
      return calls.length;
    },
  };
  return { index, calls };
}

describe('round trips per stage', () => {
  it('traces the requests each stage sent when the index counts them', async () => {
    const { index, calls } = await countingIndex();
    const mosaic = createMosaic({ index });
    const before = calls.length;
    const result = await mosaic.retrieve({ question: 'Which drug treats the condition caused by veltrane dust?' });
    const trips = result.trace.roundTrips!;
    expect(trips.total).toBe(calls.length - before);
    expect(trips.total).toBe(trips.analyze + trips.seeds + trips.traverse + trips.evidence + trips.rerank);
    expect(trips.seeds).toBeGreaterThan(0);
    // The traverser's own count (neighbour batches) is part of what it sent.
    expect(trips.traverse).toBeGreaterThanOrEqual(result.trace.traversal.roundTrips);
    expect(result.trace.traversal.roundTrips).toBeGreaterThan(0);
    // With the graph off, the graph stages send nothing.
    const off = await mosaic.retrieve({ question: 'Which drug treats the condition caused by veltrane dust?', graph: false });
    expect([off.trace.roundTrips!.seeds, off.trace.roundTrips!.traverse, off.trace.roundTrips!.evidence]).toEqual([0, 0, 0]);
  });

  it('leaves them out for an index that does not count requests', async () => {
    const result = await createMosaic({ index: await buildMedicalIndex() }).retrieve({ question: 'What does calditrex treat?' });
    expect(result.trace.roundTrips).toBeUndefined();
  });
});

describe('a view of the index per retrieval', () => {
  it('asks the index for one view per question and gives it to every stage', async () => {
    const base = await buildMedicalIndex();
    const views: CorpusIndex[] = [];
    const seen = new Set<CorpusIndex>();
    const viewed = (): CorpusIndex => {
      const graph: GraphStore = {
        ...base.graph,
        specificationVersion: 'v1',
        nodeCount: base.graph.nodeCount,
        edgeCount: base.graph.edgeCount,
        hubDegree: base.graph.hubDegree,
        maxDegree: base.graph.maxDegree,
        getNodes: (ids) => base.graph.getNodes(ids),
        getEdges: (ids) => base.graph.getEdges(ids),
        neighbors: (ids) => base.graph.neighbors(ids),
      };
      const view: CorpusIndex = { ...base, graph };
      views.push(view);
      return view;
    };
    const index: CorpusIndex = { ...base, forRetrieval: viewed };
    const spy = <T extends object>(stage: T, method: keyof T): T =>
      ({
        ...stage,
        [method]: (options: { index: CorpusIndex }) => {
          seen.add(options.index);
          return (stage[method] as (o: unknown) => unknown)(options);
        },
      }) as T;
    const mosaic = createMosaic({
      index,
      seedSelector: spy(createSeedSelector(), 'selectSeeds'),
      traverser: spy(createBeamTraverser(), 'traverse'),
      evidenceSelector: spy(createEvidenceSelector(), 'selectEvidence'),
      reranker: spy(createFusionReranker(), 'rerank'),
    });
    await mosaic.retrieve({ question: 'Which drug treats the condition caused by veltrane dust?' });
    expect(views).toHaveLength(1);
    expect([...seen]).toEqual([views[0]]);
    await mosaic.retrieve({ question: 'What does calditrex treat?' });
    expect(views).toHaveLength(2);
  });
});
