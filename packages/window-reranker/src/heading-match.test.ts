import { createBm25Index } from '@mosaic/vector-index';
import { describe, expect, it } from 'vitest';
import { corpusWordCount, corpusWordWeight, createHeadingMatcher, headingsOf, rarity } from './heading-match.js';

describe('headingsOf', () => {
  it('lists the title and the section trail, without section numbers or headings that have no words', () => {
    expect(
      headingsOf({ documentId: 'd', start: 0, end: 1, title: '34.10. Functions Associated with the COPY Command', section: ['A.1. Notes', '2.4 Tips', '---'] }),
    ).toEqual(['Functions Associated with the COPY Command', 'Notes', 'Tips']);
    expect(headingsOf({ documentId: 'd', start: 0, end: 1 })).toEqual([]);
    expect(headingsOf(undefined)).toEqual([]);
  });

  it('adds the headings of the sections beginning inside the span, each heading once', () => {
    const source = { documentId: 'd', start: 0, end: 1, title: 'Built-in Functions', section: ['Built-in Functions', 'repr(object)'] };
    expect(
      headingsOf(source, [
        ['Built-in Functions', 'round(number, ndigits=None)'],
        ['Built-in Functions', '2.1 set()'],
      ]),
    ).toEqual(['Built-in Functions', 'repr(object)', 'round(number, ndigits=None)', 'set()']);
    expect(headingsOf(undefined, [['Errors']])).toEqual([]);
  });
});

describe('createHeadingMatcher', () => {
  it('is the best cosine of rarity-weighted words over the headings, each word weighed once', () => {
    const asked: string[] = [];
    const weigh = (word: string) => {
      asked.push(word.toLowerCase());
      return word.toLowerCase() === 'copy' ? 3 : 1;
    };
    const match = createHeadingMatcher('What is the COPY command for?', weigh);
    // Question (copy 3, command 1); "COPY" alone: 9 / (√10 · 3); "Command Line": 1 / (√10 · √2).
    expect(match({ documentId: 'd', start: 0, end: 1, title: 'Command Line', section: ['COPY'] })).toBeCloseTo(3 / Math.sqrt(10), 10);
    expect(match({ documentId: 'd', start: 0, end: 1, title: 'Command Line' })).toBeCloseTo(1 / Math.sqrt(20), 10);
    expect(match({ documentId: 'd', start: 0, end: 1, title: 'Copy command' })).toBeCloseTo(1, 10);
    expect(match({ documentId: 'd', start: 0, end: 1 })).toBe(0);
    // A span that starts under "Command Line" and holds the opening of a section headed COPY.
    expect(match({ documentId: 'd', start: 0, end: 1, title: 'Command Line' }, [['Command Line', 'COPY']])).toBeCloseTo(3 / Math.sqrt(10), 10);
    expect(asked.filter((word) => word === 'copy')).toHaveLength(1);
  });
});

describe('corpusWordWeight', () => {
  it('weighs a word by the windows of the corpus holding it, asked of the lexical index with the word as written', () => {
    const documents = ['copy rows to a file', 'the command runs', 'another command', 'a command and a copy'];
    const weight = corpusWordWeight({ windowIds: ['a', 'b', 'c', 'd'], lexical: { windows: createBm25Index({ documents }) } })!;
    expect(weight('COPY')).toBeCloseTo(rarity(4, 2), 10);
    expect(weight('command')).toBeCloseTo(rarity(4, 3), 10);
    expect(weight('zebra')).toBeCloseTo(Math.log(5), 10);
    expect(corpusWordWeight({ windowIds: ['a'], lexical: {} })).toBeUndefined();
  });

  it('reads its counts from a counter given (corpusWordCount: each word asked of the index once per counter)', () => {
    const lexical = createBm25Index({ documents: ['copy rows to a file', 'the command runs', 'another command', 'a command and a copy'] });
    const asked: string[] = [];
    const spied = Object.assign(Object.create(lexical) as typeof lexical, {
      matchCount: (query: string) => {
        asked.push(query);
        return lexical.matchCount(query);
      },
    });
    const index = { windowIds: ['a', 'b', 'c', 'd'], lexical: { windows: spied } };
    const count = corpusWordCount(index)!;
    const weight = corpusWordWeight(index, count)!;
    expect(count('command')).toBe(3);
    expect(weight('command')).toBeCloseTo(rarity(4, 3), 10);
    expect(weight('COPY')).toBeCloseTo(rarity(4, 2), 10);
    expect(asked).toEqual(['command', 'COPY']);
    expect(corpusWordCount({ windowIds: ['a'], lexical: {} })).toBeUndefined();
  });
});
