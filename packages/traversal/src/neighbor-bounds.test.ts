import type { Neighbor } from '@mosaic/spec';
import { buildHandIndex, type BuildHandIndexOptions } from '@mosaic/testing/hand-built-index';
import { makePolicy } from '@mosaic/testing';
import { describe, expect, it } from 'vitest';
import { bestNeighbors } from './frontier.js';
import { BOUND_TABLE_MIN, NeighborBoundTables } from './neighbor-bounds.js';
import { FeatureCache } from './path-features.js';
import { buildQuestionSignals } from './question-signals.js';

// A hub with more relations than BOUND_TABLE_MIN, stated in sentences of eight documents about
// different things, so that the BM25 and passage terms of r(e) differ from relation to relation.
const TOPICS = ['fever and pain in children', 'the harbour and its ships', 'trade with the northern towns', 'wounds that heal slowly'];
const LABELS = ['cures fever', 'borders the harbour', 'treats pain', 'trades with', 'reduces fever in children', 'faces', 'heals'];
const SIZE = BOUND_TABLE_MIN + 44;

async function hubIndex() {
  const documents = Array.from({ length: 8 }, (_, d) => {
    const sentences = Array.from({ length: SIZE / 8 + 1 }, (_, s) => `Harbour item ${d}-${s} concerns ${TOPICS[(d + s) % TOPICS.length]}.`);
    return { id: `doc${d}`, text: sentences.join(' '), sentences };
  });
  const spanOf = (i: number) => {
    const document = documents[i % 8];
    const sentence = document.sentences[Math.floor(i / 8)];
    const start = document.text.indexOf(sentence);
    return { chunkId: `${document.id}#0`, start, end: start + sentence.length };
  };
  const relations: BuildHandIndexOptions['relations'] = Array.from({ length: SIZE }, (_, i) => ({
    id: `r${String(i).padStart(3, '0')}`,
    source: 'H',
    target: `L${i}`,
    label: LABELS[i % LABELS.length],
    chunkIds: [`doc${i % 8}#0`],
    // Every fifth relation has no sentences: its passage is read from its chunk ids; every third is
    // stated in three documents, its passage the best of them.
    ...(i % 5 === 0 ? {} : { spans: i % 3 === 1 ? [spanOf(i), spanOf((i + 1) % SIZE), spanOf((i + 2) % SIZE)] : [spanOf(i)] }),
  }));
  return buildHandIndex({
    documents: documents.map(({ id, text }) => ({ id, text })),
    chunks: documents.map(({ id, text }) => ({ id: `${id}#0`, documentId: id, start: 0, end: text.length, text })),
    entities: [{ id: 'H', name: 'Harbour' }, ...Array.from({ length: SIZE }, (_, i) => ({ id: `L${i}`, name: `Leaf ${i}` }))],
    relations,
    lexical: true,
  });
}

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
