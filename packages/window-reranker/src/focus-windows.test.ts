import type { RankedWindow } from '@mosaic/spec';
import { describe, expect, it } from 'vitest';
import { focusWindows } from './focus-windows.js';

const window = (id: string, documentId: string, score: number, text: string, start = 0): RankedWindow => ({
  id,
  documentId,
  start,
  end: start + text.length,
  text,
  score,
  evidenceIds: [],
});

describe('focusWindows', () => {
  const answer = window(
    'mpl-2',
    'MPL-2.0.txt',
    0.5,
    'Definitions follow. "Larger Work" means a work that combines Covered Software with other material. More text here.',
  );
  const windows = [
    window('lgpl-1', 'LGPL-2.1.txt', 0.9, 'A program based on the Library may be distributed. The Library is covered by this License.'),
    window('mpl-1', 'MPL-2.0.txt', 0.7, 'Covered Software is made available. You may distribute Covered Software in Source Code Form.'),
    answer,
  ];

  it('puts the window holding the answering sentence of the best-supported document first', () => {
    const { windows: focused, trace } = focusWindows({ question: 'What is a Larger Work under the MPL?', windows });
    expect(focused[0]!.id).toBe('mpl-2');
    expect(trace.reordered).toBe(true);
    // Only the answering window moves; the others keep the reranker's order.
    expect(focused.map((w) => w.id)).toEqual(['mpl-2', 'lgpl-1', 'mpl-1']);
    // The reranker's score is kept; the focus terms are added.
    expect(focused[0]!.score).toBe(0.5);
    expect(focused[0]!.scores?.focusProximity).toBe(1);
  });

  it('moves only the focus window, even when other windows would also rank higher by focus', () => {
    const more = [
      window('w1', 'A.txt', 0.9, 'Nothing relevant is said here at all.'),
      window('w2', 'A.txt', 0.8, 'Still nothing relevant here.'),
      window('w3', 'B.txt', 0.7, 'Red apples grow on trees.'),
      window('w4', 'B.txt', 0.6, 'Red apples grow on apple trees in autumn orchards.'),
    ];
    const { windows: focused, trace } = focusWindows({ question: 'Where do red apples grow in autumn?', windows: more });
    expect(focused.map((w) => w.id)).toEqual(['w4', 'w1', 'w2', 'w3']);
    expect(trace.windows[0]!.id).toBe('w4');
  });

  it('reads the evidence as support for a document', () => {
    const tie = [window('a', 'A.txt', 1, 'Apples are red fruit.'), window('b', 'B.txt', 1, 'Apples are red fruit too.')];
    const without = focusWindows({ question: 'Are apples red?', windows: tie });
    const withEvidence = focusWindows({ question: 'Are apples red?', windows: tie, documentSupport: new Map([['B.txt', 2]]) });
    expect(without.windows[0]!.id).toBe('a');
    expect(withEvidence.windows[0]!.id).toBe('b');
  });

  it('keeps the order when no window holds a question word (ties go to the reranker)', () => {
    const { windows: focused, trace } = focusWindows({ question: 'zebra quagga', windows });
    expect(focused.map((w) => w.id)).toEqual(['lgpl-1', 'mpl-1', 'mpl-2']);
    expect(trace.reordered).toBe(false);
  });

  describe('the heading term (title and section trail of window.source)', () => {
    const located = (base: RankedWindow, title: string | undefined, section?: string[]): RankedWindow => ({
      ...base,
      source: { documentId: base.documentId, start: base.start, end: base.end, ...(title ? { title } : {}), ...(section ? { section } : {}) },
    });
    const text = 'The command copies rows between a table and a file.';
    const pages = (sourced: boolean) => [
      sourced
        ? located(window('libpq', 'libpq-copy.html', 1, text), '34.10. Functions Associated with the COPY Command')
        : window('libpq', 'libpq-copy.html', 1, text),
      sourced ? located(window('sql', 'sql-copy.html', 1, text), 'COPY', ['Description']) : window('sql', 'sql-copy.html', 1, text),
    ];

    it('puts first the window whose document title names what the question asks about, and leaves windows without an outline at 0', () => {
      const question = 'What is the COPY command for?';
      // "copy" is rare in the corpus, "command" common: a title that is only COPY fits best.
      const wordWeight = (word: string) => (word.toLowerCase() === 'copy' ? 5 : 1);
      const plain = focusWindows({ question, windows: pages(false), wordWeight });
      expect(plain.windows.map((w) => w.id)).toEqual(['libpq', 'sql']);
      expect(plain.trace.windows.map((w) => w.heading)).toEqual([0, 0]);
      const { windows: focused, trace } = focusWindows({ question, windows: pages(true), wordWeight });
      expect(focused.map((w) => w.id)).toEqual(['sql', 'libpq']);
      const [sql, libpq] = trace.windows;
      // COPY: cosine of (copy 5, command 1) with (copy 5) = 25 / (√26 · 5).
      expect(sql!.heading).toBeCloseTo(5 / Math.sqrt(26), 5);
      // The section number is not a word of the heading; function and associated weigh 1 each.
      expect(libpq!.heading).toBeCloseTo(26 / (Math.sqrt(26) * Math.sqrt(28)), 5);
      expect(focused[0]!.scores?.focusHeading).toBe(sql!.heading);
      expect(sql!.score).toBeCloseTo(sql!.proximity + sql!.document + sql!.heading, 5);
    });

    it('reads the headings of the sections that begin inside a window (sectionsWithin)', () => {
      const question = 'How does round treat a number halfway between two choices?';
      // Two windows of one reference page: the first starts in repr() and holds the opening of round().
      const page = 'library/functions.rst';
      const holdsRound = located(
        window('w1', page, 0.6, 'repr(object) returns a printable string. round(number) rounds the number; halfway values go to the even choice.'),
        'Built-in Functions',
        ['Built-in Functions', 'repr(object)'],
      );
      const later = located(window('w2', page, 1, 'set() returns a new set. A number of choices may be given.', 800), 'Built-in Functions', [
        'Built-in Functions',
        'set(iterable)',
      ]);
      const wordWeight = (word: string) => (word.toLowerCase() === 'round' ? 5 : 1);
      const inner = new Map([['w1', [['Built-in Functions', 'round(number, ndigits=None)']]]]);
      const withInner = focusWindows({ question, windows: [later, holdsRound], wordWeight, sectionsWithin: (w) => inner.get(w.id) ?? [] });
      const withoutInner = focusWindows({ question, windows: [later, holdsRound], wordWeight });
      const headingOf = (trace: typeof withInner.trace, id: string) => trace.windows.find((w) => w.id === id)!.heading;
      expect(headingOf(withoutInner.trace, 'w1')).toBe(0);
      // round(number, ndigits=None): round 5, number 1, ndigits 1 against the question's words.
      expect(headingOf(withInner.trace, 'w1')).toBeGreaterThan(0.5);
      expect(headingOf(withInner.trace, 'w2')).toBe(0);
      expect(withInner.windows[0]!.id).toBe('w1');
      expect(withInner.windows[0]!.scores?.focusHeading).toBe(headingOf(withInner.trace, 'w1'));
    });

    it('weighs words by their rarity among the windows when no corpus weight is given', () => {
      const question = 'What is the COPY command for?';
      const windows = [
        located(window('a', 'a.html', 1, 'A command runs. Nothing else.'), 'Command'),
        located(window('b', 'b.html', 1, 'A command runs. Nothing else.'), 'COPY'),
        window('c', 'c.html', 1, 'Each command is parsed, and COPY reads rows.'),
      ];
      // "command" is in every window (weight ln 2), "copy" in one (ln 4): the COPY title fits better.
      const { trace } = focusWindows({ question, windows });
      const heading = Object.fromEntries(trace.windows.map((w) => [w.id, w.heading]));
      expect(heading.b).toBeGreaterThan(heading.a!);
      expect(heading.c).toBe(0);
    });
  });
});
