import type { CorpusIndex, SourceLocation } from '@mosaic/spec';
import { metricTokens, metricTokenWords } from '@mosaic/stage-utils';
import { countEveryItem } from '@mosaic/stage-utils/internal';

/** A word's weight: `word` as the text writes it (lower-cased), `token` its METRICS.md token. */
export type WordWeight = (word: string, token: string) => number;

/** A section number leading a heading ("34.10. ", "2.4 ", "A.1. "): not words of its subject. */
const SECTION_NUMBER = /^\s*(?:[A-Z]\.)?\d+(?:\.\d+)*\.?\s+/;

/**
 * The headings that say what a span is about: its document's title, each heading of its section
 * trail (`locateSpan`'s title and section) and of the trails of the sections that begin inside it
 * (`within`, e.g. `sectionsWithin`), section numbers removed, each heading once; none without them.
 */
export function headingsOf(source: SourceLocation | undefined, within: readonly (readonly string[])[] = []): string[] {
  if (!source) return [];
  const headings = new Set<string>();
  for (const heading of [source.title, ...(source.section ?? []), ...within.flat()]) {
    if (typeof heading !== 'string') continue;
    const subject = heading.replace(SECTION_NUMBER, '');
    if (metricTokens(subject).length > 0) headings.add(subject);
  }
  return [...headings];
}

/** A text's METRICS.md tokens, each with its weight (`weigh` of the first word it came from). */
function weightedTokens(text: string, weigh: WordWeight): Map<string, number> {
  const out = new Map<string, number>();
  for (const [token, word] of metricTokenWords(text)) out.set(token, weigh(word, token));
  return out;
}

/** Cosine of two weighted token sets (0 when either is empty). */
function weightedCosine(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (const [token, weight] of a) {
    normA += weight * weight;
    const other = b.get(token);
    if (other !== undefined) dot += weight * other;
  }
  for (const weight of b.values()) normB += weight * weight;
  return normA > 0 && normB > 0 ? dot / Math.sqrt(normA * normB) : 0;
}

/**
 * How closely a span's headings name what a question asks about: the best cosine, over its title and
 * section headings and those of the sections beginning inside it (`headingsOf(source, within)`), between
 * the question's words and the heading's words, each word weighted by `weigh` (its rarity). In [0, 1]; 0
 * for a span without a title or section. Each word is weighed, and each heading matched, once per matcher.
 */
export function createHeadingMatcher(
  question: string,
  weigh: WordWeight,
): (source: SourceLocation | undefined, within?: readonly (readonly string[])[]) => number {
  const weights = new Map<string, number>();
  const once: WordWeight = (word, token) => {
    let weight = weights.get(word);
    if (weight === undefined) weights.set(word, (weight = weigh(word, token)));
    return weight;
  };
  const asked = weightedTokens(question, once);
  // A document's title and outer headings recur in every window of it: each heading is matched once.
  const matched = new Map<string, number>();
  const match = (heading: string) => {
    let cosine = matched.get(heading);
    if (cosine === undefined) matched.set(heading, (cosine = weightedCosine(asked, weightedTokens(heading, once))));
    return cosine;
  };
  return (source, within) => Math.max(0, ...headingsOf(source, within).map(match));
}

/** A word's weight among `n` windows of which `df` hold it: ln(1 + n / (df + 1)). */
export function rarity(n: number, df: number): number {
  return Math.log(1 + n / (df + 1));
}

/**
 * How many of the corpus's windows hold a word: its lexical window index asked with the word as written
 * (it has its own tokenizer), each word once per counter. One counter per question lets the stages that
 * weigh its words (the focus step's heading term, the support judgement) ask the index once. Undefined
 * when the index has no lexical window index.
 */
export function corpusWordCount(index: Pick<CorpusIndex, 'lexical' | 'windowIds'>): ((word: string) => number) | undefined {
  const lexical = index.lexical?.windows;
  if (!lexical) return undefined;
  const n = Math.max(1, index.windowIds.length);
  const counts = new Map<string, number>();
  return (word) => {
    let count = counts.get(word);
    if (count === undefined) counts.set(word, (count = countEveryItem(lexical, word, n)));
    return count;
  };
}

/**
 * How rare a word is in the corpus: `rarity` over the corpus's windows, df the windows holding the word
 * (`count`, by default a `corpusWordCount` of its own). Undefined when the index has no lexical window
 * index (and no `count` is given).
 */
export function corpusWordWeight(
  index: Pick<CorpusIndex, 'lexical' | 'windowIds'>,
  count: ((word: string) => number) | undefined = corpusWordCount(index),
): ((word: string) => number) | undefined {
  if (!count) return undefined;
  const n = Math.max(1, index.windowIds.length);
  return (word) => rarity(n, count(word));
}
