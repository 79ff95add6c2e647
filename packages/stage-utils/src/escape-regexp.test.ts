import { describe, expect, it } from 'vitest';
import { escapeRegExp } from './escape-regexp.js';

describe('escapeRegExp', () => {
  it('makes a pattern that matches the text as written, and nothing else', () => {
    const text = 'a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o';
    const pattern = new RegExp(`^${escapeRegExp(text)}$`);
    expect(pattern.test(text)).toBe(true);
    expect(pattern.test('aXb*c+d?e^f$g{h}i(j)k|l[m]n\\o')).toBe(false);
    expect(escapeRegExp('plain words')).toBe('plain words');
  });
});
