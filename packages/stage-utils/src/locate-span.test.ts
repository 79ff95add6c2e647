import type { DocumentOutline } from '@mosaic/spec';
import { describe, expect, it } from 'vitest';
import { lineAnchors, locateSpan, packOutlineAnchors, sectionsWithin } from './locate-span.js';

describe('lineAnchors', () => {
  it('anchors every line start', () => {
    expect(lineAnchors('ab\ncd\n\nef')).toEqual([
      [0, 1],
      [3, 2],
      [6, 3],
      [7, 4],
    ]);
    expect(lineAnchors('x\n', 10)).toEqual([[0, 10]]);
  });
});

describe('locateSpan', () => {
  const text = 'Title\nintro line\n\nUsage\nrun it\nstop it\n';
  const outline: DocumentOutline = {
    title: 'Guide',
    format: 'markdown',
    sections: [
      { path: ['Guide'], start: 0, end: text.length },
      { path: ['Guide', 'Usage'], start: 18, end: text.length },
    ],
    lines: lineAnchors(text),
  };

  it('names the title, the innermost section and the line span', () => {
    const start = text.indexOf('run it');
    const end = text.indexOf('stop it') + 'stop it'.length;
    expect(locateSpan('docs/guide.md', start, end, outline)).toEqual({
      documentId: 'docs/guide.md',
      title: 'Guide',
      section: ['Guide', 'Usage'],
      start,
      end,
      lines: { start: 5, end: 6 },
    });
  });

  it('takes the outer section before the inner one starts', () => {
    expect(locateSpan('d', 6, 16, outline).section).toEqual(['Guide']);
  });

  it('gives pages from page anchors', () => {
    const location = locateSpan('a.pdf', 150, 420, {
      pages: [
        [0, 1],
        [100, 2],
        [400, 3],
      ],
    });
    expect(location.pages).toEqual({ start: 2, end: 3 });
    expect(location.lines).toBeUndefined();
  });

  it('gives only ids and offsets without an outline', () => {
    expect(locateSpan('d', 3, 9)).toEqual({ documentId: 'd', start: 3, end: 9 });
  });
});

describe('sectionsWithin', () => {
  // Reference page: two function entries, the rest of the section after them, then a new section.
  const outline: DocumentOutline = {
    sections: [
      { path: ['Functions'], start: 0, end: 100 },
      { path: ['Functions', 'open(path)'], start: 20, end: 50, entry: true },
      { path: ['Functions', 'close(fd)'], start: 50, end: 80, entry: true },
      { path: ['Functions'], start: 80, end: 100, entry: true },
      { path: ['Errors'], start: 100, end: 160 },
    ],
  };

  it('lists the trails of the sections that begin after the start and before the end, each once, in document order', () => {
    expect(sectionsWithin(outline, 10, 60)).toEqual([
      ['Functions', 'open(path)'],
      ['Functions', 'close(fd)'],
    ]);
    // The rest of Functions after its entries repeats a trail already listed once.
    expect(sectionsWithin(outline, 0, 160)).toEqual([['Functions', 'open(path)'], ['Functions', 'close(fd)'], ['Functions'], ['Errors']]);
    expect(sectionsWithin(outline, 70, 101)).toEqual([['Functions'], ['Errors']]);
  });

  it('leaves out the section the span starts in and one that begins at its end', () => {
    expect(sectionsWithin(outline, 20, 50)).toEqual([]);
    expect(sectionsWithin(outline, 100, 160)).toEqual([]);
  });

  it('is empty without an outline or sections', () => {
    expect(sectionsWithin(undefined, 0, 100)).toEqual([]);
    expect(sectionsWithin({ title: 'Guide' }, 0, 100)).toEqual([]);
  });
});

describe('packOutlineAnchors', () => {
  const text = Array.from({ length: 300 }, (_, i) => `line ${i + 1} of the guide`).join('\n');
  const outlineOf = (): DocumentOutline => ({
    title: 'Guide',
    format: 'pdf',
    sections: [{ path: ['Guide'], start: 0, end: text.length }],
    lines: lineAnchors(text, 5),
    pages: [
      [0, 1],
      [2000, 2],
      [5000, 3],
    ],
  });

  it('locates every span as the unpacked outline does', () => {
    const plain = outlineOf();
    const packed = packOutlineAnchors(outlineOf());
    for (let start = 0; start < text.length; start += 37) {
      for (const length of [1, 40, 700]) expect(locateSpan('d', start, start + length, packed)).toEqual(locateSpan('d', start, start + length, plain));
    }
    const lineOf = (offset: number) => 5 + text.slice(0, offset).split('\n').length - 1;
    expect(locateSpan('d', 2100, 5200, packed)).toMatchObject({ lines: { start: lineOf(2100), end: lineOf(5199) }, pages: { start: 2, end: 3 } });
  });

  it('gives the same anchors when read, serialised, spread or cloned, and keeps no array per anchor', () => {
    const plain = outlineOf();
    const packed = packOutlineAnchors(outlineOf());
    expect(packed.lines).toEqual(plain.lines);
    expect(packed.pages).toEqual(plain.pages);
    expect(JSON.parse(JSON.stringify(packed))).toEqual(JSON.parse(JSON.stringify(plain)));
    expect({ ...packed }).toEqual(plain);
    expect(structuredClone(packed)).toEqual(plain);
    expect(Object.keys(packed)).toEqual(Object.keys(plain));
    // A getter: the anchors are built when read, not held.
    expect(Object.getOwnPropertyDescriptor(packed, 'lines')?.get).toBeTypeOf('function');
    expect(packed.lines).not.toBe(packed.lines);
  });

  it('stores an assigned list as given and locates with it', () => {
    const packed = packOutlineAnchors(outlineOf());
    packed.lines = [[0, 100]];
    expect(packed.lines).toEqual([[0, 100]]);
    expect(locateSpan('d', 50, 60, packed).lines).toEqual({ start: 100, end: 100 });
    packed.pages = undefined;
    expect(locateSpan('d', 50, 60, packed).pages).toBeUndefined();
  });

  it('leaves a list with a value that is not a 32-bit integer as it is', () => {
    const odd: DocumentOutline = {
      lines: [
        [0, 1],
        [10, 2.5],
      ],
      pages: [[0, 2 ** 40]],
    };
    const packed = packOutlineAnchors(odd);
    expect(Object.getOwnPropertyDescriptor(packed, 'lines')?.value).toEqual([
      [0, 1],
      [10, 2.5],
    ]);
    expect(locateSpan('d', 12, 13, packed).lines).toEqual({ start: 2.5, end: 2.5 });
    expect(locateSpan('d', 0, 1, packed).pages).toEqual({ start: 2 ** 40, end: 2 ** 40 });
  });

  it('leaves a frozen outline, or an anchor list that cannot be redefined, as it is', () => {
    const frozen = Object.freeze(outlineOf());
    expect(packOutlineAnchors(frozen)).toBe(frozen);
    expect(Object.getOwnPropertyDescriptor(frozen, 'lines')?.value).toEqual(outlineOf().lines);
    expect(locateSpan('d', 100, 200, frozen)).toEqual(locateSpan('d', 100, 200, outlineOf()));
    const fixed = outlineOf();
    Object.defineProperty(fixed, 'lines', { configurable: false });
    packOutlineAnchors(fixed);
    expect(Object.getOwnPropertyDescriptor(fixed, 'lines')?.value).toEqual(outlineOf().lines);
    expect(Object.getOwnPropertyDescriptor(fixed, 'pages')?.get).toBeTypeOf('function');
  });

  it('keeps an empty list empty', () => {
    const packed = packOutlineAnchors({ lines: [] });
    expect(packed.lines).toEqual([]);
    expect(locateSpan('d', 0, 5, packed).lines).toBeUndefined();
  });
});
