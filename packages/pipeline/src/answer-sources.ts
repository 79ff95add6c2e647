import type { Answer, AnswerQuote, ChunkStore, CorpusIndex, DocumentOutline, EvidenceUnit, Question, RankedWindow, SourceLocation } from '@mosaic/spec';
import { WeightedLru } from '@mosaic/stage-utils/internal';
import { locateSpan } from '@mosaic/stage-utils';
import type { Support } from './support.js';

/** A source in plain words: `file › section › lines 12–14` (or `characters 300–420` without line anchors). */
export function describeSource(source: SourceLocation): string {
  const parts = [source.documentId];
  if (source.section && source.section.length > 0) parts.push(source.section.join(' › '));
  if (source.pages) parts.push(source.pages.start === source.pages.end ? `page ${source.pages.start}` : `pages ${source.pages.start}–${source.pages.end}`);
  if (source.lines) parts.push(source.lines.start === source.lines.end ? `line ${source.lines.start}` : `lines ${source.lines.start}–${source.lines.end}`);
  else parts.push(`characters ${source.start}–${source.end}`);
  return parts.join(', ');
}

/**
 * How strongly the evidence points to each document: the summed score of the evidence units whose source
 * chunks lie in it (a unit spread over several documents counts for each).
 */
export function evidenceDocuments(index: Pick<CorpusIndex, 'chunks'>, evidence: readonly EvidenceUnit[]): Map<string, number> {
  return documentSupport(evidence, (unit) => documentsOf(index.chunks, unit.chunkIds));
}

/** Units with at least this many chunks have their documents kept by `createEvidenceDocuments`. */
const KEPT_UNIT_CHUNKS = 64;

/**
 * `evidenceDocuments`, keeping the documents of each unit of many chunks by its id (at most `limit`
 * chunk ids in all, least recently used dropped), per chunk store: a hub's unit lists thousands of
 * chunks, each looked up in the store for every question that reaches it. A kept entry serves only
 * the same chunk ids, compared one by one, so the support is the same as `evidenceDocuments` gives.
 */
export function createEvidenceDocuments(limit = 1_000_000): (index: Pick<CorpusIndex, 'chunks'>, evidence: readonly EvidenceUnit[]) => Map<string, number> {
  const byStore = new WeakMap<ChunkStore, WeightedLru<string, { chunkIds: readonly string[]; documents: readonly string[] }>>();
  return (index, evidence) => {
    let kept = byStore.get(index.chunks);
    if (!kept) byStore.set(index.chunks, (kept = new WeightedLru({ limit, weigh: (entry) => entry.chunkIds.length })));
    const store = kept;
    return documentSupport(evidence, (unit) => {
      if (unit.chunkIds.length < KEPT_UNIT_CHUNKS) return documentsOf(index.chunks, unit.chunkIds);
      const known = store.get(unit.id);
      if (known && sameIds(known.chunkIds, unit.chunkIds)) return known.documents;
      const documents = documentsOf(index.chunks, unit.chunkIds);
      store.set(unit.id, { chunkIds: unit.chunkIds.slice(), documents });
      return documents;
    });
  };
}

/** The summed score of the units per document, each unit's documents given by `documentsOfUnit` (in first-seen order). */
function documentSupport(evidence: readonly EvidenceUnit[], documentsOfUnit: (unit: EvidenceUnit) => Iterable<string>): Map<string, number> {
  const support = new Map<string, number>();
  for (const unit of evidence) {
    const documents = documentsOfUnit(unit);
    const weight = Number.isFinite(unit.score) && unit.score > 0 ? unit.score : 0;
    for (const documentId of documents) support.set(documentId, (support.get(documentId) ?? 0) + weight);
  }
  return support;
}

/** The documents of `chunkIds`, each once, in the order first met (chunks the store lacks left out). */
function documentsOf(chunks: ChunkStore, chunkIds: readonly string[]): string[] {
  if (typeof chunks.documentsOfChunks === 'function') return chunks.documentsOfChunks(chunkIds);
  const documents = new Set<string>();
  for (const chunkId of chunkIds) {
    const documentId = chunks.getChunk(chunkId)?.documentId;
    if (documentId !== undefined) documents.add(documentId);
  }
  return [...documents];
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Every quote's source with the document's title, section and lines from its outline (the generator
 * knows only the document and the character offsets). Quotes without a source get their window's.
 * The outline's lines win over lines the generator counted in the window's text: that text is the
 * clean text, which for a format whose reader drops lines (reST directives, HTML markup) has fewer
 * lines than the file. The generator's lines stay only when the outline has no line anchors.
 */
export function locateQuotes(answer: Answer, windows: readonly RankedWindow[], outlineOf: (documentId: string) => DocumentOutline | undefined): Answer {
  if (!answer.quotes || answer.quotes.length === 0) return answer;
  const quotes: AnswerQuote[] = answer.quotes.map((quote) => {
    const window = windows[quote.window - 1];
    const base = quote.source ?? (window ? { documentId: window.documentId, start: window.start, end: window.end } : undefined);
    if (!base) return quote;
    return { ...quote, source: { ...base, ...locateSpan(base.documentId, base.start, base.end, outlineOf(base.documentId)) } };
  });
  return { ...answer, quotes };
}

/** The answer when the corpus does not support one: it says so, why, and names the closest passages. */
export function abstainedAnswer(options: { question: Question; support: Support; windows: readonly RankedWindow[]; closest?: number }): Answer {
  const { question, support, windows } = options;
  // A question with nothing to search for (no words, or a script the encoder cannot read) has no closest passages.
  const unsearchable = support.reason === 'no-content-words' || support.reason === 'unreadable-script';
  const closest = unsearchable ? [] : windows.slice(0, options.closest ?? 3);
  const shown = closest.map((window, i) => `[${i + 1}] ${describeSource(window.source ?? window)}`);
  const text = [
    `No passage in this corpus answers “${question.text.trim()}”: ${support.explanation}.`,
    shown.length > 0 ? `Closest passages (not answers): ${shown.join('; ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    text,
    citations: closest.map((window, i) => ({ window: i + 1, windowId: window.id })),
    generator: 'abstention',
    extractive: true,
    abstained: true,
    ...(support.reason ? { reason: support.reason } : {}),
    quotes: [],
    ...(support.warnings.length > 0 ? { warnings: [...support.warnings] } : {}),
  };
}
