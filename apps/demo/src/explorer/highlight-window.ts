import type { Chunk } from '@mosaic/spec';
import { escapeRegExp } from '@mosaic/stage-utils/internal';
import type { WindowSegment } from './explorer-types.js';

export interface HighlightWindowOptions {
  /** The window text and its offsets in its document. */
  window: { text: string; documentId: string; start: number; end: number };
  /** Evidence units that led to the window, with their source chunks. */
  evidence: readonly { id: string; chunkIds: readonly string[] }[];
  /** Chunk lookup (e.g. `index.chunks.getChunk`). */
  getChunk(id: string): Pick<Chunk, 'documentId' | 'start' | 'end'> | undefined;
  /** Words to mark per evidence unit (entity names, relation endpoints); matched case-insensitively on word boundaries. */
  terms: ReadonlyMap<string, readonly string[]>;
}

interface Range {
  start: number;
  end: number;
}

const MIN_TERM_CHARS = 3;

/**
 * Split a window's text into runs: each run knows which evidence units' source chunks cover it
 * (`evidenceIds`) and whether it is an evidence term (`termOf`). Concatenating the runs' text gives
 * the window text back. Term matches never overlap (longer terms win, then earlier evidence).
 */
export function highlightWindow(options: HighlightWindowOptions): WindowSegment[] {
  const { window, evidence, getChunk, terms } = options;
  const { text } = window;
  const length = text.length;
  if (length === 0) return [];
  // Chunk offsets are document offsets; they map onto the window text only when it is the exact slice.
  const aligned = window.end - window.start === length;

  const chunkRanges = new Map<string, Range[]>();
  if (aligned) {
    for (const unit of evidence) {
      const ranges: Range[] = [];
      for (const chunkId of unit.chunkIds) {
        const chunk = getChunk(chunkId);
        if (!chunk || chunk.documentId !== window.documentId) continue;
        const start = Math.max(chunk.start, window.start) - window.start;
        const end = Math.min(chunk.end, window.end) - window.start;
        if (end > start) ranges.push({ start, end });
      }
      if (ranges.length > 0) chunkRanges.set(unit.id, ranges);
    }
  }

  const candidates: { term: string; evidenceId: string; order: number }[] = [];
  evidence.forEach((unit, order) => {
    for (const term of terms.get(unit.id) ?? []) {
      const trimmed = term.trim();
      if (trimmed.length >= MIN_TERM_CHARS) candidates.push({ term: trimmed, evidenceId: unit.id, order });
    }
  });
  candidates.sort((a, b) => b.term.length - a.term.length || a.order - b.order);
  const taken = new Uint8Array(length);
  const termRanges: (Range & { evidenceId: string })[] = [];
  const seen = new Set<string>();
  for (const { term, evidenceId } of candidates) {
    const key = term.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(term)}(?![\\p{L}\\p{N}])`, 'giu');
    for (const match of text.matchAll(pattern)) {
      const start = match.index!;
      const end = start + match[0].length;
      let free = true;
      for (let i = start; i < end && free; i++) if (taken[i]) free = false;
      if (!free) continue;
      taken.fill(1, start, end);
      termRanges.push({ start, end, evidenceId });
    }
  }

  const cuts = new Set<number>([0, length]);
  for (const ranges of chunkRanges.values()) for (const r of ranges) cuts.add(r.start).add(r.end);
  for (const r of termRanges) cuts.add(r.start).add(r.end);
  const points = [...cuts].sort((a, b) => a - b);

  const segments: WindowSegment[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const start = points[i]!;
    const end = points[i + 1]!;
    const evidenceIds: string[] = [];
    for (const [id, ranges] of chunkRanges) if (ranges.some((r) => r.start <= start && end <= r.end)) evidenceIds.push(id);
    const term = termRanges.find((r) => r.start <= start && end <= r.end);
    const last = segments[segments.length - 1];
    if (last && last.termOf === term?.evidenceId && last.evidenceIds.join('\n') === evidenceIds.join('\n') && term === undefined) {
      last.text += text.slice(start, end);
      continue;
    }
    segments.push(term ? { text: text.slice(start, end), evidenceIds, termOf: term.evidenceId } : { text: text.slice(start, end), evidenceIds });
  }
  return segments;
}
