import { describe, expect, it } from 'vitest';
import { MEDICAL_TEXT, NOVEL_TEXT } from '../__fixtures__/fixture-documents.js';
import { chunkDocument, sentenceStarts } from './chunk-document.js';

const document = (text: string, id = 'd1') => ({ id, corpus: 'c', text });

describe('chunkDocument', () => {
  it('keeps offsets exact, chunks within size, on sentence boundaries, covering all text', () => {
    const text = `  ${MEDICAL_TEXT}\n\n${NOVEL_TEXT} ${MEDICAL_TEXT}  `;
    const chunks = chunkDocument({ document: document(text), chunkSize: 200 });
    expect(chunks.length).toBeGreaterThan(3);
    let previousEnd = 0;
    for (const chunk of chunks) {
      expect(chunk.text).toBe(text.slice(chunk.start, chunk.end));
      expect(chunk.text.length).toBeLessThanOrEqual(200);
      expect(chunk.text).toBe(chunk.text.trim());
      expect(chunk.start).toBeGreaterThanOrEqual(previousEnd);
      expect(text.slice(previousEnd, chunk.start).trim()).toBe(''); // nothing skipped
      expect(/[.?!]$/.test(chunk.text)).toBe(true); // sentence boundary
      previousEnd = chunk.end;
    }
    expect(text.slice(previousEnd).trim()).toBe('');
  });

  it("cuts at the starts of the outline's sections, not at entries (a function of a reference page, the rest of a section after its entries)", () => {
    const text = 'Functions. Intro here.\n\nf(x). Does f.\n\nMore of the page.\n\nOther. Its text.';
    const at = (phrase: string) => text.indexOf(phrase);
    const sections = [
      { path: ['Functions'], start: 0, end: at('f(x)') - 2 },
      { path: ['Functions', 'f(x)'], start: at('f(x)'), end: at('More') - 2, entry: true },
      { path: ['Functions'], start: at('More'), end: at('Other') - 2, entry: true },
      { path: ['Other'], start: at('Other'), end: text.length },
    ];
    const chunks = chunkDocument({ document: { ...document(text), outline: { sections } }, chunkSize: 1000 });
    expect(chunks.map((chunk) => chunk.text)).toEqual(['Functions. Intro here.\n\nf(x). Does f.\n\nMore of the page.', 'Other. Its text.']);
    // The same sections as parts of the outline (no entry): a cut at each.
    const plain = sections.map(({ entry: _entry, ...section }) => section);
    const cut = chunkDocument({ document: { ...document(text), outline: { sections: plain } }, chunkSize: 1000 });
    expect(cut.map((chunk) => chunk.text)).toEqual(['Functions. Intro here.', 'f(x). Does f.', 'More of the page.', 'Other. Its text.']);
  });

  it('gives stable ids that depend on document id and offsets', () => {
    const a = chunkDocument({ document: document(MEDICAL_TEXT), chunkSize: 150 });
    const b = chunkDocument({ document: document(MEDICAL_TEXT), chunkSize: 150 });
    expect(a.map((c) => c.id)).toEqual(b.map((c) => c.id));
    expect(new Set(a.map((c) => c.id)).size).toBe(a.length);
    const other = chunkDocument({ document: document(MEDICAL_TEXT, 'd2'), chunkSize: 150 });
    expect(other[0].id).not.toBe(a[0].id);
    expect(a[0].id).toMatch(/^c-[0-9a-f]{16}$/);
  });

  it('cuts a sentence longer than the chunk size at whitespace', () => {
    const long = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
    const chunks = chunkDocument({ document: document(long), chunkSize: 100 });
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(100);
      expect(long.slice(chunk.start, chunk.end)).toBe(chunk.text);
      expect(chunk.text.startsWith('word')).toBe(true);
    }
    expect(chunks.map((c) => c.text).join(' ')).toBe(long);
  });

  it('returns no chunks for blank text and refuses a tiny chunk size', () => {
    expect(chunkDocument({ document: document('   ') })).toEqual([]);
    expect(() => chunkDocument({ document: document('x'), chunkSize: 5 })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
  });

  it('finds sentence starts after terminators and line breaks', () => {
    expect(sentenceStarts('One. Two? "Three!" Four\nFive')).toEqual([5, 10, 19, 24]);
  });
});
