import { describe, expect, it } from 'vitest';
import { highlightWindow } from './highlight-window.js';

const DOCUMENT = 'Intro text. Morrow syndrome is treated with calditrex. Calditrex can cause liver strain. The end.';
const CHUNKS = new Map([
  ['c1', { documentId: 'd', start: 12, end: 54 }],
  ['c2', { documentId: 'd', start: 55, end: 87 }],
  ['other', { documentId: 'x', start: 0, end: 20 }],
]);

function windowOf(start: number, end: number) {
  return { text: DOCUMENT.slice(start, end), documentId: 'd', start, end };
}

describe('highlightWindow', () => {
  it('marks each evidence unit’s source chunk and its terms, and gives the text back unchanged', () => {
    const window = windowOf(0, DOCUMENT.length);
    const segments = highlightWindow({
      window,
      evidence: [
        { id: 'rel', chunkIds: ['c1'] },
        { id: 'ent', chunkIds: ['c2', 'other', 'missing'] },
      ],
      getChunk: (id) => CHUNKS.get(id),
      terms: new Map([
        ['rel', ['Morrow syndrome', 'calditrex']],
        ['ent', ['liver strain', 'ab']],
      ]),
    });
    expect(segments.map((s) => s.text).join('')).toBe(window.text);
    const covered = (id: string) =>
      segments
        .filter((s) => s.evidenceIds.includes(id))
        .map((s) => s.text)
        .join('');
    expect(covered('rel')).toBe(DOCUMENT.slice(12, 54));
    expect(covered('ent')).toBe(DOCUMENT.slice(55, 87));
    const marks = segments.filter((s) => s.termOf).map((s) => [s.text, s.termOf]);
    // Case-insensitive, whole words, both mentions of calditrex; terms under 3 characters are ignored.
    expect(marks).toEqual([
      ['Morrow syndrome', 'rel'],
      ['calditrex', 'rel'],
      ['Calditrex', 'rel'],
      ['liver strain', 'ent'],
    ]);
    expect(segments.find((s) => s.text === 'Intro text. ')?.evidenceIds).toEqual([]);
  });

  it('clips chunks to the window and skips chunk spans when the text is not the exact slice', () => {
    const window = windowOf(30, 70);
    const evidence = [{ id: 'rel', chunkIds: ['c1'] }];
    const clipped = highlightWindow({ window, evidence, getChunk: (id) => CHUNKS.get(id), terms: new Map() });
    expect(
      clipped
        .filter((s) => s.evidenceIds.includes('rel'))
        .map((s) => s.text)
        .join(''),
    ).toBe(DOCUMENT.slice(30, 54));
    const shifted = highlightWindow({ window: { ...window, end: 90 }, evidence, getChunk: (id) => CHUNKS.get(id), terms: new Map() });
    expect(shifted).toEqual([{ text: window.text, evidenceIds: [] }]);
  });

  it('lets the longer of two overlapping terms win and never matches inside a word', () => {
    const window = { text: 'Morrow syndromes and Morrow syndrome; Morrowland.', documentId: 'd', start: 0, end: 49 };
    const segments = highlightWindow({
      window,
      evidence: [
        { id: 'a', chunkIds: [] },
        { id: 'b', chunkIds: [] },
      ],
      getChunk: () => undefined,
      terms: new Map([
        ['a', ['Morrow']],
        ['b', ['Morrow syndrome']],
      ]),
    });
    expect(segments.filter((s) => s.termOf).map((s) => [s.text, s.termOf])).toEqual([
      ['Morrow', 'a'],
      ['Morrow syndrome', 'b'],
    ]);
    expect(segments.map((s) => s.text).join('')).toBe(window.text);
  });
});
