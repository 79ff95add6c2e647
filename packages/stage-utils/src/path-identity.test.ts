import { describe, expect, it } from 'vitest';
import { canonicalPathKey, comparePaths, pathId, reversedPathId } from './path-identity.js';

describe('path identity', () => {
  it('interleaves nodes and edges, forwards and reversed', () => {
    expect(pathId(['a', 'b', 'c'], ['e1', 'e2'])).toBe('a|e1|b|e2|c');
    expect(reversedPathId(['a', 'b', 'c'], ['e1', 'e2'])).toBe('c|e2|b|e1|a');
    expect(pathId(['a'], [])).toBe('a');
  });

  it('gives a path and its reverse one key: the smaller id', () => {
    for (const [nodes, edges] of [
      [
        ['b', 'x', 'a'],
        ['e1', 'e2'],
      ],
      [
        ['ab', 'x', 'a'],
        ['e1', 'e2'],
      ],
      [
        ['a', 'x', 'a'],
        ['e2', 'e1'],
      ],
    ] as const) {
      const forward = pathId(nodes, edges);
      const backward = reversedPathId(nodes, edges);
      const expected = forward <= backward ? forward : backward;
      expect(canonicalPathKey(nodes, edges)).toBe(expected);
      expect(canonicalPathKey([...nodes].reverse(), [...edges].reverse())).toBe(expected);
    }
  });

  it('orders paths by score descending, then id ascending', () => {
    const paths = [
      { id: 'b', score: 1 },
      { id: 'a', score: 1 },
      { id: 'c', score: 2 },
    ];
    expect(paths.sort(comparePaths).map((path) => path.id)).toEqual(['c', 'a', 'b']);
  });
});
