import type { RankedWindow } from '@mosaic/spec';
import { describe, expect, it } from 'vitest';
import { abstainedAnswer, describeSource } from './answer-sources.js';
import { judgeSupport } from './support.js';

const window = (id: string, text: string): RankedWindow => ({ id, documentId: `${id}.txt`, start: 0, end: text.length, text, score: 1, evidenceIds: [] });
const windows = [
  window('gpl', 'A "User Product" is either a consumer product or anything designed for incorporation into a dwelling.'),
  window('mpl', 'Larger Work means a work that combines Covered Software with other material.'),
];
const index = { windowIds: windows.map((w) => w.id) };

describe('judgeSupport', () => {
  it('answers when a top window holds the question', () => {
    const support = judgeSupport({ question: 'What is a User Product?', windows, index });
    expect(support.abstain).toBe(false);
    expect(support.coverage).toBe(1);
    expect(support.bestWindow).toBe('gpl');
  });

  it.each([
    ['a', 'no-content-words'],
    ['?', 'no-content-words'],
    ['🙂🎉', 'unreadable-script'],
    ['这个许可证允许商业使用吗？', 'unreadable-script'],
    ['blorf zintak quibble', 'no-match'],
    ['What is the recommended dose of ibuprofen for a product?', 'weak-match'],
  ])('abstains on %s (%s)', (question, reason) => {
    const support = judgeSupport({ question, windows, index });
    expect(support.abstain).toBe(true);
    expect(support.reason).toBe(reason);
  });

  it('abstains when nothing was retrieved', () => {
    expect(judgeSupport({ question: 'What is a User Product?', windows: [], index }).reason).toBe('no-windows');
  });

  it('warns about a script the encoder cannot read, even when Latin words are found', () => {
    const support = judgeSupport({ question: 'User Product 是什么', windows, index });
    expect(support.abstain).toBe(false);
    expect(support.warnings).toHaveLength(1);
  });

  it('weighs a word the corpus never uses as its rarest word (an acronym the text spells out still answers)', () => {
    const support = judgeSupport({ question: 'What is a Larger Work under the MPL?', windows, index });
    expect(support.unknownTokens).toEqual(['mpl']);
    expect(support.abstain).toBe(false);
  });
});

describe('abstainedAnswer', () => {
  it('says plainly that nothing answers, names the closest passages and marks the answer', () => {
    const support = judgeSupport({ question: 'What is the recommended dose of ibuprofen for a product?', windows, index });
    const answer = abstainedAnswer({ question: { text: 'What is the dose?' }, support, windows });
    expect(answer.abstained).toBe(true);
    expect(answer.reason).toBe('weak-match');
    expect(answer.text).toMatch(/^No passage in this corpus answers “What is the dose\?”/);
    expect(answer.text).toContain('gpl.txt');
    expect(answer.citations.map((c) => c.windowId)).toEqual(['gpl', 'mpl']);
  });
});

describe('describeSource', () => {
  it('names the file, section and lines, or the characters without lines', () => {
    expect(describeSource({ documentId: 'guide.md', start: 5, end: 9, section: ['Install', 'Debian'], lines: { start: 3, end: 4 } })).toBe(
      'guide.md, Install › Debian, lines 3–4',
    );
    expect(describeSource({ documentId: 'a.txt', start: 5, end: 9 })).toBe('a.txt, characters 5–9');
  });
});
