import type { ExplorerWindow } from '../explorer-types.js';

/** "guide.md · Zephyr toolkit › Installing · lines 7–12" (title when it differs from the file, section trail, line or page span). */
export function describeSource(w: Pick<ExplorerWindow, 'documentId' | 'start' | 'end' | 'source'>): string {
  const source = w.source;
  if (!source) return `${w.documentId} @ ${w.start}–${w.end}`;
  const parts = [source.title && source.title !== w.documentId ? `${w.documentId} (${source.title})` : w.documentId];
  if (source.section && source.section.length > 0) parts.push(source.section.join(' › '));
  const span = (name: string, range: { start: number; end: number }) =>
    range.start === range.end ? `${name} ${range.start}` : `${name}s ${range.start}–${range.end}`;
  if (source.pages) parts.push(span('page', source.pages));
  else if (source.lines) parts.push(span('line', source.lines));
  else parts.push(`@ ${w.start}–${w.end}`);
  return parts.join(' · ');
}
