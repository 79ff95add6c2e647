import { describe, expect, it } from 'vitest';
import { buildHandIndex, createHashingEncoder, entityIndexText, hashingTokens } from './hand-built-index.js';

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += a[i] * b[i];
  return sum;
}

describe('createHashingEncoder', () => {
  it('produces deterministic, L2-normalised vectors of the requested dimension', async () => {
    const encoder = createHashingEncoder({ dimension: 64 });
    const [a, b] = await encoder.encode(['Aspirin treats headaches', 'Aspirin treats headaches']);
    expect(a).toHaveLength(64);
    expect(encoder.id).toBe('hashing:64');
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(dot(a, a)).toBeCloseTo(1, 5);
  });

  it('scores shared (stemmed) words above unrelated texts and ignores stop words', async () => {
    const encoder = createHashingEncoder();
    const [query, related, unrelated, stop] = await encoder.encode([
      'treatments of migraine',
      'a treatment for the migraine',
      'volcanic eruption in Iceland',
      'the of and',
    ]);
    expect(dot(query, related)).toBeGreaterThan(0.99);
    expect(dot(query, unrelated)).toBeLessThan(0.2);
    expect(Array.from(stop).every((value) => value === 0)).toBe(true);
    expect(hashingTokens('Studies of the treated patients')).toEqual(['study', 'treat', 'patient']);
  });

  it('rejects a non-positive dimension with InvalidArgumentError', () => {
    expect(() => createHashingEncoder({ dimension: 0 })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
  });
});

describe('buildHandIndex', () => {
  const entities = [
    { id: 'aspirin', name: 'Aspirin', description: 'a pain reliever' },
    { id: 'headache', name: 'Headache', description: 'pain in the head' },
    { id: 'bayer', name: 'Bayer', type: 'ORGANIZATION' },
    { id: 'q', name: 'What is aspirin?' },
  ];
  const relations = [
    { source: 'aspirin', target: 'headache', label: 'treats', description: 'aspirin relieves headache' },
    { id: 'made', source: 'bayer', target: 'aspirin', label: 'manufactures' },
  ];

  it('fills graph, entity and relation indexes whose labels map to ids', async () => {
    const index = await buildHandIndex({ entities, relations });
    expect(index.graph.nodeCount).toBe(4);
    expect(index.graph.edgeCount).toBe(2);
    expect(index.relationIds).toEqual(['r0', 'made']);
    const [vector] = await index.encoder.encode(['Bayer company']);
    const [best] = await index.entityIndex.search(vector, 1);
    expect(index.entityIds[best.label]).toBe('bayer');
    const [relationVector] = await index.encoder.encode(['who manufactures aspirin']);
    const [bestRelation] = await index.relationIndex.search(relationVector, 1);
    expect(index.relationIds[bestRelation.label]).toBe('made');
    const [question] = await index.graph.getNodes(['q']);
    expect(question.questionLike).toBe(true);
    expect(index.manifest.counts).toMatchObject({ entities: 4, relations: 2 });
    expect(index.entityTexts[0]).toBe(entityIndexText(entities[0]));
  });

  it('synthesises one document and chunk per item when no documents are given, with windows', async () => {
    const index = await buildHandIndex({ entities, relations });
    const [aspirin] = await index.graph.getNodes(['aspirin']);
    expect(aspirin.chunkIds).toEqual(['doc:aspirin#0']);
    const chunk = index.chunks.getChunk('doc:aspirin#0')!;
    expect(chunk.text).toContain('Aspirin');
    const windows = index.chunks.windowsOfChunk(chunk.id);
    expect(windows).toHaveLength(1);
    expect(index.windowVector!(windows[0].id)).toHaveLength(256);
    expect(index.chunks.windowCount).toBe(index.windowIds.length);
    expect(index.windowIndex.size).toBe(index.windowIds.length);
  });

  it('chunks given documents by paragraph, cuts overlapping windows, and links provenance by mention', async () => {
    const text = `${'Aspirin treats headache. '.repeat(4)}\n\n${'Bayer makes it. '.repeat(4)}`;
    const index = await buildHandIndex({
      entities,
      relations,
      documents: [{ id: 'd1', text }],
      window: { size: 60, stride: 30 },
    });
    expect(index.chunkList.map((chunk) => chunk.id)).toEqual(['d1#0', 'd1#1']);
    const [aspirin, bayer] = await index.graph.getNodes(['aspirin', 'bayer']);
    expect(aspirin.chunkIds).toEqual(['d1#0']);
    expect(bayer.chunkIds).toEqual(['d1#1']);
    const [treats] = await index.graph.getEdges(['r0']);
    expect(treats.chunkIds).toEqual(['d1#0']);
    const windows = index.windowList;
    expect(windows[0]).toMatchObject({ start: 0, end: 60 });
    expect(windows[1].start).toBe(30);
    expect(windows[windows.length - 1].end).toBe(text.length);
    for (const window of windows) expect(window.text).toBe(text.slice(window.start, window.end));
  });

  it('adds BM25 lexical indexes on request', async () => {
    const index = await buildHandIndex({ entities, relations, lexical: true });
    const [hit] = index.lexical!.entities!.search('bayer', 3);
    expect(index.entityIds[hit.label]).toBe('bayer');
    expect(hit.score).toBe(1);
  });

  it('rejects relations with unknown endpoints', async () => {
    await expect(buildHandIndex({ entities, relations: [{ source: 'aspirin', target: 'nobody', label: 'x' }] })).rejects.toMatchObject({
      name: 'MosaicInvalidArgumentError',
    });
  });
});
