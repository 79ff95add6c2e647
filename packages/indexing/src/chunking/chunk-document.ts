import { createHash } from 'node:crypto';
import { InvalidArgumentError } from '@mosaic/spec';
import type { Chunk, SourceDocument } from '@mosaic/spec';

export interface ChunkDocumentOptions {
  document: SourceDocument;
  /**
   * Maximum chunk length in characters (default 1,200). Whole sentences are packed greedily
   * up to this length; a single sentence longer than this is cut at the last whitespace
   * before the limit (or hard at the limit when there is none).
   */
  chunkSize?: number;
}

/** Default chunk length: 1,200 characters on sentence boundaries. */
export const DEFAULT_CHUNK_SIZE = 1200;

/** Stable chunk id: `c-` + 16 hex of sha1(documentId:start:end). */
export function chunkId(documentId: string, start: number, end: number): string {
  return `c-${createHash('sha1').update(`${documentId}:${start}:${end}`).digest('hex').slice(0, 16)}`;
}

/** Offsets where a new sentence starts: after . ! ? (plus closing quotes/brackets) and whitespace, or after a line break. */
export function sentenceStarts(text: string): number[] {
  const starts: number[] = [];
  const pattern = /[.!?…]+["'”’)\]]*\s+|\n\s*/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const next = match.index + match[0].length;
    if (next < text.length) starts.push(next);
  }
  return starts;
}

const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);

/**
 * Split a document into chunks of whole sentences, each at most `chunkSize` characters,
 * with offsets into the document text: `chunk.text === document.text.slice(start, end)`. When the
 * document has an outline, no chunk crosses the start of a section (chunks prefer section
 * boundaries; a section longer than `chunkSize` is packed by sentences as usual).
 * Chunks carry no leading or trailing whitespace and do not overlap. Blank documents give
 * no chunks.
 */
export function chunkDocument(options: ChunkDocumentOptions): Chunk[] {
  const { document } = options;
  const size = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  if (!Number.isInteger(size) || size < 20) {
    throw new InvalidArgumentError({ argument: 'chunkSize', message: `must be an integer ≥ 20, got ${size}` });
  }
  const text = document.text;
  const boundaries = [...sentenceStarts(text), text.length];
  const chunks: Chunk[] = [];
  const emit = (start: number, end: number) => {
    while (start < end && isSpace(text[start])) start++;
    while (end > start && isSpace(text[end - 1])) end--;
    if (end > start) chunks.push({ id: chunkId(document.id, start, end), documentId: document.id, start, end, text: text.slice(start, end) });
  };
  // Section starts are hard boundaries: a chunk never runs from one section into the next.
  // (Not at an entry described inside a section, such as a function of a reference page: `DocumentSection.entry`.)
  const cuts = [
    ...new Set(
      (document.outline?.sections ?? [])
        .filter((s) => !s.entry)
        .map((s) => s.start)
        .filter((s) => s > 0 && s < text.length),
    ),
  ].sort((a, b) => a - b);
  let from = 0;
  for (const to of [...cuts, text.length]) {
    packSentences(text, from, to, size, boundaries, emit);
    from = to;
  }
  return chunks;
}

/** Pack the sentences of `text[from, to)` greedily into chunks of at most `size` characters. */
function packSentences(text: string, from: number, to: number, size: number, boundaries: readonly number[], emit: (start: number, end: number) => void): void {
  let start = from;
  while (start < to && isSpace(text[start])) start++;
  let end = start; // end of the sentences packed so far
  let b = 0;
  while (b < boundaries.length && (boundaries[b] as number) <= start) b++;
  while (start < to) {
    while (b < boundaries.length && (boundaries[b] as number) <= end) b++;
    const next = b < boundaries.length ? Math.min(boundaries[b] as number, to) : to;
    // Length of the candidate chunk without trailing whitespace.
    let candidateEnd = next;
    while (candidateEnd > start && isSpace(text[candidateEnd - 1])) candidateEnd--;
    if (candidateEnd - start <= size) {
      end = next;
      if (next >= to) {
        emit(start, to);
        break;
      }
      continue;
    }
    if (end > start) {
      // The next sentence does not fit: close the chunk at the last sentence boundary.
      emit(start, end);
      start = end;
      while (start < to && isSpace(text[start])) start++;
      end = start;
      continue;
    }
    // A single sentence longer than the chunk size: cut at whitespace before the limit.
    let cut = start + size;
    while (cut > start && !isSpace(text[cut])) cut--;
    if (cut <= start + size / 2) cut = start + size;
    emit(start, cut);
    start = cut;
    while (start < to && isSpace(text[start])) start++;
    end = start;
  }
}
