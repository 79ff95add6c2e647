import type { DocumentOutline } from '@mosaic/spec';
import { describe, expect, it } from 'vitest';
import { lineAnchors, locateSpan } from './locate-span.js';

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
