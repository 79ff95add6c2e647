import type { CorpusIndex, EvidenceUnit, SourceWindow } from '@mosaic/spec';
import { cutWindows, windowsOfSpan, type WindowGeometry } from '@mosaic/stage-utils';

/** A window reached from graph evidence, with the evidence units that led to it (in evidence order). */
export interface CandidateWindow {
  window: SourceWindow;
  evidenceIds: string[];
}

export interface CandidateWindows {
  /** Candidates in first-reached order (evidence order, then chunk order, then document order). */
  candidates: CandidateWindow[];
  /** Distinct chunk ids looked up. */
  chunks: number;
  /** Chunk ids that resolved to no window (unknown to the chunk store). */
  unresolvedChunks: string[];
}

/**
 * Map evidence units to source windows. A unit with sentence spans (`unit.spans`) reaches the windows
 * that hold one of its sentences whole (or, for a sentence no window holds whole, the window holding
 * most of it); a unit without spans reaches every window overlapping its source chunks
 * (`index.chunks.windowsOfChunk`). Each window is listed once, with every unit that reached it.
 */
export function collectCandidateWindows(options: {
  index: CorpusIndex;
  evidence: readonly EvidenceUnit[];
  /** When given, cut each candidate chunk into windows of this geometry instead of using the index's windows. */
  cutChunks?: WindowGeometry;
}): CandidateWindows {
  const { index, evidence, cutChunks } = options;
  const resolve = cutChunks ? (chunkId: string) => windowsCutFromChunk(index, chunkId, cutChunks) : (chunkId: string) => index.chunks.windowsOfChunk(chunkId);
  const byId = new Map<string, CandidateWindow>();
  const windowsOfChunk = new Map<string, SourceWindow[]>();
  const unresolved: string[] = [];
  const chunkWindows = (chunkId: string): SourceWindow[] => {
    let windows = windowsOfChunk.get(chunkId);
    if (!windows) {
      windows = resolve(chunkId);
      windowsOfChunk.set(chunkId, windows);
      if (windows.length === 0) unresolved.push(chunkId);
    }
    return windows;
  };
  const reach = (unit: EvidenceUnit, window: SourceWindow) => {
    const candidate = byId.get(window.id);
    if (!candidate) byId.set(window.id, { window, evidenceIds: [unit.id] });
    else if (!candidate.evidenceIds.includes(unit.id)) candidate.evidenceIds.push(unit.id);
  };
  for (const unit of evidence) {
    if (Array.isArray(unit.spans) && unit.spans.length > 0) {
      for (const span of unit.spans) for (const window of windowsOfSpan(index, span, chunkWindows(span.chunkId))) reach(unit, window);
      continue;
    }
    for (const chunkId of unit.chunkIds) for (const window of chunkWindows(chunkId)) reach(unit, window);
  }
  return { candidates: [...byId.values()], chunks: windowsOfChunk.size, unresolvedChunks: unresolved };
}

/** Windows cut from one chunk's text at query time; ids are `<chunkId>@<start>-<end>` (document offsets). */
function windowsCutFromChunk(index: CorpusIndex, chunkId: string, geometry: WindowGeometry): SourceWindow[] {
  const chunk = index.chunks.getChunk(chunkId);
  if (!chunk) return [];
  return cutWindows(chunk.text, geometry).map((window) => {
    const start = chunk.start + window.start;
    const end = chunk.start + window.end;
    return { id: `${chunk.id}@${start}-${end}`, documentId: chunk.documentId, chunkIds: [chunk.id], start, end, text: window.text };
  });
}
