import { createBiEncoderReranker } from './bi-encoder-reranker.js';
import { checkWindowRerankerConformance } from './conformance.js';
import { createFusionReranker } from './fusion-reranker.js';
import { createRerankerFixture, runWindowRerankerConformance } from './conformance-vitest.js';
import { describe, expect, it } from 'vitest';
import { createHybridReranker } from './hybrid-reranker.js';

runWindowRerankerConformance({ name: 'bi-encoder', create: () => createBiEncoderReranker() });
runWindowRerankerConformance({
  name: 'bi-encoder over windowIndex (no windowVector)',
  create: () => createBiEncoderReranker(),
  fixture: () => createRerankerFixture({ windowVectors: false }),
});
runWindowRerankerConformance({ name: 'bi-encoder cutting chunks', create: () => createBiEncoderReranker({ cutChunks: { size: 120, stride: 60 } }) });
runWindowRerankerConformance({ name: 'hybrid', create: () => createHybridReranker({ lexicalWeight: 0.3 }) });

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
