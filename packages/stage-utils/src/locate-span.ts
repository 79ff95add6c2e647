import type { DocumentOutline, SourceLocation } from '@mosaic/spec';

/** The value of the last anchor at or before `offset` (anchors ascending by offset), or undefined. */
function anchorAt(anchors: ReadonlyArray<readonly [number, number]>, offset: number): number | undefined {
  let low = 0;
  let high = anchors.length - 1;
  let found: number | undefined;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const anchor = anchors[middle] as readonly [number, number];
    if (anchor[0] <= offset) {
      found = anchor[1];
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** The section that holds `offset`: the innermost (latest-starting) section whose range contains it. */
function sectionAt(outline: DocumentOutline, offset: number): string[] | undefined {
  let best: string[] | undefined;
  let bestStart = -1;
  for (const section of outline.sections ?? []) {
    if (section.start <= offset && offset < section.end && section.start >= bestStart) {
      best = section.path;
      bestStart = section.start;
    }
  }
  return best;
}

/**
 * Where the character range `[start, end)` of a document's clean text sits in its source:
 * title, section (heading trail at `start`) and the 1-based line / page span, from the
 * document's outline. Without an outline only the document id and offsets are known.
 */
export function locateSpan(documentId: string, start: number, end: number, outline?: DocumentOutline): SourceLocation {
  const location: SourceLocation = { documentId, start, end };
  if (!outline) return location;
  if (outline.title) location.title = outline.title;
  const section = sectionAt(outline, start);
  if (section && section.length > 0) location.section = section;
  const last = Math.max(start, end - 1);
  if (outline.lines && outline.lines.length > 0) {
    const first = anchorAt(outline.lines, start);
    const final = anchorAt(outline.lines, last);
    if (first !== undefined && final !== undefined) location.lines = { start: first, end: Math.max(first, final) };
  }
  if (outline.pages && outline.pages.length > 0) {
    const first = anchorAt(outline.pages, start);
    const final = anchorAt(outline.pages, last);
    if (first !== undefined && final !== undefined) location.pages = { start: first, end: Math.max(first, final) };
  }
  return location;
}

/**
 * Line anchors for plain text: one `[offset, line]` per line start, so that `locateSpan` gives
 * the exact 1-based lines of a span. `firstLine` is the source line of offset 0 (default 1).
 */
export function lineAnchors(text: string, firstLine = 1): Array<[number, number]> {
  const anchors: Array<[number, number]> = [[0, firstLine]];
  let line = firstLine;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    line += 1;
    if (index + 1 < text.length) anchors.push([index + 1, line]);
  }
  return anchors;
}
