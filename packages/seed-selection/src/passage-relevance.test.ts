import { buildHandIndex, twoChapterIndexOptions } from '@mosaic/testing/hand-built-index';
import { describe, expect, it } from 'vitest';
import { PASSAGE_SPANS, passageRelevance } from '@mosaic/stage-utils';

describe('passageRelevance of @mosaic/stage-utils on a hand-built index (the passage term of s_rel)', () => {
  it('scores a chunk by its best window for the query (the best window scores 1) and a relation by its sentences’ chunks', async () => {
    const index = await buildHandIndex(twoChapterIndexOptions());
    const relevance = passageRelevance(index, 'Which test confirms the findings in CML?')!;
    expect(relevance.chunk('cml#0')).toBeCloseTo(1, 12);
    expect(relevance.chunk('garden#0')).toBeGreaterThan(0);
    expect(relevance.chunk('garden#0')).toBeLessThan(relevance.chunk('cml#0'));
    expect(relevance.chunk('unknown')).toBe(0);
    // Without spans, a relation's chunks; with spans, the chunks of its first PASSAGE_SPANS sentences only.
    expect(relevance.relation({ chunkIds: ['garden#0', 'cml#0'] })).toBe(relevance.chunk('cml#0'));
    const late = Array.from({ length: PASSAGE_SPANS }, () => ({ chunkId: 'garden#0', start: 0, end: 5 }));
    expect(relevance.relation({ chunkIds: ['cml#0'], spans: [...late, { chunkId: 'cml#0', start: 0, end: 5 }] })).toBe(relevance.chunk('garden#0'));
  });

  it('is undefined without a lexical window index', async () => {
    const index = await buildHandIndex({ ...twoChapterIndexOptions(), lexical: false });
    expect(passageRelevance(index, 'CML')).toBeUndefined();
  });
});
