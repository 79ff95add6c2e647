import type { CorpusIndex, Traversal } from '@mosaic/spec';
import type { HandBuiltIndex } from '@mosaic/testing/hand-built-index';
import { createFaissVectorIndex } from '@mosaic/vector-index';
import { describe, expect, it } from 'vitest';
import { createBeamTraverser, type BeamTraversalTrace } from './beam-traverser.js';
import { buildQuestionSignals, type IndexVectorAccessors } from './question-signals.js';
import { randomCase } from './random-cases.test-support.js';

/** The hand index on exact faiss (Flat) indexes, with and without the stored-vector accessors. */
async function onFaiss(index: HandBuiltIndex): Promise<{ searched: CorpusIndex; stored: CorpusIndex & IndexVectorAccessors }> {
  const entityVectors = await index.encoder.encode(index.entityTexts);
  const relationVectors = await index.encoder.encode(index.relationTexts);
  const entityIndex = createFaissVectorIndex({ dimension: index.encoder.dimension });
  const relationIndex = createFaissVectorIndex({ dimension: index.encoder.dimension });
  await entityIndex.add(entityVectors);
  await relationIndex.add(relationVectors);
  const searched: CorpusIndex = { ...index, entityIndex, relationIndex };
  const byId = (ids: readonly string[], vectors: Float32Array[]) => {
    const rows = new Map(ids.map((id, row) => [id, vectors[row]]));
    return (id: string) => rows.get(id);
  };
  return {
    searched,
    stored: { ...searched, entityVector: byId(index.entityIds, entityVectors), relationVector: byId(index.relationIds, relationVectors) },
  };
}

/** What a golden file records of a traversal: path ids, rounded scores, the per-depth beam and the stop. */
function goldenOf(result: Traversal<BeamTraversalTrace>): unknown {
  const trace = result.trace;
  return {
    paths: result.paths.map((path) => `${path.id} ${rounded(path.score)} ${path.origin} d${path.depth} from ${path.seed}`),
    stopReason: trace.stopReason,
    depthReached: trace.depthReached,
    pathsEvaluated: trace.pathsEvaluated,
    roundTrips: trace.roundTrips,
    graphCalls: trace.graphCalls,
    depths: trace.depths.map((depth) => ({
      depth: depth.depth,
      candidates: depth.candidates,
      connectorCandidates: depth.connectorCandidates,
      beam: depth.beam.map((path) => `${path.id} ${rounded(path.score)}`),
      gain: rounded(depth.gain),
      completeness: rounded(depth.completeness),
      newNodes: depth.newNodes,
      newEdges: depth.newEdges,
      stop: depth.stop,
      coveredTargets: depth.coveredTargets,
      coveredFacets: depth.coveredFacets,
      grown: depth.grown,
      neighborsCut: depth.neighborsCut,
    })),
  };
}

/** Nine decimals: a change in scoring shows, a change in the order of float additions does not. */
function rounded(value: number): string {
  return value.toFixed(9);
}

const golden = (cases: unknown[]): string => `${JSON.stringify(cases, null, 1)}\n`;

describe('golden outputs: paths, scores and stops on seeded random graphs', () => {
  // The files under __golden__ were recorded from the traverser; an intended change of scoring
  // is re-recorded with `vitest run -u` and reviewed in the diff.
  it('whole-index search mode, one traverser (shared text cache) per option set', async () => {
    const traversers = new Map<string, ReturnType<typeof createBeamTraverser>>();
    const cases: unknown[] = [];
    let compared = 0;
    for (let round = 0; round < 40; round += 1) {
      const { index, policy, seeds, question, options } = await randomCase(round);
      const key = JSON.stringify(options);
      if (!traversers.has(key)) traversers.set(key, createBeamTraverser(options));
      const [queryVector] = await index.encoder.encode([question]);
      const context = { question: { text: question }, queryVector, policy };
      const result = await traversers.get(key)!.traverse({ context, index, seeds });
      // A traverser of its own (a cold text cache) gives the same result.
      expect(await createBeamTraverser(options).traverse({ context, index, seeds })).toEqual(result);
      cases.push({ round, options, ...(goldenOf(result) as object) });
      compared += result.paths.length;
    }
    expect(compared).toBeGreaterThan(500);
    await expect(golden(cases)).toMatchFileSnapshot('./__golden__/search-mode.json');
  });

  it('stored-vector mode equals whole-index search on the same faiss (Flat) indexes, and its golden file', async () => {
    const traverser = createBeamTraverser();
    const cases: unknown[] = [];
    let compared = 0;
    for (let round = 0; round < 25; round += 1) {
      const { index, policy, seeds, question } = await randomCase(100 + round);
      const { searched, stored } = await onFaiss(index);
      const [queryVector] = await index.encoder.encode([question]);
      const context = { question: { text: question }, queryVector, policy };
      const viaSearch = await createBeamTraverser().traverse({ context, index: searched, seeds });
      const actual = await traverser.traverse({ context, index: stored, seeds });
      expect(actual.trace.indexSearches).toBe(0);
      expect(viaSearch.trace.indexSearches).toBeGreaterThan(0);
      expect(actual.paths).toEqual(viaSearch.paths);
      expect(goldenOf(actual)).toEqual(goldenOf(viaSearch));
      cases.push({ round: 100 + round, ...(goldenOf(actual) as object) });
      compared += actual.paths.length;
    }
    expect(compared).toBeGreaterThan(300);
    await expect(golden(cases)).toMatchFileSnapshot('./__golden__/stored-vector-mode.json');
  });

  it('stored-vector similarities equal faiss inner products bit for bit; search mode counts its index searches', async () => {
    const { index, policy } = await randomCase(300);
    const { searched, stored } = await onFaiss(index);
    const [queryVector] = await index.encoder.encode(['heart treats fever']);
    const withTargets = { ...policy, targetEntities: ['heart lung', 'fever'], targetFacets: ['treats'] };
    const context = { question: { text: 'heart treats fever' }, queryVector, policy: withTargets };
    const viaSearch = await buildQuestionSignals({ index: searched, context });
    const viaVectors = await buildQuestionSignals({ index: stored, context });
    expect(viaSearch.indexSearches).toBe(2 + 2 + 1);
    expect(viaVectors.indexSearches).toBe(0);
    for (const id of index.relationIds) {
      expect(viaVectors.relationScores.get(id)).toBe(viaSearch.relationScores.get(id));
      expect(viaVectors.facets[0].dense.get(id)).toBe(viaSearch.facets[0].dense.get(id));
    }
    for (const id of index.entityIds) {
      expect(viaVectors.entityScores.get(id)).toBe(viaSearch.entityScores.get(id));
      for (let t = 0; t < 2; t += 1) expect(viaVectors.targets[t].dense.get(id)).toBe(viaSearch.targets[t].dense.get(id));
    }
    expect(viaVectors.relationScores.get('no-such-relation')).toBeUndefined();
    // Unused question × entity search skipped when targets exist.
    const skipped = await buildQuestionSignals({ index: searched, context, skipUnusedEntityScores: true });
    expect(skipped.indexSearches).toBe(1 + 2 + 1);
    // A search cap keeps the search semantics even when vectors are stored.
    const capped = await buildQuestionSignals({ index: stored, context, searchLimit: 3 });
    expect(capped.indexSearches).toBe(5);
  });
});
