import type { Extraction } from '@mosaic/spec';
import { describe, expect, it } from 'vitest';
import { entityIdFromKey } from './entity-key.js';
import { joinDescriptions, mergeExtractions } from './merge-extractions.js';

function entity(name: string, type = 'CONCEPT', description = `about ${name}`, questionLike = false) {
  return { name, type, description, questionLike };
}
function relation(source: string, label: string, target: string, description = `${source} ${label} ${target}`) {
  return { source, target, label, keywords: label.split(' '), description };
}

describe('mergeExtractions', () => {
  it('merges case, plural and determiner variants and unions chunk ids', () => {
    const extractions: { chunkId: string; extraction: Extraction }[] = [
      { chunkId: 'c1', extraction: { entities: [entity('Skin cancer'), entity('the skin cancers', 'disease')], relations: [] } },
      { chunkId: 'c2', extraction: { entities: [entity('skin cancer', 'DISEASE', 'most common cancer')], relations: [] } },
      { chunkId: 'c3', extraction: { entities: [entity('skin cancer', 'DISEASE')], relations: [] } },
    ];
    const { entities, trace } = mergeExtractions({ extractions });
    expect(entities).toHaveLength(1);
    const [e] = entities;
    expect(e.name).toBe('skin cancer'); // most frequent surface form (2 of 4)
    expect(e.aliases).toEqual(['skin cancers']);
    expect(e.type).toBe('DISEASE'); // majority 3 vs 1, types upper-cased
    expect(e.chunkIds).toEqual(['c1', 'c2', 'c3']);
    expect(e.description.split('\n')).toEqual(['about Skin cancer', 'about the skin cancers', 'most common cancer', 'about skin cancer']);
    expect(e.mentionCount).toBe(4);
    expect(trace).toMatchObject({ entityMentions: 4, entities: 1 });
  });

  it('makes an abbreviation in parentheses an alias, also for mentions elsewhere and before the definition', () => {
    const { entities, relations, trace } = mergeExtractions({
      extractions: [
        { chunkId: 'c1', extraction: { entities: [entity('BCC')], relations: [relation('BCC', 'affects', 'skin')] } },
        { chunkId: 'c2', extraction: { entities: [entity('basal cell carcinoma (BCC)', 'DISEASE'), entity('skin')], relations: [] } },
        { chunkId: 'c3', extraction: { entities: [entity('Basal cell carcinomas', 'DISEASE')], relations: [] } },
      ],
    });
    const bcc = entities.find((e) => e.name === 'basal cell carcinoma')!;
    expect(bcc).toBeDefined();
    expect(bcc.aliases).toContain('BCC');
    expect(bcc.aliases).toContain('Basal cell carcinomas');
    expect(bcc.chunkIds).toEqual(['c1', 'c2', 'c3']);
    expect(bcc.type).toBe('DISEASE');
    expect(entities.map((e) => e.name).sort()).toEqual(['basal cell carcinoma', 'skin']);
    expect(relations).toHaveLength(1);
    expect(relations[0].source).toBe(bcc.id);
    expect(trace.abbreviations).toBe(1);
    expect(trace.resolvedByAbbreviation).toBeGreaterThanOrEqual(2);
  });

  it('merges relations per (source, label, target) with weight = mentions and unioned chunks', () => {
    const { relations, entities } = mergeExtractions({
      extractions: [
        { chunkId: 'c1', extraction: { entities: [entity('surgery'), entity('cancer')], relations: [relation('surgery', 'treats', 'cancer')] } },
        {
          chunkId: 'c2',
          extraction: { entities: [], relations: [relation('Surgery', 'Treats', 'cancers', 'second'), relation('surgery', 'removes', 'cancer')] },
        },
        { chunkId: 'c2', extraction: { entities: [], relations: [relation('cancer', 'treats', 'surgery')] } },
      ],
    });
    expect(entities).toHaveLength(2);
    const treats = relations.filter((r) => r.label.toLowerCase() === 'treats');
    expect(treats).toHaveLength(2); // direction matters
    const forward = treats.find((r) => r.source === entityIdFromKey('surgery'))!;
    expect(forward.weight).toBe(2);
    expect(forward.chunkIds).toEqual(['c1', 'c2']);
    expect(forward.label).toBe('treats');
    expect(forward.description).toBe('surgery treats cancer\nsecond');
    expect(relations.find((r) => r.label === 'removes')!.weight).toBe(1);
  });

  it('adds relation endpoints that were not extracted as entities with type UNKNOWN, and drops self loops', () => {
    const { entities, relations, trace } = mergeExtractions({
      extractions: [
        {
          chunkId: 'c1',
          extraction: {
            entities: [entity('melanoma')],
            relations: [relation('melanoma', 'spreads to', 'lymph nodes'), relation('Melanomas', 'is', 'melanoma')],
          },
        },
      ],
    });
    expect(entities.map((e) => [e.name, e.type])).toEqual([
      ['melanoma', 'CONCEPT'],
      ['lymph nodes', 'UNKNOWN'],
    ]);
    expect(relations).toHaveLength(1);
    expect(trace.droppedSelfLoops).toBe(1);
    expect(trace.implicitEntities).toBe(1);
  });

  it('marks question-like entities and is deterministic', () => {
    const extractions = [
      {
        chunkId: 'c1',
        extraction: {
          entities: [entity('What is basal cell skin cancer?', 'HEADING', '', true), entity('b')],
          relations: [relation('What is basal cell skin cancer?', 'asks about', 'basal cell skin cancer')],
        },
      },
    ];
    const a = mergeExtractions({ extractions });
    const b = mergeExtractions({ extractions: structuredClone(extractions) });
    expect(a).toEqual(b);
    expect(a.entities[0]).toMatchObject({ name: 'What is basal cell skin cancer?', questionLike: true, type: 'HEADING' });
  });

  it('bounds descriptions', () => {
    expect(joinDescriptions(['aaa bbb', 'ccc'], 11)).toBe('aaa bbb\nccc');
    expect(joinDescriptions(['aaa bbb', 'ccc ddd'], 10)).toBe('aaa bbb');
    const long = joinDescriptions(['word '.repeat(100).trim()], 50);
    expect(long.length).toBeLessThanOrEqual(50);
    expect(long.endsWith('…')).toBe(true);
    const { entities } = mergeExtractions({
      maxDescriptionLength: 30,
      extractions: Array.from({ length: 10 }, (_, i) => ({
        chunkId: `c${i}`,
        extraction: { entities: [entity('x', 'T', `description number ${i}`)], relations: [] },
      })),
    });
    expect(entities[0].description.length).toBeLessThanOrEqual(30);
  });
});
