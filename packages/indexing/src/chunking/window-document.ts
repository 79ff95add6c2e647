import { createHash } from 'node:crypto';
import { cutWindows, DEFAULT_WINDOW_SIZE, DEFAULT_WINDOW_STRIDE } from '@mosaic/stage-utils';
import { checkWindowGeometry } from '@mosaic/stage-utils/internal';
import type { Chunk, SourceDocument, SourceWindow } from '@mosaic/spec';

/** Window geometry: `size` characters every `stride` characters. */
export interface WindowConfig {
  size: number;
  stride: number;
}

/** The report's windows: 1,600 characters, stride 800. */
export const DEFAULT_WINDOW: Readonly<WindowConfig> = { size: DEFAULT_WINDOW_SIZE, stride: DEFAULT_WINDOW_STRIDE };

export interface WindowDocumentOptions {
  document: SourceDocument;
  /** The document's chunks (any order); each window lists the chunks it overlaps. */
  chunks: readonly Chunk[];
  window?: WindowConfig;
}

/** Stable window id: `w-` + 16 hex of sha1(documentId:start:end). */
export function windowId(documentId: string, start: number, end: number): string {
  return `w-${createHash('sha1').update(`${documentId}:${start}:${end}`).digest('hex').slice(0, 16)}`;
}

/** Check a window configuration (positive integers, stride ≤ size); errors name `window.size` / `window.stride`. */
export function checkWindowConfig(window: WindowConfig): WindowConfig {
  return checkWindowGeometry(window, 'window.');
}

/**
 * Fixed windows over a document (`cutWindows` of @mosaic/stage-utils): [k·stride, k·stride + size)
 * clipped to the text, from k = 0 until a window reaches the end (a document shorter than `size`
 * has one window, an empty one none). Each window's `chunkIds` are the chunks it overlaps, in
 * document order.
 */
export function windowDocument(options: WindowDocumentOptions): SourceWindow[] {
  const { document } = options;
  const chunks = [...options.chunks].filter((c) => c.documentId === document.id).sort((a, b) => a.start - b.start);
  let first = 0; // first chunk that may overlap the current window
  return cutWindows(document.text, checkWindowConfig(options.window ?? DEFAULT_WINDOW)).map(({ start, end, text }) => {
    while (first < chunks.length && chunks[first].end <= start) first++;
    const chunkIds: string[] = [];
    for (let i = first; i < chunks.length && chunks[i].start < end; i++) {
      if (chunks[i].end > start) chunkIds.push(chunks[i].id);
    }
    return { id: windowId(document.id, start, end), documentId: document.id, chunkIds, start, end, text };
  });
}
