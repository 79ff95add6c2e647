import type { EntityNode, RelationEdge } from '@mosaic/spec';
import { matchTokens } from '@mosaic/stage-utils';
import { describe, expect, it } from 'vitest';
import { TextFeaturesCache } from './text-features-cache.js';

describe('TextFeaturesCache', () => {
  const node = (description: string, aliases: string[] = []): EntityNode => ({
    id: 'n1',
    name: 'Heart Attack',
    aliases,
    type: 'CONCEPT',
    description,
    chunkIds: [],
    degree: 1,
    questionLike: false,
  });
  const edge = (label: string, keywords: string[], chunkIds: string[]): RelationEdge => ({
    id: 'e1',
    source: 'a',
    target: 'b',
    label,
    keywords,
    description: 'treats pain',
    chunkIds,
  });

  it('reuses an entry only while the texts are unchanged', () => {
    const cache = new TextFeaturesCache();
    const first = cache.node(node('blocked arteries'));
    expect(cache.node(node('blocked arteries'))).toBe(first);
    const changed = cache.node(node('chest pains'));
    expect(changed).not.toBe(first);
    expect([...changed.descriptive]).toEqual(['heart', 'attack', 'chest', 'pain']);
    expect(cache.node(node('chest pains', ['infarction'])).nameTokenSets.map((set) => [...set])).toEqual([['heart', 'attack'], ['infarction']]);

    const relation = cache.edge(edge('treats', ['drug'], ['c1']));
    expect(cache.edge(edge('treats', ['drug'], ['c1']))).toBe(relation);
    expect([...relation.tokens]).toEqual(['treat', 'drug']);
    expect(cache.edge(edge('treats', ['drug'], ['c2'])).chunkIds).toEqual(new Set(['c2']));
    expect([...cache.edge(edge('cures', ['drug'], ['c2'])).tokens]).toEqual(['cure', 'drug']);
  });

  it("tokenizes a description when its tokens are first read, as the whole text's tokens, once", () => {
    const cache = new TextFeaturesCache();
    const features = cache.node(node('Blocked coronary arteries, and chest pains', ['MI']));
    expect(features.descriptive).toEqual(new Set(matchTokens('Heart Attack Blocked coronary arteries, and chest pains')));
    expect(features.descriptive).toBe(features.descriptive);
    const relation = cache.edge({ ...edge('treats', ['drug', 'Pain relief'], ['c1']), description: 'Aspirin relieves headaches quickly' });
    expect(relation.textTokens).toEqual(new Set(matchTokens('treats drug Pain relief Aspirin relieves headaches quickly')));
    expect(relation.tokens).toEqual(new Set(matchTokens('treats drug Pain relief')));
    expect(relation.textTokens).toBe(relation.textTokens);
    // Without keywords or a description: the label's tokens.
    const bare = cache.edge({ ...edge('cures', [], ['c1']), id: 'e2', description: '' });
    expect([...bare.textTokens]).toEqual(['cure']);
    expect([...bare.tokens]).toEqual(['cure']);
  });

  it('is bounded: it starts again once full', () => {
    const cache = new TextFeaturesCache({ maxEntries: 2 });
    for (let i = 0; i < 5; i += 1) cache.node({ ...node('x'), id: `n${i}` });
    expect(cache.size).toBeLessThanOrEqual(2);
  });
});
