import { describe, expect, it } from 'vitest';
import { StageResultError } from '../errors/stage-result-error.js';
import { emptyScoreTerms, pathId, scoredPath } from './path-helpers.js';
import { traversalResult } from './traversal-result.js';

describe('helpers for stage authors', () => {
  it('scoredPath fills id, depth, seed, origin and terms', () => {
    const path = scoredPath({ nodes: ['a', 'b', 'c'], edges: ['e1', 'e2'], score: 0.5, terms: { relation: 0.9 } });
    expect(path).toEqual({
      id: 'a|e1|b|e2|c',
      nodes: ['a', 'b', 'c'],
      edges: ['e1', 'e2'],
      score: 0.5,
      terms: { ...emptyScoreTerms(), relation: 0.9 },
      seed: 'a',
      origin: 'beam',
      depth: 2,
    });
    expect(pathId(['a'], [])).toBe('a');
  });

  it('traversalResult sorts best first (ties by id) and builds a consistent trace', () => {
    const one = scoredPath({ nodes: ['a', 'b'], edges: ['e1'], score: 0.2 });
    const other = scoredPath({ nodes: ['a', 'c'], edges: ['e3'], score: 0.2 });
    const two = scoredPath({ nodes: ['a', 'b', 'd'], edges: ['e1', 'e2'], score: 0.7 });
    const { paths, trace } = traversalResult({ paths: [other, one, two], roundTrips: 2 });
    expect(paths.map((path) => path.id)).toEqual([two.id, one.id, other.id]);
    expect(trace).toMatchObject({ stopReason: 'exhausted', depthReached: 2, pathsEvaluated: 3, weights: {}, roundTrips: 2 });
    expect(trace.depths.map((depth) => [depth.depth, depth.beam.length, depth.newNodes, depth.newEdges, depth.stop])).toEqual([
      [1, 2, 3, 2, false],
      [2, 1, 1, 1, true],
    ]);
    expect(traversalResult({ paths: [] }).trace).toMatchObject({ stopReason: 'no-seeds', depthReached: 0, depths: [] });
  });

  it('StageResultError names stage, field and implementation', () => {
    const error = new StageResultError({ stage: 'traverse', field: 'paths[0].edges[1]', implementation: 'mine', message: 'edge x is not in the graph' });
    expect(StageResultError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ name: 'MosaicStageResultError', stage: 'traverse', field: 'paths[0].edges[1]', implementation: 'mine' });
  });
});
