/** Words too common to say anything about a target or facet. */
const STOPWORDS = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'can', 'do', 'does', 'for', 'from', 'has', 'have', 'how', 'in',
  'is', 'it', 'its', 'of', 'on', 'or', 'that', 'the', 'their', 'this', 'to', 'was', 'were', 'what', 'when', 'where',
  'which', 'who', 'why', 'with',
]);

/** A light suffix-stripping stemmer (plural, -ing, -ed) so that "treatments" matches "treatment". */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('sses')) return word.slice(0, -2);
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) {
    return word.slice(0, -1);
  }
  return word;
}

/** Lower-case word tokens (letters and digits), stop words removed, stemmed. */
export function contentTokens(text: string): string[] {
  const out: string[] = [];
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (STOPWORDS.has(word)) continue;
    out.push(stem(word));
  }
  return out;
}

/** Share of the distinct tokens of `needle` that occur in `haystack` (0 when `needle` has none). */
export function tokenContainment(needle: ReadonlySet<string>, haystack: ReadonlySet<string>): number {
  if (needle.size === 0) return 0;
  let hit = 0;
  for (const token of needle) if (haystack.has(token)) hit += 1;
  return hit / needle.size;
}

/** Jaccard overlap of two token sets (0 when both are empty). */
export function tokenJaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let inter = 0;
  for (const token of a) if (b.has(token)) inter += 1;
  return inter / (a.size + b.size - inter);
}

/** A label normalised for repetition checks: lower case, tokens joined by one space. */
export function normalizeLabel(text: string): string {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
}
