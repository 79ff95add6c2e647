import type { DocumentOutline, SourceLocation } from '@mosaic/spec';

type AnchorKind = 'lines' | 'pages';

/** Where `packOutlineAnchors` keeps an outline's packed anchors (a registered symbol: one key for every copy of this package). */
const PACKED = Symbol.for('@mosaic/stage-utils/packed-anchors');

type PackedTables = Partial<Record<AnchorKind, Int32Array>>;

/**
 * Keeps `outline`'s anchors (`lines`, `pages`) packed, in place: each list becomes one `Int32Array`
 * of `offset, value` pairs, and the property a getter that builds the `[offset, value]` array from
 * it when read (enumerable, so JSON, spreading and structured cloning still see the array; assigning
 * the property stores the new value as given). A document of plain text has an anchor per line:
 * 100 MB of documentation held 2.6 million of these two-number arrays, a fifth of a loaded index's
 * JavaScript heap, which every full garbage collection marked. `locateSpan` reads the packed form
 * without building the array. A list that does not fit (a value that is not a 32-bit integer) is left
 * as it is, and so is a frozen or sealed outline. Returns `outline`.
 */
export function packOutlineAnchors<T extends DocumentOutline>(outline: T): T {
  // A frozen or sealed outline (or a property that cannot be redefined) is left as it is.
  if (!Object.isExtensible(outline)) return outline;
  let tables = (outline as { [PACKED]?: PackedTables })[PACKED];
  for (const kind of ['lines', 'pages'] as const) {
    const anchors = outline[kind];
    if (!Array.isArray(anchors) || Object.getOwnPropertyDescriptor(outline, kind)?.configurable === false) continue;
    const packed = new Int32Array(2 * anchors.length);
    let fits = true;
    for (let i = 0; i < anchors.length && fits; i += 1) {
      const anchor = anchors[i];
      fits = Array.isArray(anchor) && anchor.length === 2 && isInt32(anchor[0]) && isInt32(anchor[1]);
      if (fits) {
        packed[2 * i] = anchor[0];
        packed[2 * i + 1] = anchor[1];
      }
    }
    if (!fits) continue;
    if (!tables) {
      tables = {};
      Object.defineProperty(outline, PACKED, { value: tables, enumerable: false, configurable: true });
    }
    tables[kind] = packed;
    Object.defineProperty(outline, kind, {
      enumerable: true,
      configurable: true,
      get: () => unpackAnchors(packed),
      set(value: Array<[number, number]> | undefined) {
        delete tables![kind];
        Object.defineProperty(outline, kind, { value, writable: true, enumerable: true, configurable: true });
      },
    });
  }
  return outline;
}

function isInt32(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff;
}

function unpackAnchors(packed: Int32Array): Array<[number, number]> {
  const anchors = new Array<[number, number]>(packed.length / 2);
  for (let i = 0; i < anchors.length; i += 1) anchors[i] = [packed[2 * i], packed[2 * i + 1]];
  return anchors;
}

/** The position of the last of `count` anchors (ascending by offset) whose offset is at most `offset`, or −1. */
function lastAnchorAt(count: number, offsetAt: (position: number) => number, offset: number): number {
  let low = 0;
  let high = count - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (offsetAt(middle) <= offset) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** The span `[first, last]` of `outline`'s anchors of `kind` covers (packed or not), or undefined. */
function anchorSpan(outline: DocumentOutline, kind: AnchorKind, first: number, last: number): { start: number; end: number } | undefined {
  const packed = (outline as { [PACKED]?: PackedTables })[PACKED]?.[kind];
  const anchors = packed ? undefined : outline[kind];
  const count = packed ? packed.length / 2 : (anchors?.length ?? 0);
  if (count === 0) return undefined;
  const offsetAt = packed ? (position: number) => packed[2 * position] : (position: number) => anchors![position][0];
  const valueAt = (position: number): number | undefined => (position < 0 ? undefined : packed ? packed[2 * position + 1] : anchors![position][1]);
  const start = valueAt(lastAnchorAt(count, offsetAt, first));
  const end = valueAt(lastAnchorAt(count, offsetAt, last));
  return start !== undefined && end !== undefined ? { start, end: Math.max(start, end) } : undefined;
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
 * The heading trails of the sections that begin inside the character range `[start, end)` of a
 * document's clean text (after `start`: the section `start` lies in is `locateSpan`'s `section`), in
 * document order, each trail once. A span that holds the opening of a section (its heading's first
 * sentences, where documentation says what the section is about) is about that section too. Empty
 * without an outline or sections.
 */
export function sectionsWithin(outline: DocumentOutline | undefined, start: number, end: number): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>();
  for (const section of outline?.sections ?? []) {
    if (section.start <= start || section.start >= end || section.path.length === 0) continue;
    const key = section.path.join('\u0000');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(section.path);
  }
  return out;
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
  const lines = anchorSpan(outline, 'lines', start, last);
  if (lines) location.lines = lines;
  const pages = anchorSpan(outline, 'pages', start, last);
  if (pages) location.pages = pages;
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
