import { createHash } from 'node:crypto';
import { InvalidArgumentError } from '@mosaic/spec';
import type { Chunk, SourceDocument, SourceWindow } from '@mosaic/spec';

/** Window geometry: `size` characters every `stride` characters. */
export interface WindowConfig {
  size: number;
  stride: number;
}

/** The report's windows: 1,600 characters, stride 800. */
export const DEFAULT_WINDOW: Readonly<WindowConfig> = { size: 1600, stride: 800 };

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

/** Check a window configuration (positive integers, stride ≤ size). */
export function checkWindowConfig(window: WindowConfig): WindowConfig {
  if (!Number.isInteger(window.size) || window.size < 1) {
    throw new InvalidArgumentError({ argument: 'window.size', message: `must be a positive integer, got ${window.size}` });
  }
  if (!Number.isInteger(window.stride) || window.stride < 1 || window.stride > window.size) {
    throw new InvalidArgumentError({ argument: 'window.stride', message: `must be an integer in [1, size], got ${window.stride}` });
  }
  return window;
}

/**
 * Fixed windows over a document: [k·stride, k·stride + size) clipped to the text, from k = 0
 * until a window reaches the end (a document shorter than `size` has one window). Each
 * window's `chunkIds` are the chunks it overlaps, in document order.
 */
export function windowDocument(options: WindowDocumentOptions): SourceWindow[] {
  const { document } = options;
  const { size, stride } = checkWindowConfig(options.window ?? DEFAULT_WINDOW);
  const text = document.text;
  const chunks = [...options.chunks].filter((c) => c.documentId === document.id).sort((a, b) => a.start - b.start);
  const windows: SourceWindow[] = [];
  if (text.length === 0) return windows;
  let first = 0; // first chunk that may overlap the current window
  for (let start = 0; ; start += stride) {
    const end = Math.min(start + size, text.length);
    while (first < chunks.length && chunks[first].end <= start) first++;
    const chunkIds: string[] = [];
    for (let i = first; i < chunks.length && chunks[i].start < end; i++) {
      if (chunks[i].end > start) chunkIds.push(chunks[i].id);
    }
    windows.push({ id: windowId(document.id, start, end), documentId: document.id, chunkIds, start, end, text: text.slice(start, end) });
    if (end >= text.length) break;
  }
  return windows;
}
