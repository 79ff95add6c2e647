import { describe, expect, it } from 'vitest';
import { chunkDocument } from './chunk-document.js';
import { InMemoryChunkStore } from './in-memory-chunk-store.js';
import { windowDocument } from './window-document.js';

const text = Array.from({ length: 400 }, (_, i) => `Sentence number ${i} is here.`).join(' ');
const document = { id: 'doc', corpus: 'c', text };

describe('windowDocument', () => {
  it('cuts size/stride windows with exact offsets and the chunks each overlaps', () => {
    const chunks = chunkDocument({ document, chunkSize: 500 });
    const windows = windowDocument({ document, chunks, window: { size: 1600, stride: 800 } });
    expect(windows[0]).toMatchObject({ start: 0, end: 1600 });
    expect(windows[1]).toMatchObject({ start: 800, end: 2400 });
    expect(windows.at(-1)!.end).toBe(text.length);
    expect(windows.at(-2)!.end).toBeLessThan(text.length);
    for (const window of windows) {
      expect(window.text).toBe(text.slice(window.start, window.end));
      const expected = chunks.filter((c) => c.start < window.end && c.end > window.start).map((c) => c.id);
      expect(window.chunkIds).toEqual(expected);
      expect(window.chunkIds.length).toBeGreaterThan(0);
    }
  });

  it('gives a short document one window', () => {
    const short = { id: 's', corpus: 'c', text: 'Short text.' };
    const chunks = chunkDocument({ document: short });
    expect(windowDocument({ document: short, chunks })).toEqual([
      expect.objectContaining({ start: 0, end: 11, text: 'Short text.', chunkIds: [chunks[0].id] }),
    ]);
  });

  it('refuses a stride larger than the size', () => {
    expect(() => windowDocument({ document, chunks: [], window: { size: 100, stride: 200 } })).toThrowError(
      expect.objectContaining({ name: 'MosaicInvalidArgumentError', argument: 'window.stride' }),
    );
  });
});

describe('InMemoryChunkStore', () => {
  it('answers chunks, windows and windows of a chunk in document order', () => {
    const chunks = chunkDocument({ document, chunkSize: 500 });
    const windows = windowDocument({ document, chunks });
    const store = new InMemoryChunkStore({ chunks, windows: [...windows].reverse() });
    expect(store.chunkCount).toBe(chunks.length);
    expect(store.windowCount).toBe(windows.length);
    const middle = chunks[Math.floor(chunks.length / 2)];
    const of = store.windowsOfChunk(middle.id);
    expect(of.length).toBeGreaterThanOrEqual(2);
    expect(of.map((w) => w.start)).toEqual([...of.map((w) => w.start)].sort((a, b) => a - b));
    for (const w of of) expect(w.start < middle.end && w.end > middle.start).toBe(true);
    expect(store.getChunk(middle.id)).toEqual(middle);
    expect(store.getWindow(windows[0].id)).toEqual(windows[0]);
    expect(store.getChunk('nope')).toBeUndefined();
    expect(store.windowsOfChunk('nope')).toEqual([]);
  });
});
