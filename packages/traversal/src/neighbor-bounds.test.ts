import type { Neighbor } from '@mosaic/spec';
import { makePolicy } from '@mosaic/testing';
import { describe, expect, it } from 'vitest';
import { bestNeighbors } from './frontier.js';
import { BOUND_TABLE_MIN, NeighborBoundTables } from './neighbor-bounds.js';
import { FeatureCache } from './path-features.js';
import { buildQuestionSignals } from './question-signals.js';
import { SIZE, hubIndex } from './hub-index.test-support.js';

describe('relationScoreBounds with NeighborBoundTables', () => {
  it('gives every relation of a hub the bound relationScoreBound gives it, question after question, from one table per list', async () => {
    const index = await hubIndex();
    const list = (await index.graph.neighbors(['H'])).get('H')!;
    expect(list.length).toBeGreaterThanOrEqual(BOUND_TABLE_MIN);
    const tables = new NeighborBoundTables();
    const graphInfo = { hubDegree: 10, maxDegree: SIZE };
    for (const question of ['What cures fever in children?', 'Which ships use the harbour?', 'What heals wounds slowly?']) {
      const [queryVector] = await index.encoder.encode([question]);
      const context = { question: { text: question }, queryVector, policy: makePolicy() };
      for (const weights of [
        { lexicalWeight: 0.8, contextWeight: 0.5 },
        { lexicalWeight: 0.5, contextWeight: 0 },
      ]) {
        const signals = await buildQuestionSignals({ index, context, ...weights });
        expect(signals.relationScores.labelBounds?.()).toBeDefined();
        const reference = new FeatureCache(signals, graphInfo, new Set());
        const features = new FeatureCache(signals, graphInfo, new Set(), undefined, undefined, tables);
        // A relation already scored exactly gives its score, as relationScoreBound does.
        features.relationScore(list[3].edge);
        reference.relationScore(list[3].edge);
        const bounds = new Float64Array(list.length);
        features.relationScoreBounds(list, bounds);
        const expected = list.map((neighbor) => reference.relationScoreBound(neighbor.edge));
        expect([...bounds]).toEqual(expected);
        // The bounds are not all alike: the table carries each relation's own label and passages.
        expect(new Set(expected).size).toBeGreaterThan(2);
        for (const cap of [1, 12, 40]) {
          const fresh = new FeatureCache(signals, graphInfo, new Set());
          expect(bestNeighbors(new FeatureCache(signals, graphInfo, new Set(), undefined, undefined, tables), list, cap)).toEqual(
            bestNeighbors(fresh, list, cap),
          );
        }
      }
    }
  });

  it('remakes a list’s numbers when the list changed length, and leaves short lists to relationScoreBound', async () => {
    const index = await hubIndex();
    const list = (await index.graph.neighbors(['H'])).get('H')!;
    const question = 'What cures fever in children?';
    const [queryVector] = await index.encoder.encode([question]);
    const signals = await buildQuestionSignals({
      index,
      context: { question: { text: question }, queryVector, policy: makePolicy() },
      lexicalWeight: 0.8,
      contextWeight: 0.5,
    });
    const tables = new NeighborBoundTables();
    const graphInfo = { hubDegree: 10, maxDegree: SIZE };
    const reference = new FeatureCache(signals, graphInfo, new Set());
    const boundsOf = (neighbors: readonly Neighbor[]) => {
      const out = new Float64Array(neighbors.length);
      new FeatureCache(signals, graphInfo, new Set(), undefined, undefined, tables).relationScoreBounds(neighbors, out);
      return [...out];
    };
    const growing = list.slice(0, BOUND_TABLE_MIN);
    expect(boundsOf(growing)).toEqual(growing.map((neighbor) => reference.relationScoreBound(neighbor.edge)));
    growing.push(...list.slice(BOUND_TABLE_MIN).reverse());
    expect(boundsOf(growing)).toEqual(growing.map((neighbor) => reference.relationScoreBound(neighbor.edge)));
    const short = list.slice(0, 9);
    expect(boundsOf(short)).toEqual(short.map((neighbor) => reference.relationScoreBound(neighbor.edge)));
  });
});
