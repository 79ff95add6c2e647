import type { ChunkStore, SourceWindow, TextSpan } from '@mosaic/spec';

/**
 * The windows (of the span's chunk) that hold the span whole; when none does (a sentence longer than
 * the stride, or cut by a document edge), the one window holding most of it. `windows` are the
 * windows of the span's chunk (`chunks.windowsOfChunk`). Evidence selection (which units bring new
 * windows) and the rerankers (which windows a unit reaches) both ground a sentence this way.
 */
export function windowsOfSpan(index: { chunks: Pick<ChunkStore, 'getChunk'> }, span: TextSpan, windows: readonly SourceWindow[]): SourceWindow[] {
  const chunk = index.chunks.getChunk(span.chunkId);
  if (!chunk || windows.length === 0) return [];
  const start = chunk.start + span.start;
  const end = chunk.start + Math.min(span.end, chunk.end - chunk.start);
  const whole = windows.filter((window) => window.start <= start && window.end >= end);
  if (whole.length > 0) return whole;
  let best: SourceWindow | undefined;
  let bestOverlap = 0;
  for (const window of windows) {
    const overlap = Math.min(end, window.end) - Math.max(start, window.start);
    if (overlap > bestOverlap) {
      best = window;
      bestOverlap = overlap;
    }
  }
  return best ? [best] : [];
}
