import { describe, expect, it } from 'vitest';
import { checkWindowGeometry, cutWindows } from './cut-windows.js';

describe('cutWindows', () => {
  it('uses 1,600-character windows with stride 800 by default and reaches the end of the text', () => {
    const text = 'x'.repeat(4000);
    const windows = cutWindows(text);
    expect(windows.map((window) => [window.start, window.end])).toEqual([
      [0, 1600],
      [800, 2400],
      [1600, 3200],
      [2400, 4000],
    ]);
  });

  it('stops after the first window that reaches the end and keeps offsets consistent with the text', () => {
    const text = Array.from({ length: 53 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    const windows = cutWindows(text, { size: 20, stride: 15 });
    expect(windows.map((window) => [window.start, window.end])).toEqual([
      [0, 20],
      [15, 35],
      [30, 50],
      [45, 53],
    ]);
    for (const window of windows) expect(window.text).toBe(text.slice(window.start, window.end));
  });

  it('covers every character of the text', () => {
    const text = 'abcdefghij'.repeat(37);
    for (const [size, stride] of [
      [50, 50],
      [64, 16],
      [1000, 800],
    ]) {
      const covered = new Array<boolean>(text.length).fill(false);
      for (const window of cutWindows(text, { size, stride })) for (let i = window.start; i < window.end; i += 1) covered[i] = true;
      expect(covered.every(Boolean)).toBe(true);
    }
  });

  it('returns one window for a short text and none for an empty one', () => {
    expect(cutWindows('short', { size: 10, stride: 5 })).toEqual([{ start: 0, end: 5, text: 'short' }]);
    expect(cutWindows('')).toEqual([]);
  });

  it('rejects a geometry that would skip text or make no progress', () => {
    for (const geometry of [{ size: 0 }, { size: 10, stride: 11 }, { size: 10, stride: 0 }, { size: 1.5, stride: 1 }]) {
      expect(() => cutWindows('abc', geometry)).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
    }
  });
});

describe('checkWindowGeometry', () => {
  it('fills in the defaults and names the argument with the given prefix', () => {
    expect(checkWindowGeometry()).toEqual({ size: 1600, stride: 800 });
    expect(() => checkWindowGeometry({ size: 100, stride: 200 }, 'window.')).toThrowError(
      expect.objectContaining({ name: 'MosaicInvalidArgumentError', argument: 'window.stride' }),
    );
  });
});
