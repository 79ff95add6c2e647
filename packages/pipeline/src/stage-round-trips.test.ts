import type { CorpusIndex, GraphStore } from '@mosaic/spec';
import { describe, expect, it } from 'vitest';
import { buildMedicalIndex } from './__fixtures__/medical-index.js';
import { createMosaic } from './create-mosaic.js';

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
