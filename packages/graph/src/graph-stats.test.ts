import { describe, expect, it } from 'vitest';
import { computeGraphStats } from './graph-stats.js';
import { createKnowledgeGraph } from './graphology-graph-store.js';

const node = (name: string, questionLike = false) => ({ name, aliases: [], type: 'CONCEPT', description: '', chunkIds: [], questionLike });
const edge = { label: 'r', keywords: [], description: '', chunkIds: [] };

describe('computeGraphStats', () => {
  it('counts nodes, edges, mean degree, hubs and components', () => {
    const g = createKnowledgeGraph();
    g.addNode('hub', node('hub'));
    for (let i = 0; i < 20; i++) {
      g.addNode(`n${i}`, node(`n${i}`, i === 0));
      g.addEdgeWithKey(`e${i}`, 'hub', `n${i}`, edge);
    }
    g.addNode('x', node('x'));
    g.addNode('y', node('y'));
    g.addEdgeWithKey('exy', 'x', 'y', edge);
    g.addNode('lonely', node('lonely'));
    const stats = computeGraphStats({ graph: g });
    expect(stats.nodes).toBe(24);
    expect(stats.edges).toBe(21);
    expect(stats.meanDegree).toBeCloseTo(42 / 24);
    expect(stats.maxDegree).toBe(20);
    expect(stats.hubDegree).toBe(3);
    expect(stats.hubShare).toBeCloseTo(1 / 24);
    expect(stats.isolatedNodes).toBe(1);
    expect(stats.components).toBe(3);
    expect(stats.largestComponentShare).toBeCloseTo(21 / 24);
    expect(stats.questionLikeNodes).toBe(1);
  });

  it('handles the empty graph', () => {
    expect(computeGraphStats({ graph: createKnowledgeGraph() })).toMatchObject({ nodes: 0, meanDegree: 0, hubShare: 0, components: 0 });
  });
});
