import { describe, expect, it } from 'vitest';
import { MEDICAL_TEXT } from '../__fixtures__/fixture-documents.js';
import { createOfflineExtractor, OFFLINE_EXTRACTOR_ID } from './offline-extractor.js';

const extractor = createOfflineExtractor();
const triples = (text: string, x = extractor) => x.extractText(text).relations.map((r) => `${r.source} | ${r.label} | ${r.target}`);

describe('OfflineExtractor', () => {
  it('finds subject–predicate–object triples with lemmatised predicate labels', () => {
    expect(triples('Tregeagle was doomed to empty Dozmare Pool as a punishment.')).toContain('Tregeagle | be doomed to empty | Dozmare Pool');
    expect(triples('Melanocytes produce melanin.')).toContain('Melanocytes | produce | melanin');
    expect(triples('Treatment usually involves surgery.')).toContain('Treatment | involve | surgery');
    expect(triples('The epidermis is made up of basal cells.')).toContain('epidermis | be made up of | basal cells');
    expect(triples('Sir William lived in London.')).toContain('Sir William | live in | London');
  });

  it('folds light nouns into the label and keeps the abbreviation with its long form', () => {
    const found = triples('Basal cell carcinoma (BCC) is the most common type of skin cancer.');
    expect(found).toContain('Basal cell carcinoma (BCC) | be most common type of | skin cancer');
  });

  it('expands coordinated objects and subjects', () => {
    const found = triples('BCC usually develops on the face, head, and neck.');
    expect(found).toEqual(expect.arrayContaining(['BCC | develop on | face', 'BCC | develop on | head', 'BCC | develop on | neck']));
    const subjects = triples('Aspirin and ibuprofen reduce fever.');
    expect(subjects).toEqual(expect.arrayContaining(['Aspirin | reduce | fever', 'ibuprofen | reduce | fever']));
  });

  it('marks question headings as question-like HEADING entities linked to their topic', () => {
    const { entities, relations } = extractor.extractText(MEDICAL_TEXT);
    const heading = entities.find((e) => e.name === 'What is basal cell skin cancer?');
    expect(heading).toMatchObject({ type: 'HEADING', questionLike: true });
    expect(relations).toContainEqual(
      expect.objectContaining({ source: 'What is basal cell skin cancer?', label: 'asks about', target: 'basal cell skin cancer' }),
    );
    // A quoted question in dialogue is not a heading.
    const dialogue = extractor.extractText('“Where is the captain?” asked Mary.');
    expect(dialogue.entities.some((e) => e.questionLike)).toBe(false);
  });

  it('types people and places from honorifics, speech verbs and locative prepositions', () => {
    const { entities } = extractor.extractText('Mr. Darcy visited Pemberley. Sir William lived in London.');
    const type = (name: string) => entities.find((e) => e.name === name)?.type;
    expect(type('Mr. Darcy')).toBe('PERSON');
    expect(type('Sir William')).toBe('PERSON');
    expect(type('London')).toBe('LOCATION');
  });

  it('describes mentions with their sentence and gives keywords', () => {
    const { relations, entities } = extractor.extractText('Melanocytes produce melanin.');
    expect(relations[0].description).toBe('Melanocytes produce melanin.');
    expect(relations[0].keywords).toContain('produce');
    expect(entities.find((e) => e.name === 'melanin')!.description).toBe('Melanocytes produce melanin.');
  });

  it('links unrelated neighbouring phrases only when co-occurrence is on', () => {
    const text = 'In the old chapel near Bodmin Moor, the lantern of Tregeagle.';
    const on = createOfflineExtractor({ cooccurrence: true }).extractText(text);
    const off = createOfflineExtractor({ cooccurrence: false }).extractText(text);
    expect(on.relations.some((r) => r.label === 'related to')).toBe(true);
    expect(off.relations.some((r) => r.label === 'related to')).toBe(false);
  });

  it('is deterministic, has a stable id and honours abort', async () => {
    expect(extractor.id).toBe(OFFLINE_EXTRACTOR_ID);
    const chunk = { id: 'c', documentId: 'd', start: 0, end: MEDICAL_TEXT.length, text: MEDICAL_TEXT };
    expect(await extractor.extract({ chunk })).toEqual(await createOfflineExtractor().extract({ chunk }));
    const controller = new AbortController();
    controller.abort();
    await expect(extractor.extract({ chunk, abortSignal: controller.signal })).rejects.toMatchObject({ name: 'MosaicAbortedError' });
  });
});
