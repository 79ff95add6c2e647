import { describe, expect, it } from 'vitest';
import { knowledgeGraphFromMerge } from './knowledge-graph-from-merge.js';
import { GraphologyGraphStore } from './graphology-graph-store.js';
import { mergeExtractions, SUFFIX_LINK_LABEL } from './merge-extractions.js';
import { deserializeGraph, serializeGraph } from './graph-persistence.js';

describe('mergeExtractions: sentence spans', () => {
  it('unions spans per chunk in first-seen order, once each; endpoints take the relation sentences; bad spans are dropped', async () => {
    const merged = mergeExtractions({
      extractions: [
        {
          chunkId: 'c1',
          extraction: {
            entities: [{ name: 'Aspirin', type: 'CONCEPT', description: 'a drug', spans: [{ start: 0, end: 20 }] }],
            relations: [
              { source: 'Aspirin', target: 'fever', label: 'reduces', keywords: [], description: 's', spans: [{ start: 0, end: 20 }] },
              {
                source: 'aspirin',
                target: 'Fever',
                label: 'reduces',
                keywords: [],
                description: 's',
                spans: [
                  { start: 30, end: 50 },
                  { start: 9, end: 3 },
                ],
              },
            ],
          },
        },
        {
          chunkId: 'c2',
          extraction: {
            entities: [
              {
                name: 'aspirins',
                type: 'CONCEPT',
                description: 'x',
                spans: [
                  { start: 0, end: 20 },
                  { start: -1, end: 4 },
                ],
              },
            ],
            relations: [{ source: 'Aspirin', target: 'fever', label: 'reduces', keywords: [], description: 't', spans: [{ start: 5, end: 9 }] }],
          },
        },
      ],
    });
    const aspirin = merged.entities.find((e) => e.name === 'Aspirin')!;
    expect(aspirin.spans).toEqual([
      { chunkId: 'c1', start: 0, end: 20 },
      { chunkId: 'c1', start: 30, end: 50 },
      { chunkId: 'c2', start: 0, end: 20 },
      { chunkId: 'c2', start: 5, end: 9 },
    ]);
    const fever = merged.entities.find((e) => e.name.toLowerCase() === 'fever')!;
    expect(fever.spans).toEqual([
      { chunkId: 'c1', start: 0, end: 20 },
      { chunkId: 'c1', start: 30, end: 50 },
      { chunkId: 'c2', start: 5, end: 9 },
    ]);
    expect(merged.relations).toHaveLength(1);
    expect(merged.relations[0].spans).toEqual(fever.spans);

    // Spans survive the graph store and its JSON persistence.
    const graph = deserializeGraph(JSON.parse(JSON.stringify(serializeGraph(knowledgeGraphFromMerge(merged)))));
    const store = new GraphologyGraphStore({ graph });
    const [edge] = await store.getEdges([merged.relations[0].id]);
    expect(edge.spans).toEqual(fever.spans);
    const [node] = await store.getNodes([aspirin.id]);
    expect(node.spans).toEqual(aspirin.spans);
  });

  it('keeps chunks and spans once each when a chunk comes back after another, and when the lists grow long', () => {
    const mention = (chunkId: string, start: number, name = 'Aspirin') => ({
      chunkId,
      extraction: {
        entities: [{ name, type: 'CONCEPT', description: 'd', spans: [{ start, end: start + 5 }] }],
        relations: [{ source: name, target: 'fever', label: 'reduces', keywords: [`k${start}`], description: 's', spans: [{ start, end: start + 5 }] }],
      },
    });
    // c1 returns after c2: the repeated span and chunk must not come back, in a short and a long list.
    const repeated = mergeExtractions({ extractions: [mention('c1', 0), mention('c2', 0), mention('c1', 0), mention('c1', 10)] });
    const aspirin = repeated.entities.find((e) => e.name === 'Aspirin')!;
    expect(aspirin.chunkIds).toEqual(['c1', 'c2']);
    expect(aspirin.spans).toEqual([
      { chunkId: 'c1', start: 0, end: 5 },
      { chunkId: 'c2', start: 0, end: 5 },
      { chunkId: 'c1', start: 10, end: 15 },
    ]);
    expect(repeated.relations[0].weight).toBe(4);
    const many = Array.from({ length: 120 }, (_, i) => mention(`c${i % 3}`, i));
    const long = mergeExtractions({ extractions: [...many, ...many] });
    const entity = long.entities.find((e) => e.name === 'Aspirin')!;
    expect(entity.chunkIds).toEqual(['c0', 'c1', 'c2']);
    expect(entity.spans).toHaveLength(120);
    expect(new Set(entity.spans!.map((s) => `${s.chunkId}:${s.start}`)).size).toBe(120);
    // 120 keywords, each voted twice, in first-seen order (the tally switched to a lookup map).
    expect(long.relations[0].keywords).toEqual(Array.from({ length: 12 }, (_, i) => `k${i}`));
    expect(long.relations[0].weight).toBe(240);
  });

  it('leaves spans out when the extractor gives none', () => {
    const merged = mergeExtractions({
      extractions: [
        { chunkId: 'c', extraction: { entities: [], relations: [{ source: 'Alpha', target: 'Beta', label: 'precedes', keywords: [], description: '' }] } },
      ],
    });
    expect(merged.relations[0].spans).toBeUndefined();
    expect(merged.entities.every((e) => e.spans === undefined)).toBe(true);
  });
});

describe('mergeExtractions: name-suffix links', () => {
  const rel = (source: string, label: string, target: string) => ({ source, target, label, keywords: [], description: `${source} ${label} ${target}` });
  it('links a glued or longer name to the longest entity name of two words or more it ends with', () => {
    const merged = mergeExtractions({
      extractions: [
        {
          chunkId: 'c',
          extraction: {
            entities: [{ name: 'Treatment Morrow syndrome', type: 'CONCEPT', description: 'd', spans: [{ start: 0, end: 40 }] }],
            relations: [
              rel('Treatment Morrow syndrome', 'be treated with', 'calditrex'),
              rel('Morrow syndrome', 'affects', 'knees'),
              rel('basal cell skin cancer', 'grows', 'slowly'),
              rel('skin cancer', 'is', 'common'),
              rel('cell skin cancer', 'is', 'rare'),
              rel('Mrs. Smith', 'met', 'John Smith'),
              rel('Smith', 'owns', 'mill'),
            ],
          },
        },
      ],
    });
    const name = (id: string) => merged.entities.find((e) => e.id === id)!.name;
    const links = merged.relations.filter((r) => r.label === SUFFIX_LINK_LABEL).map((r) => `${name(r.source)} → ${name(r.target)}`);
    expect(links.sort()).toEqual(
      ['Treatment Morrow syndrome → Morrow syndrome', 'basal cell skin cancer → cell skin cancer', 'cell skin cancer → skin cancer'].sort(),
    );
    expect(merged.trace.suffixLinks).toBe(3);
    const treatment = merged.relations.find((r) => r.label === SUFFIX_LINK_LABEL && name(r.source) === 'Treatment Morrow syndrome')!;
    expect(treatment.spans).toEqual([{ chunkId: 'c', start: 0, end: 40 }]);
    const off = mergeExtractions({
      extractions: [{ chunkId: 'c', extraction: { entities: [], relations: [rel('Treatment Morrow syndrome', 'x', 'y'), rel('Morrow syndrome', 'z', 'w')] } }],
      tuning: { linkNameSuffixes: false },
    });
    expect(off.relations.some((r) => r.label === SUFFIX_LINK_LABEL)).toBe(false);
    // A tuning option at the top level (where it was before 0.x) and an unknown tuning key fail.
    // @ts-expect-error linkNameSuffixes is a tuning option
    expect(() => mergeExtractions({ extractions: [], linkNameSuffixes: false })).toThrow(/pass it as tuning\.linkNameSuffixes/);
    // @ts-expect-error not a tuning option
    expect(() => mergeExtractions({ extractions: [], tuning: { maxAliases: 3 } })).toThrow(/tuning\.maxAliases/);
  });
});
