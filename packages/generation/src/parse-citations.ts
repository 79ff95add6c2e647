import type { Citation, RankedWindow } from '@mosaic/spec';

const BRACKET = /\[\s*(?:sources?|windows?|refs?)?\s*(\d+(?:\s*(?:[-–,;]|and)\s*(?:sources?\s*)?\d+)*)\s*\]/gi;

/**
 * Citations of an answer text: every [n], [n, m], [n-m] or [source n] marker whose numbers are
 * valid 1-based window numbers, deduplicated, in order of first appearance. Numbers outside
 * 1..windows.length are ignored; ranges wider than 20 are ignored.
 */
export function parseCitations(text: string, windows: readonly Pick<RankedWindow, 'id'>[]): Citation[] {
  const numbers: number[] = [];
  for (const match of text.matchAll(BRACKET)) {
    const body = match[1]!.replace(/sources?/gi, '');
    for (const part of body.split(/\s*(?:,|;|and)\s*/i)) {
      const range = part.match(/^(\d+)\s*[-–]\s*(\d+)$/);
      if (range) {
        const from = Number(range[1]);
        const to = Number(range[2]);
        if (to >= from && to - from <= 20) for (let n = from; n <= to; n += 1) numbers.push(n);
        continue;
      }
      if (/^\d+$/.test(part.trim())) numbers.push(Number(part.trim()));
    }
  }
  const citations: Citation[] = [];
  for (const n of numbers) {
    if (n < 1 || n > windows.length || citations.some((c) => c.window === n)) continue;
    citations.push({ window: n, windowId: windows[n - 1]!.id });
  }
  return citations;
}
