import type { CorpusIndex, Policy, QueryContext } from '@mosaic/spec';
import { buildHandIndex, twoChapterIndexOptions } from '@mosaic/testing/hand-built-index';
import { describe, expect, it } from 'vitest';
import { createBeamTraverser } from './beam-traverser.js';
import { makePolicy } from '@mosaic/testing';
import { FeatureCache } from './path-features.js';
import { buildQuestionSignals } from './question-signals.js';

async function contextFor(index: CorpusIndex, question: string, policy: Policy): Promise<QueryContext> {
  const [queryVector] = await index.encoder.encode([question]);
  return { question: { text: question }, queryVector, policy };
}

async function fixture() {
  return buildHandIndex(twoChapterIndexOptions());
}

describe('r(e): dense, lexical and passage relevance', () => {
  it('fuses dense similarity with BM25 by λ, exactly', async () => {
    const index = await fixture();
    const context = await contextFor(index, 'Which test confirms the findings?', makePolicy());
    const dense = await buildQuestionSignals({ index, context, lexicalWeight: 0 });
    const lexical = await buildQuestionSignals({ index, context, lexicalWeight: 1 });
    const fused = await buildQuestionSignals({ index, context, lexicalWeight: 0.25 });
    for (const id of ['rc', 'rg', 'rx']) {
      const d = dense.relationScores.get(id) ?? 0;
      const l = lexical.relationScores.get(id) ?? 0;
      expect(fused.relationScores.get(id)).toBeCloseTo(0.75 * d + 0.25 * l, 12);
    }
    // BM25 is divided by the best hit: the best relation scores 1.
    expect(Math.max(...['rc', 'rg', 'rx', 'ry'].map((id) => lexical.relationScores.get(id) ?? 0))).toBeCloseTo(1, 12);
  });

  it('blends in the passage term by κ: a sentence in the chapter the question is about scores higher', async () => {
    const index = await fixture();
    const context = await contextFor(index, 'Which test confirms the findings in CML?', makePolicy());
    const signals = await buildQuestionSignals({ index, context, lexicalWeight: 1, contextWeight: 0.5 });
    expect(signals.context?.weight).toBe(0.5);
    const [rc, rg] = await index.graph.getEdges(['rc', 'rg']);
    const cmlPassage = signals.context!.of(rc);
    const gardenPassage = signals.context!.of(rg);
    expect(cmlPassage).toBeCloseTo(1, 12);
    expect(gardenPassage).toBeLessThan(cmlPassage);
    const features = new FeatureCache(signals, { hubDegree: 10, maxDegree: 3 }, new Set());
    expect(features.relationScore(rc)).toBeCloseTo(0.5 * (signals.relationScores.get('rc') ?? 0) + 0.5 * cmlPassage, 12);
    expect(features.edge(rc).relation).toBe(features.relationScore(rc));
    expect(features.relationScore(rc)).toBeGreaterThan(features.relationScore(rg));
    const off = await buildQuestionSignals({ index, context, lexicalWeight: 1, contextWeight: 0 });
    expect(off.context).toBeUndefined();
  });

  it('the traverser validates both weights and uses them by default', async () => {
    expect(() => createBeamTraverser({ tuning: { lexicalWeight: 1.5 } })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
    expect(() => createBeamTraverser({ tuning: { contextWeight: -1 } })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
    // @ts-expect-error contextWeight is a tuning option
    expect(() => createBeamTraverser({ contextWeight: 0.5 })).toThrowError(/pass it as tuning\.contextWeight/);
    // @ts-expect-error not a tuning option
    expect(() => createBeamTraverser({ tuning: { maxHubScan: 8 } })).toThrowError(/tuning\.maxHubScan/);
    const index = await fixture();
    const context = await contextFor(index, 'Which test confirms the findings in CML?', makePolicy({ maxDepth: 2, beamWidth: 4 }));
    const seeds = [{ nodeId: 'cmlNode', name: 'CML', entityScore: 1, relationScore: 1, score: 1, query: 'q' }];
    const withPassage = await createBeamTraverser().traverse({ context, index, seeds });
    const without = await createBeamTraverser({ tuning: { lexicalWeight: 0, contextWeight: 0 } }).traverse({ context, index, seeds });
    const best = (paths: typeof withPassage.paths) => paths[0].edges.join(',');
    expect(best(withPassage.paths)).toMatch(/^rx/);
    expect(withPassage.paths.find((p) => p.edges.join(',') === 'rx')!.terms.relation).toBeGreaterThan(
      without.paths.find((p) => p.edges.join(',') === 'rx')!.terms.relation,
    );
  });
});
