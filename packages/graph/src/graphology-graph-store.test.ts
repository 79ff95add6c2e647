import { describe, expect, it } from 'vitest';
import { GraphologyGraphStore, createKnowledgeGraph } from './graphology-graph-store.js';

function entity(name: string) {
  return { name, aliases: [], type: 'CONCEPT', description: '', chunkIds: ['c1'], questionLike: false };
}

describe('GraphologyGraphStore', () => {
  it('returns nodes with degree, edges, and neighbours in both directions sorted by edge id', async () => {
    const g = createKnowledgeGraph();
    for (const n of ['a', 'b', 'c']) g.addNode(n, entity(n.toUpperCase()));
    g.addEdgeWithKey('e2', 'a', 'b', { label: 'causes', keywords: [], description: '', chunkIds: ['c1'] });
    g.addEdgeWithKey('e1', 'c', 'a', { label: 'treats', keywords: [], description: '', chunkIds: ['c1'] });
    const store = new GraphologyGraphStore({ graph: g });
    const [a] = await store.getNodes(['a', 'missing']);
    expect(a).toMatchObject({ id: 'a', name: 'A', degree: 2 });
    const nb = await store.neighbors(['a', 'b']);
    expect(nb.get('a')!.map((n) => [n.edge.id, n.node])).toEqual([
      ['e1', 'c'],
      ['e2', 'b'],
    ]);
    expect(nb.get('b')!.map((n) => n.node)).toEqual(['a']);
    expect((await store.getEdges(['e1']))[0]).toMatchObject({ source: 'c', target: 'a', label: 'treats' });
    expect(store.maxDegree).toBe(2);
    expect(store.nodeCount).toBe(3);
    expect(store.edgeCount).toBe(2);
  });

  it('marks the top degrees as hubs but never below degree 3', () => {
    const g = createKnowledgeGraph();
    g.addNode('hub', entity('hub'));
    for (let i = 0; i < 40; i++) {
      g.addNode(`n${i}`, entity(`n${i}`));
      g.addEdgeWithKey(`e${i}`, 'hub', `n${i}`, { label: 'has', keywords: [], description: '', chunkIds: [] });
    }
    const store = new GraphologyGraphStore({ graph: g });
    expect(store.hubDegree).toBe(3);
    expect(store.maxDegree).toBe(40);
  });
});
