import { describe, expect, it } from 'vitest';
import { MEDICAL_TEXT } from '../__fixtures__/fixture-documents.js';
import { createOfflineExtractor } from './offline-extractor.js';

const extractor = createOfflineExtractor();

describe('OfflineExtractor: sentence provenance', () => {
  it('points every relation at the sentence that states it (offsets into the chunk text)', () => {
    const text = 'Basal cell carcinoma grows slowly.  It rarely spreads.\n\nMelanocytes produce melanin. Treatment usually involves surgery.';
    const { relations } = extractor.extractText(text);
    const find = (source: string, target: string) => relations.find((r) => r.source === source && r.target === target)!;
    expect(text.slice(find('Melanocytes', 'melanin').spans![0].start, find('Melanocytes', 'melanin').spans![0].end)).toBe('Melanocytes produce melanin.');
    expect(text.slice(find('Treatment', 'surgery').spans![0].start, find('Treatment', 'surgery').spans![0].end)).toBe('Treatment usually involves surgery.');
    for (const relation of relations) {
      expect(relation.spans!.length).toBeGreaterThan(0);
      for (const span of relation.spans!) {
        expect(span.start).toBeGreaterThanOrEqual(0);
        expect(span.end).toBeLessThanOrEqual(text.length);
        // The stated sentence holds both endpoints' last words.
        const sentence = text.slice(span.start, span.end).toLowerCase();
        expect(sentence).toContain(relation.source.split(' ').at(-1)!.toLowerCase());
        expect(sentence).toContain(relation.target.split(' ').at(-1)!.toLowerCase());
      }
    }
  });

  it('gives an entity every sentence that mentions it, once each, and a repeated fact one relation with both sentences', () => {
    const text = 'Aspirin reduces fever. Aspirin thins blood. Doctors say aspirin reduces fever.';
    const { entities, relations } = extractor.extractText(text);
    const aspirin = entities.find((e) => e.name.toLowerCase() === 'aspirin')!;
    const sentences = aspirin.spans!.map((span) => text.slice(span.start, span.end));
    expect(sentences).toEqual(['Aspirin reduces fever.', 'Aspirin thins blood.', 'Doctors say aspirin reduces fever.']);
    const fever = relations.filter((r) => r.source.toLowerCase() === 'aspirin' && r.target === 'fever');
    expect(fever).toHaveLength(1);
    expect(fever[0].spans!.map((span) => text.slice(span.start, span.end))).toEqual(['Aspirin reduces fever.', 'Doctors say aspirin reduces fever.']);
  });

  it('keeps offsets exact over a long real text with odd spacing and punctuation', () => {
    const { relations, entities } = extractor.extractText(MEDICAL_TEXT);
    expect(relations.length).toBeGreaterThan(5);
    for (const item of [...relations, ...entities]) {
      for (const span of item.spans ?? []) {
        const sentence = MEDICAL_TEXT.slice(span.start, span.end);
        expect(sentence.trim()).toBe(sentence);
        expect(sentence.length).toBeGreaterThan(0);
      }
    }
  });
});
