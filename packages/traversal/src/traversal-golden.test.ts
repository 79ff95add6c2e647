import type { CorpusIndex, Policy, Traversal } from '@mosaic/spec';
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

/** A readable summary of a traversal: path ids with scores at four decimals, and how it stopped. */
function summaryOf(result: Traversal<BeamTraversalTrace>, top = 5): string[] {
  const trace = result.trace;
  return [
    `stop ${trace.stopReason} at depth ${trace.depthReached} after ${trace.pathsEvaluated} paths`,
    ...trace.depths.map((depth) => `d${depth.depth} beam ${depth.beam.length} gain ${depth.gain.toFixed(4)} completeness ${depth.completeness.toFixed(4)}`),
    ...result.paths.slice(0, top).map((path) => `${path.id} ${path.score.toFixed(4)} ${path.origin} d${path.depth}`),
  ];
}

/** Properties of one traversal that hold for every policy, graph and option set. */
function expectTraversalProperties(result: Traversal<BeamTraversalTrace>, policy: Policy): void {
  const { paths, trace } = result;
  // Paths best first, each once.
  for (let i = 1; i < paths.length; i += 1) expect(paths[i - 1].score).toBeGreaterThanOrEqual(paths[i].score);
  expect(new Set(paths.map((path) => path.id)).size).toBe(paths.length);
  // Beam width W and depth cap.
  for (const depth of trace.depths) expect(depth.beam.length).toBeLessThanOrEqual(policy.beamWidth);
  expect(trace.depthReached).toBeLessThanOrEqual(policy.maxDepth);
  expect(trace.depths.length).toBeLessThanOrEqual(policy.maxDepth);
  // Equation (9)'s stop rule: from depth 2, stop when g_d ≤ ε and c_d ≥ the completeness threshold
  // (unless the depth is fixed); so no earlier depth met it, and a low-gain stop's last depth did.
  const meetsLowGain = (depth: (typeof trace.depths)[number]) =>
    !policy.fixedDepth && depth.depth >= 2 && depth.gain <= trace.stopThreshold && depth.completeness >= trace.completenessThreshold;
  trace.depths.slice(0, -1).forEach((depth) => {
    expect(depth.stop).toBe(false);
    expect(meetsLowGain(depth)).toBe(false);
  });
  const last = trace.depths.at(-1);
  if (trace.stopReason === 'low-gain') expect(last && meetsLowGain(last)).toBe(true);
  if (trace.stopReason === 'max-depth') expect(last?.depth).toBe(policy.maxDepth);
  for (const depth of trace.depths) {
    expect(depth.completeness).toBeGreaterThanOrEqual(0);
    expect(depth.completeness).toBeLessThanOrEqual(1);
    expect(depth.gain).toBeGreaterThanOrEqual(0);
  }
}

describe('traversals on seeded random graphs: properties, both vector modes, and a few readable cases', () => {
  it('whole-index search mode: the stop rule, W and the depth cap hold; a shared or a cold traverser gives the same result', async () => {
    const traversers = new Map<string, ReturnType<typeof createBeamTraverser>>();
    const reasons = new Set<string>();
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
      expectTraversalProperties(result, policy);
      reasons.add(result.trace.stopReason);
      compared += result.paths.length;
    }
    expect(compared).toBeGreaterThan(500);
    expect([...reasons].sort()).toEqual(['low-gain', 'max-depth']);
  });

  it('stored-vector mode equals whole-index search on the same faiss (Flat) indexes', async () => {
    const traverser = createBeamTraverser();
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
      expect(actual.trace.depths).toEqual(viaSearch.trace.depths);
      expectTraversalProperties(actual, policy);
      compared += actual.paths.length;
    }
    expect(compared).toBeGreaterThan(300);
  });

  // Three cases written out (scores at four decimals): a change of scoring shows here, in a diff one
  // can read; the properties above cover the rest. Re-record an intended change with `vitest run -u`.
  it('readable cases: a depth-capped search, a low-gain stop, and a low-gain stop on a lexical (BM25) graph', async () => {
    const summaries: Record<string, string[]> = {};
    for (const round of [0, 1, 5]) {
      const { index, policy, seeds, question, options } = await randomCase(round);
      const [queryVector] = await index.encoder.encode([question]);
      const result = await createBeamTraverser(options).traverse({ context: { question: { text: question }, queryVector, policy }, index, seeds });
      summaries[`round ${round}: W ${policy.beamWidth}, depth ≤ ${policy.maxDepth}, ${policy.stopRegime}`] = summaryOf(result);
    }
    expect(summaries).toMatchInlineSnapshot(`
      {
        "round 0: W 6, depth ≤ 3, deep": [
          "stop max-depth at depth 3 after 18 paths",
          "d1 beam 6 gain 3.0000 completeness 1.0000",
          "d2 beam 6 gain 0.7500 completeness 1.0000",
          "d3 beam 6 gain 0.3214 completeness 1.0000",
          "v0|r20|v11|r28|v26 0.8920 beam d2",
          "v0|r20|v11 0.8057 beam d1",
          "v0|r9|v5 0.7281 beam d1",
          "v0|r20|v11|r28|v26|r18|v7 0.6518 beam d3",
          "v0|r9|v5|r10|v31 0.4751 beam d2",
        ],
        "round 1: W 3, depth ≤ 3, shallow": [
          "stop low-gain at depth 2 after 53 paths",
          "d1 beam 3 gain 1.5000 completeness 1.0000",
          "d2 beam 3 gain 0.6000 completeness 1.0000",
          "v11|r20|v21 0.8296 beam d1",
          "v11|r32|v14|r3|v15 0.6680 beam d2",
          "v11|r32|v14 0.5994 beam d1",
          "v10|r25|v19 0.5976 beam d1",
          "v11|r33|v21 0.5873 beam d1",
        ],
        "round 5: W 6, depth ≤ 4, deep": [
          "stop low-gain at depth 3 after 27 paths",
          "d1 beam 5 gain 5.0000 completeness 1.0000",
          "d2 beam 6 gain 0.5000 completeness 1.0000",
          "d3 beam 6 gain 0.0556 completeness 1.0000",
          "v0|r17|v8 0.7538 beam d1",
          "v0|r8|v4 0.7496 beam d1",
          "v0|r5|v1 0.7063 beam d1",
          "v3|r7|v2|r2|v0 0.6389 beam d2",
          "v3|r7|v2|r10|v0 0.6379 beam d2",
        ],
      }
    `);
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
