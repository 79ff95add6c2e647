import { describe, expect, it } from 'vitest';
import { layoutSubgraph } from './subgraph-layout.js';

const radius = (p: { x: number; y: number }) => Math.hypot(p.x, p.y);

describe('layoutSubgraph', () => {
  const nodes = [
    { id: 's1', depth: 0, seedRank: 1 },
    { id: 's2', depth: 0, seedRank: 2 },
    { id: 's3', depth: 0, seedRank: 3 },
    { id: 'a', depth: 1 },
    { id: 'b', depth: 1 },
    { id: 'c', depth: 2 },
    { id: 'd', depth: 2 },
    { id: 'e', depth: 2 },
  ];
  const edges = [
    { source: 's1', target: 'a' },
    { source: 's2', target: 'b' },
    { source: 'a', target: 'c' },
    { source: 'b', target: 'd' },
    { source: 'b', target: 'e' },
  ];

  it('puts seeds on the inner ring and each depth on a wider ring', () => {
    const positions = layoutSubgraph({ nodes, edges });
    expect(positions.size).toBe(nodes.length);
    const ringOf = (depth: number) => nodes.filter((n) => n.depth === depth).map((n) => radius(positions.get(n.id)!));
    const [seeds, one, two] = [ringOf(0), ringOf(1), ringOf(2)];
    for (const ring of [seeds, one, two]) for (const r of ring) expect(r).toBeCloseTo(ring[0]!, 9);
    expect(one[0]!).toBeGreaterThan(seeds[0]! + 0.79);
    expect(two[0]!).toBeGreaterThan(one[0]! + 0.79);
  });

  it('places a node near the seed it grew from and keeps ring neighbours apart', () => {
    const positions = layoutSubgraph({ nodes, edges });
    const angle = (id: string) => Math.atan2(positions.get(id)!.y, positions.get(id)!.x);
    const gap = (x: number, y: number) => Math.abs(Math.atan2(Math.sin(x - y), Math.cos(x - y)));
    expect(gap(angle('a'), angle('s1'))).toBeLessThan(gap(angle('a'), angle('s2')));
    expect(gap(angle('b'), angle('s2'))).toBeLessThan(gap(angle('b'), angle('s1')));
    const ids = [...positions.keys()];
    for (const x of ids)
      for (const y of ids)
        if (x < y) expect(Math.hypot(positions.get(x)!.x - positions.get(y)!.x, positions.get(x)!.y - positions.get(y)!.y)).toBeGreaterThan(0.5);
  });

  it('is deterministic and centres a lone seed', () => {
    const forward = layoutSubgraph({ nodes, edges });
    const reversed = layoutSubgraph({ nodes: [...nodes].reverse(), edges: [...edges].reverse() });
    for (const [id, p] of forward) expect(reversed.get(id)).toEqual(p);
    const lone = layoutSubgraph({
      nodes: [
        { id: 's', depth: 0, seedRank: 1 },
        { id: 'x', depth: 1 },
      ],
      edges: [{ source: 's', target: 'x' }],
    });
    expect(radius(lone.get('s')!)).toBe(0);
    expect(radius(lone.get('x')!)).toBeCloseTo(0.8, 9);
  });
});
