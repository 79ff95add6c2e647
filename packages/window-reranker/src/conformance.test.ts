import { createBiEncoderReranker } from './bi-encoder-reranker.js';
import { checkWindowRerankerConformance } from './conformance.js';
import { createFusionReranker } from './fusion-reranker.js';
import { createRerankerFixture } from './conformance-fixture.js';
import { describe, expect, it } from 'vitest';
import { createHybridReranker } from './hybrid-reranker.js';

describe('checkWindowRerankerConformance on the reranker fixture (more windows than the stage fixture)', () => {
  it.each([
    ['bi-encoder', () => createBiEncoderReranker(), {}],
    ['bi-encoder over windowIndex (no windowVector)', () => createBiEncoderReranker(), { windowVectors: false }],
    ['bi-encoder cutting chunks', () => createBiEncoderReranker({ cutChunks: { size: 120, stride: 60 } }), {}],
    ['hybrid', () => createHybridReranker({ lexicalWeight: 0.3 }), {}],
  ] as const)('%s passes', async (_name, create, fixtureOptions) => {
    const report = await checkWindowRerankerConformance({ reranker: create(), fixture: await createRerankerFixture(fixtureOptions) });
    expect(report.failures).toEqual([]);
  });
});

describe('checkWindowRerankerConformance on the stage fixture of @mosaic/testing', () => {
  it('passes the built-in rerankers', async () => {
    for (const [reranker, allowWindowsWithoutEvidence] of [
      [createBiEncoderReranker(), false],
      [createHybridReranker({ lexicalWeight: 0.3 }), false],
      [createFusionReranker(), true],
    ] as const) {
      const report = await checkWindowRerankerConformance({ reranker, allowWindowsWithoutEvidence });
      expect(report.failures, reranker.id).toEqual([]);
      expect(report.checks).toHaveLength(8);
    }
  });

  it('fails a reranker that sorts worst first and ignores topN', async () => {
    const real = createBiEncoderReranker();
    const report = await checkWindowRerankerConformance({
      reranker: {
        specificationVersion: 'v1',
        id: 'reversed',
        async rerank(options) {
          const result = await real.rerank({ ...options, topN: 1000 });
          const windows = [...result.windows].reverse();
          return { windows, trace: { ...result.trace, windows } };
        },
      },
    });
    expect(report.checks.filter((check) => !check.passed).map((check) => check.name)).toEqual(
      expect.arrayContaining(['returns windows best first, with unique ids and finite scores, inputs untouched', 'respects topN']),
    );
  });
});
