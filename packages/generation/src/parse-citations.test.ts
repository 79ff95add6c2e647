import { describe, expect, it } from 'vitest';
import { parseCitations } from './parse-citations.js';

const windows = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }));

describe('parseCitations', () => {
  it('reads [n], lists, ranges and [source n], deduplicated in order of appearance', () => {
    expect(parseCitations('X [3]. Y [1, 2]. Z [2-4]. W [source 5]. V [3][3].', windows)).toEqual([
      { window: 3, windowId: 'c' },
      { window: 1, windowId: 'a' },
      { window: 2, windowId: 'b' },
      { window: 4, windowId: 'd' },
      { window: 5, windowId: 'e' },
    ]);
  });

  it('ignores numbers that are not window numbers and text that is not a citation', () => {
    expect(parseCitations('In [0] and [6] and [1999] and (2) and [a] and [1-400].', windows)).toEqual([]);
    expect(parseCitations('No sources.', windows)).toEqual([]);
  });
});
