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
});
