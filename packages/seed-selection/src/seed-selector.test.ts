import type { CorpusIndex, Encoder, GraphStore, LexicalIndex, Policy, QueryContext } from '@mosaic/spec';
import { buildHandIndex, type BuildHandIndexOptions } from '@mosaic/testing/hand-built-index';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadGraphBinary, saveGraphBinary } from '@mosaic/graph';
import { describe, expect, it, vi } from 'vitest';
import { makePolicy } from '@mosaic/testing';
import { createSeedSelector } from './seed-selector.js';

async function contextFor(index: CorpusIndex, question: string, policy: Policy): Promise<QueryContext> {
  const [queryVector] = await index.encoder.encode([question]);
  return { question: { text: question }, queryVector, policy };
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += a[i] * b[i];
  return sum;
}

/** An encoder wrapper that records every encode() batch. */
function countingEncoder(encoder: Encoder): { encoder: Encoder; batches: string[][] } {
  const batches: string[][] = [];
  return {
    batches,
    encoder: {
      specificationVersion: 'v1',
      id: encoder.id,
      dimension: encoder.dimension,
      encode: async (texts, options) => {
        batches.push([...texts]);
        return encoder.encode(texts, options);
      },
    },
  };
}

/** A comparison: aspirin's relations are short and salient, ibuprofen's are long-winded. */
const drugs: BuildHandIndexOptions = {
  entities: [
    { id: 'aspirin', name: 'Aspirin' },
    { id: 'pain', name: 'Pain' },
    { id: 'fever', name: 'Fever' },
    { id: 'blood', name: 'Blood' },
    { id: 'ibuprofen', name: 'Ibuprofen' },
    { id: 'swelling', name: 'Swelling' },
    { id: 'stomach', name: 'Stomach' },
  ],
  relations: [
    { id: 'a1', source: 'aspirin', target: 'pain', label: 'treats' },
    { id: 'a2', source: 'aspirin', target: 'fever', label: 'reduces' },
    { id: 'a3', source: 'aspirin', target: 'blood', label: 'thins' },
    { id: 'i1', source: 'ibuprofen', target: 'swelling', label: 'reduces', description: 'a nonsteroidal anti inflammatory drug used widely in clinics' },
    { id: 'i2', source: 'ibuprofen', target: 'stomach', label: 'irritates', description: 'long term use may upset the lining in some patients' },
  ],
};
const ibuprofenSide = new Set(['ibuprofen', 'swelling', 'stomach']);

describe('createSeedSelector: query modes', () => {
  it('per-target mode keeps the two best candidates of every target; the full query spends the budget on the salient one', async () => {
    const index = await buildHandIndex(drugs);
    const question = 'How do aspirin and ibuprofen compare for pain and fever?';
    const selector = createSeedSelector({ tuning: { lexicalWeight: 0, mentionWeight: 0, contextWeight: 0 } });
    const full = await selector.selectSeeds({ context: await contextFor(index, question, makePolicy({ seedLimit: 4 })), index });
    expect(full.seeds).toHaveLength(4);
    expect(full.seeds.filter((seed) => ibuprofenSide.has(seed.nodeId)).length).toBeLessThanOrEqual(1);

    const policy = makePolicy({
      seedLimit: 4,
      seedQueryMode: 'per-target',
      perTargetQueries: ['aspirin', 'ibuprofen'],
      targetEntities: ['Aspirin', 'Ibuprofen'],
    });
    const perTarget = await selector.selectSeeds({ context: await contextFor(index, question, policy), index });
    const trace = perTarget.trace;
    expect(trace.queries).toEqual(['aspirin', 'ibuprofen']);
    expect(trace.effectiveMode).toBe('per-target');
    expect(perTarget.seeds.filter((seed) => seed.targetIndex === 0)).toHaveLength(2);
    expect(perTarget.seeds.filter((seed) => seed.targetIndex === 1)).toHaveLength(2);
    expect(perTarget.seeds.filter((seed) => ibuprofenSide.has(seed.nodeId))).toHaveLength(2);
    expect(perTarget.seeds.map((seed) => seed.nodeId)).toContain('ibuprofen');
    expect(trace.reserved).toHaveLength(4);
    for (const seed of perTarget.seeds) expect(seed.query).toBe(trace.queries[seed.targetIndex!]);
  });

  it('per-target deduplicates a node that two targets share and counts it', async () => {
    const index = await buildHandIndex(drugs);
    const policy = makePolicy({ seedLimit: 5, seedQueryMode: 'per-target', perTargetQueries: ['aspirin pain', 'pain'] });
    const result = await createSeedSelector({ tuning: { lexicalWeight: 0, mentionWeight: 0, contextWeight: 0 } }).selectSeeds({
      context: await contextFor(index, 'pain', policy),
      index,
    });
    const ids = result.seeds.map((seed) => seed.nodeId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(result.trace.deduplicated).toBeGreaterThan(0);
  });

  it('per-target falls back to target entities, then to the full question', async () => {
    const index = await buildHandIndex(drugs);
    const selector = createSeedSelector();
    const fromTargets = await selector.selectSeeds({
      context: await contextFor(index, 'compare them', makePolicy({ seedQueryMode: 'per-target', targetEntities: ['Aspirin', ' ', 'Ibuprofen'] })),
      index,
    });
    expect(fromTargets.trace.queries).toEqual(['Aspirin', 'Ibuprofen']);
    const fromQuestion = await selector.selectSeeds({
      context: await contextFor(index, 'aspirin for pain', makePolicy({ seedQueryMode: 'per-target' })),
      index,
    });
    expect(fromQuestion.trace.queries).toEqual(['aspirin for pain']);
    expect(fromQuestion.trace.effectiveMode).toBe('full');
    expect(fromQuestion.seeds.every((seed) => seed.targetIndex === undefined)).toBe(true);
  });

  it('uses the context vector for the full question and one batched encoder call for other queries', async () => {
    const built = await buildHandIndex(drugs);
    const { encoder, batches } = countingEncoder(built.encoder);
    const index = { ...built, encoder };
    const selector = createSeedSelector();
    await selector.selectSeeds({ context: await contextFor(built, 'aspirin for pain', makePolicy()), index });
    expect(batches).toEqual([]);
    const compact = await selector.selectSeeds({
      context: await contextFor(built, 'What does the thing called aspirin do?', makePolicy({ seedQueryMode: 'compact', compactQuery: 'aspirin effects' })),
      index,
    });
    expect(batches).toEqual([['aspirin effects']]);
    expect(compact.trace.queries).toEqual(['aspirin effects']);
    await selector.selectSeeds({
      context: await contextFor(built, 'q', makePolicy({ seedQueryMode: 'per-target', perTargetQueries: ['aspirin', 'ibuprofen'] })),
      index,
    });
    expect(batches[1]).toEqual(['aspirin', 'ibuprofen']);
  });
});

describe('createSeedSelector: scoring', () => {
  /** Warfarin is named by the question but its only relation is long-winded; Clotting's relation matches well. */
  const clotting: BuildHandIndexOptions = {
    entities: [
      { id: 'W', name: 'Warfarin', description: 'anticoagulant medicine' },
      { id: 'K', name: 'Vitamin K', description: 'a vitamin' },
      { id: 'C', name: 'Clotting', description: 'process of coagulation in plasma' },
      { id: 'F', name: 'Fibrin', description: 'a protein' },
    ],
    relations: [
      { id: 'k1', source: 'K', target: 'W', label: 'counteracts', description: 'vitamin k rich food such as spinach and kale lowers the effect' },
      { id: 'c1', source: 'C', target: 'F', label: 'forms', description: 'clotting risk rises when fibrin forms in vessels of the body' },
    ],
  };
  const question = 'warfarin anticoagulant medicine and clotting risk';

  it('relation-only uses s_rel; hybrid uses 0.3·s_ent + 0.7·s_rel, which promotes the named entity', async () => {
    const index = await buildHandIndex(clotting);
    const selector = createSeedSelector({ tuning: { lexicalWeight: 0, mentionWeight: 0, contextWeight: 0 } });
    const relationOnly = await selector.selectSeeds({ context: await contextFor(index, question, makePolicy({ seedLimit: 1 })), index });
    expect(relationOnly.seeds.map((seed) => seed.nodeId)).toEqual(['C']);
    for (const candidate of relationOnly.trace.candidates) expect(candidate.score).toBe(candidate.relationScore);

    const hybrid = await selector.selectSeeds({
      context: await contextFor(index, question, makePolicy({ seedLimit: 1, selectionMode: 'hybrid' })),
      index,
    });
    expect(hybrid.seeds.map((seed) => seed.nodeId)).toEqual(['W']);
    for (const candidate of hybrid.trace.candidates) {
      expect(candidate.score).toBeCloseTo(0.3 * candidate.entityScore + 0.7 * candidate.relationScore, 12);
    }
    expect(hybrid.trace.selectionMode).toBe('hybrid');
  });

  it('s_ent is the entity-index cosine and s_rel the best cosine among incident relation hits', async () => {
    const index = await buildHandIndex(drugs);
    const question = 'aspirin treats pain';
    const result = await createSeedSelector({ tuning: { lexicalWeight: 0, mentionWeight: 0, contextWeight: 0 } }).selectSeeds({
      context: await contextFor(index, question, makePolicy({ seedLimit: 7, selectionMode: 'hybrid' })),
      index,
    });
    const [queryVector, ...vectors] = await index.encoder.encode([question, ...index.relationTexts, ...index.entityTexts]);
    const relationCos = new Map(index.relationIds.map((id, i) => [id, Math.fround(dot(queryVector, vectors[i]))]));
    const entityCos = new Map(index.entityIds.map((id, i) => [id, Math.fround(dot(queryVector, vectors[index.relationIds.length + i]))]));
    const aspirin = result.trace.candidates.find((candidate) => candidate.nodeId === 'aspirin')!;
    expect(aspirin.relationScore).toBeCloseTo(Math.max(relationCos.get('a1')!, relationCos.get('a2')!, relationCos.get('a3')!), 6);
    expect(aspirin.entityScore).toBeCloseTo(entityCos.get('aspirin')!, 6);
    const trace = result.trace;
    expect(trace.components.find((component) => component.nodeId === 'aspirin')!.viaRelation).toBe('a1');
  });

  it('reads the question whole from a lexical index (the traversal reads it next) and asks other queries with search: the same seeds as search alone', async () => {
    const built = await buildHandIndex({ ...drugs, lexical: true });
    const calls: string[] = [];
    /** The index's lexical indexes, each call recorded; `searchOnly`: without withScores and scoreAll. */
    const watched = (searchOnly: boolean): CorpusIndex => {
      const wrap = (name: string, lexical: LexicalIndex | undefined): LexicalIndex | undefined => {
        if (!lexical) return undefined;
        const search = (query: string, k: number) => {
          calls.push(`${name}.search ${query}`);
          return lexical.search(query, k);
        };
        if (searchOnly) return { search };
        return {
          search,
          withScores: (query, read) => {
            calls.push(`${name}.withScores ${query}`);
            return lexical.withScores!(query, read);
          },
        };
      };
      return { ...built, lexical: { entities: wrap('entities', built.lexical?.entities), relations: wrap('relations', built.lexical?.relations) } };
    };
    const selector = createSeedSelector({ tuning: { contextWeight: 0 } });
    const question = 'aspirin for pain';
    for (const policy of [makePolicy({ seedLimit: 3 }), makePolicy({ seedLimit: 3, seedQueryMode: 'per-target', perTargetQueries: ['aspirin', 'swelling'] })]) {
      calls.length = 0;
      const reading = await selector.selectSeeds({ context: await contextFor(built, question, policy), index: watched(false) });
      const perTarget = policy.seedQueryMode === 'per-target';
      expect(calls).toEqual(
        perTarget
          ? ['entities.search aspirin', 'relations.search aspirin', 'entities.search swelling', 'relations.search swelling']
          : [`entities.withScores ${question}`, `relations.withScores ${question}`],
      );
      const searching = await selector.selectSeeds({ context: await contextFor(built, question, policy), index: watched(true) });
      expect(reading.seeds).toEqual(searching.seeds);
      expect(reading.trace.components).toEqual(searching.trace.components);
    }
  });

  it('fuses normalised BM25 with the dense score by λ and records both', async () => {
    const index = await buildHandIndex({ ...drugs, lexical: true });
    const question = 'aspirin thins blood';
    const policy = makePolicy({ seedLimit: 7, selectionMode: 'hybrid' });
    const dense = await createSeedSelector({ tuning: { lexicalWeight: 0, mentionWeight: 0, contextWeight: 0 } }).selectSeeds({
      context: await contextFor(index, question, policy),
      index,
    });
    const fused = await createSeedSelector({ tuning: { lexicalWeight: 0.5, mentionWeight: 0, contextWeight: 0 } }).selectSeeds({
      context: await contextFor(index, question, policy),
      index,
    });
    const denseTrace = dense.trace;
    const fusedTrace = fused.trace;
    expect(denseTrace.lexicalWeight).toEqual({ entities: 0, relations: 0 });
    expect(fusedTrace.lexicalWeight).toEqual({ entities: 0.5, relations: 0.5 });
    fusedTrace.candidates.forEach((candidate, i) => {
      const parts = fusedTrace.components[i];
      expect(candidate.entityScore).toBeCloseTo(0.5 * parts.entityDense + 0.5 * parts.entityLexical, 12);
      expect(candidate.relationScore).toBeCloseTo(0.5 * parts.relationDense + 0.5 * parts.relationLexical, 12);
    });
    const blood = fusedTrace.components.find((component) => component.nodeId === 'blood')!;
    expect(blood.viaRelation).toBe('a3');
    expect(blood.relationLexical).toBe(1);
    // Without a lexical index, λ is reported as 0 and scores are dense.
    const plain = await buildHandIndex(drugs);
    const noLexical = await createSeedSelector({ tuning: { lexicalWeight: 0.5, mentionWeight: 0, contextWeight: 0 } }).selectSeeds({
      context: await contextFor(plain, question, policy),
      index: plain,
    });
    expect(noLexical.trace.lexicalWeight).toEqual({ entities: 0, relations: 0 });
    expect(noLexical.seeds).toEqual(dense.seeds);
  });

  it('breaks ties by node id and is deterministic', async () => {
    const index = await buildHandIndex(drugs);
    // pain, fever and blood tie on s_rel for the query "aspirin" (each relation text has aspirin + 2 words).
    const run = async () =>
      createSeedSelector({ tuning: { lexicalWeight: 0, mentionWeight: 0, contextWeight: 0 } }).selectSeeds({
        context: await contextFor(index, 'aspirin', makePolicy({ seedLimit: 3 })),
        index,
      });
    const first = await run();
    expect(first.seeds.map((seed) => seed.nodeId)).toEqual(['aspirin', 'blood', 'fever']);
    expect(await run()).toEqual(first);
  });
});

describe('createSeedSelector: graph reads', () => {
  it("reads the mention factor's names with getNodeNames when the store has it, choosing the same seeds", async () => {
    const index = await buildHandIndex(drugs);
    const graph = index.graph;
    const wholeNodes: string[] = [];
    const named: string[] = [];
    const withNames = {
      ...index,
      graph: {
        ...graph,
        nodeCount: graph.nodeCount,
        edgeCount: graph.edgeCount,
        neighbors: graph.neighbors.bind(graph),
        getEdges: graph.getEdges.bind(graph),
        getNodes: async (ids: readonly string[]) => {
          wholeNodes.push(...ids);
          return graph.getNodes(ids);
        },
        getNodeNames: async (ids: readonly string[]) => {
          named.push(...ids);
          return (await graph.getNodes(ids)).map(({ id, name, aliases }) => ({ id, name, aliases }));
        },
      },
    } as CorpusIndex;
    expect((graph as GraphStore).getNodeNames).toBeUndefined();
    // One entity hit: the other endpoints of the relation hits are not among the nodes already read.
    const selector = createSeedSelector({ entityCandidates: 1, tuning: { lexicalWeight: 0, mentionWeight: 0.5, contextWeight: 0 } });
    const question = 'What does aspirin treat?';
    const policy = makePolicy({ seedLimit: 3, selectionMode: 'relation-only' });
    const plain = await selector.selectSeeds({ context: await contextFor(index, question, policy), index });
    const light = await selector.selectSeeds({ context: await contextFor(withNames, question, policy), index: withNames });
    expect(light).toEqual(plain);
    // Endpoints of relation hits that no entity hit brought are read by name only.
    expect(named.length).toBeGreaterThan(0);
    for (const id of named) expect(wholeNodes).not.toContain(id);
  });
});

describe('createSeedSelector: relation passages', () => {
  // Ten paragraphs (chunks notes#0 … notes#9), each its own window: a relation stated in all ten has
  // more sentences than a passage reads (PASSAGE_SPANS = 8), and the fever paragraphs come last.
  const paragraphs = [
    ...Array.from({ length: 8 }, (_, i) => `Aspirin treats pain of kind ${i} in adults.`),
    'Aspirin reduces fever in children quickly.',
    'Fever in children falls with aspirin.',
  ];
  const text = paragraphs.join('\n\n');
  const spansOf = (indexes: number[]) => indexes.map((i) => ({ chunkId: `notes#${i}`, start: 0, end: paragraphs[i].length }));
  const options: BuildHandIndexOptions = {
    documents: [{ id: 'notes', text }],
    entities: [
      { id: 'aspirin', name: 'Aspirin' },
      { id: 'pain', name: 'Pain' },
      { id: 'fever', name: 'Fever' },
      { id: 'children', name: 'Children' },
    ],
    relations: [
      { id: 'a1', source: 'aspirin', target: 'pain', label: 'treats', spans: spansOf([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) },
      { id: 'a2', source: 'aspirin', target: 'fever', label: 'reduces', spans: spansOf([8]) },
      { id: 'a3', source: 'fever', target: 'children', label: 'falls in', chunkIds: ['notes#9'] },
    ],
    window: { size: 48, stride: 48 },
    lexical: true,
  };

  it('reads relation hits as edge passages when the store offers them: the same seeds, trace and passage scores, no whole edge built', async () => {
    const index = await buildHandIndex(options);
    // The same graph in a CompactGraphStore (which has getEdgePassages; the hand index's GraphologyGraphStore has not).
    const dir = await mkdtemp(join(tmpdir(), 'mosaic-seed-passages-'));
    try {
      const path = join(dir, 'graph.bin');
      await saveGraphBinary({ graph: index.graph.graph, path });
      const compact = await loadGraphBinary({ path });
      const wholeEdges = vi.spyOn(compact, 'getEdges');
      const passages = vi.spyOn(compact, 'getEdgePassages');
      const withPassages: CorpusIndex = { ...index, graph: compact };
      expect((index.graph as GraphStore).getEdgePassages).toBeUndefined();
      const selector = createSeedSelector({ tuning: { lexicalWeight: 0.5, mentionWeight: 0, contextWeight: 0.5 } });
      const question = 'Does aspirin reduce fever in children?';
      const policy = makePolicy({ seedLimit: 4, selectionMode: 'relation-only' });
      const plain = await selector.selectSeeds({ context: await contextFor(index, question, policy), index });
      const light = await selector.selectSeeds({ context: await contextFor(withPassages, question, policy), index: withPassages });
      expect(light).toEqual(plain);
      expect(wholeEdges).not.toHaveBeenCalled();
      expect(passages).toHaveBeenCalledTimes(1);
      const [ids, spanLimit] = passages.mock.calls[0]!;
      expect(spanLimit).toBe(8);
      expect(ids).toEqual([...ids].sort());
      expect(ids).toEqual(expect.arrayContaining(['a1', 'a2', 'a3']));
      // The passage term is at work: a1's best passage is among its first eight sentences (pain), a2's is
      // the fever sentence; a store giving all ten of a1's chunks would score a1 as a2.
      const passageOf = (relation: string) => plain.trace.components.find((c) => c.viaRelation === relation)?.relationPassage;
      expect(passageOf('a2')).toBeGreaterThan(0);
      expect(passageOf('a1')).toBeLessThan(passageOf('a2')!);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('createSeedSelector: errors', () => {
  it('rejects bad options and policies with typed errors, and honours abort', async () => {
    expect(() => createSeedSelector({ tuning: { lexicalWeight: 2, mentionWeight: 0, contextWeight: 0 } })).toThrowError(
      expect.objectContaining({ name: 'MosaicInvalidArgumentError' }),
    );
    // A tuning option at the top level (where it was before 0.x) and an unknown tuning key fail.
    // @ts-expect-error lexicalWeight is a tuning option
    expect(() => createSeedSelector({ lexicalWeight: 0.5 })).toThrowError(/pass it as tuning\.lexicalWeight/);
    // @ts-expect-error not a tuning option
    expect(() => createSeedSelector({ tuning: { lexicalWieght: 0.5 } })).toThrowError(/tuning\.lexicalWieght/);
    const index = await buildHandIndex(drugs);
    const selector = createSeedSelector();
    await expect(selector.selectSeeds({ context: await contextFor(index, 'x', makePolicy({ seedLimit: 0 })), index })).rejects.toMatchObject({
      name: 'MosaicInvalidArgumentError',
    });
    await expect(
      selector.selectSeeds({ context: { question: { text: 'x' }, queryVector: new Float32Array(3), policy: makePolicy() }, index }),
    ).rejects.toMatchObject({ name: 'MosaicDimensionMismatchError' });
    const controller = new AbortController();
    controller.abort();
    await expect(selector.selectSeeds({ context: await contextFor(index, 'x', makePolicy()), index, abortSignal: controller.signal })).rejects.toMatchObject({
      name: 'MosaicAbortedError',
    });
  });
});
