import { describe, expect, it } from 'vitest';
import { createOfflineAnalyzer } from '@mosaic/analyzer';
import { createMosaic } from '@mosaic/pipeline';
import { FIXTURE_QUESTIONS } from '@mosaic/testing';
import { loadFixtureIndex } from '@mosaic/testing';
import { createFusionReranker, isFusionRerankTrace } from '@mosaic/window-reranker';
import { formatRetrieval } from './format-retrieval.js';

describe('formatRetrieval', () => {
  it('says how many windows the fusion reranker passed over for repeating text, and nothing when none', async () => {
    const index = await loadFixtureIndex({ documents: ['Medical'] });
    // Its two best windows by fused score are neighbours (0–1600 and 800–2400 of the Medical page).
    const question = FIXTURE_QUESTIONS.find((q) => q.id === 'Fixture-Medical-03')!;
    const retrieve = (diversity: number) =>
      createMosaic({ index, analyzer: createOfflineAnalyzer(), reranker: createFusionReranker({ tuning: { diversity } }), windows: 2 }).retrieve({
        question: { id: question.id, text: question.question },
      });
    const strong = await retrieve(0.9);
    const trace = strong.trace.rerank;
    if (!isFusionRerankTrace(trace)) throw new Error('expected the fusion trace');
    expect(trace.diversity.passedOver.length).toBeGreaterThan(0);
    expect(formatRetrieval(strong, { verbose: true })).toContain(`  (${trace.diversity.passedOver.length} of the top 2 by fused score passed over:`);
    expect(formatRetrieval(await retrieve(0), { verbose: true })).not.toContain('passed over');
  });
});
