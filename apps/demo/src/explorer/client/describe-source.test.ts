import { describe, expect, it } from 'vitest';
import { describeSource } from './describe-source.js';

describe('describeSource', () => {
  it('names the document, its title, the section trail and the line or page span', () => {
    const base = { documentId: 'guide.md', start: 0, end: 100 };
    expect(
      describeSource({
        ...base,
        source: { documentId: 'guide.md', start: 0, end: 100, title: 'Zephyr', section: ['Zephyr', 'Installing'], lines: { start: 7, end: 12 } },
      }),
    ).toBe('guide.md (Zephyr) · Zephyr › Installing · lines 7–12');
    expect(
      describeSource({ ...base, documentId: 'm.pdf', source: { documentId: 'm.pdf', start: 0, end: 9, title: 'm.pdf', pages: { start: 2, end: 2 } } }),
    ).toBe('m.pdf · page 2');
    expect(describeSource(base)).toBe('guide.md @ 0–100');
  });
});
