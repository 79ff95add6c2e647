import { InvalidArgumentError } from '@mosaic/spec';

/** Window geometry: characters per window and characters between window starts. */
export interface WindowGeometry {
  /** Characters per window (default 1,600). */
  size?: number;
  /** Characters between consecutive window starts (default 800; must be ≤ size so nothing is skipped). */
  stride?: number;
}

/** One window cut from a text, with character offsets into it. */
export interface TextWindow {
  start: number;
  end: number;
  text: string;
}

/** The report's window geometry: 1,600 characters, stride 800. */
export const DEFAULT_WINDOW_SIZE = 1600;
export const DEFAULT_WINDOW_STRIDE = 800;

/**
 * Check a window geometry and fill in the defaults: `size` a positive integer, `stride` an
 * integer in 1..size. InvalidArgumentError names `${argumentPrefix}size` or `${argumentPrefix}stride`.
 */
export function checkWindowGeometry(geometry: WindowGeometry = {}, argumentPrefix = ''): Required<WindowGeometry> {
  const size = geometry.size ?? DEFAULT_WINDOW_SIZE;
  const stride = geometry.stride ?? DEFAULT_WINDOW_STRIDE;
  if (!Number.isInteger(size) || size <= 0) {
    throw new InvalidArgumentError({ argument: `${argumentPrefix}size`, message: `must be a positive integer, got ${size}` });
  }
  if (!Number.isInteger(stride) || stride <= 0 || stride > size) {
    throw new InvalidArgumentError({ argument: `${argumentPrefix}stride`, message: `must be an integer in 1..size (${size}), got ${stride}` });
  }
  return { size, stride };
}

/**
 * Cut a text into fixed-size overlapping windows: starts at 0, stride, 2·stride, …; the last window
 * ends at the end of the text and no window starts after one that already reached the end. A text
 * shorter than `size` gives one window; an empty text gives none. Indexing cuts every document's
 * windows with it, the window reranker the windows of a chunk.
 */
export function cutWindows(text: string, geometry: WindowGeometry = {}): TextWindow[] {
  const { size, stride } = checkWindowGeometry(geometry);
  const windows: TextWindow[] = [];
  for (let start = 0; start < text.length; start += stride) {
    const end = Math.min(text.length, start + size);
    windows.push({ start, end, text: text.slice(start, end) });
    if (end === text.length) break;
  }
  return windows;
}
