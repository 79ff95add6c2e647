// The matching rules: whether a node, relation or passage matches a target, facet or question.
// Any script (letters and digits of every alphabet), a short stop-word list, a light stemmer that
// leaves -ss/-us/-is words alone. Not the METRICS.md rules (see metric-tokens.ts).

/** Words too common to say anything about a target or facet. */
const MATCH_STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'can',
  'do',
  'does',
  'for',
  'from',
  'has',
  'have',
  'how',
  'in',
  'is',
  'it',
  'its',
  'of',
  'on',
  'or',
  'that',
  'the',
  'their',
  'this',
  'to',
  'was',
  'were',
  'what',
  'when',
  'where',
  'which',
  'who',
  'why',
  'with',
]);

/** One letter or digit of any script (a code point of Unicode category L or N). */
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The length in code units of a letter or digit at `at` of `text`, 0 when it holds neither. */
function wordCharAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || (code >= 65 && code <= 90) ? 1 : 0;
  const point = text.codePointAt(at)!;
  if (!LETTER_OR_DIGIT.test(String.fromCodePoint(point))) return 0;
  return point > 0xffff ? 2 : 1;
}

/**
 * The words of `text`, in order: its maximal runs of letters and digits of any script, as
 * `text.match(/[\p{L}\p{N}]+/gu)` finds them (a hand-written scan, about twice as fast on English
 * text: a hub's thousands of sentences are tokenized with it).
 */
function words(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  let at = 0;
  while (at < n) {
    let width = wordCharAt(text, at);
    if (width === 0) {
      // Neither half of a surrogate pair that is not a letter or digit starts a word.
      at += 1;
      continue;
    }
    const start = at;
    do {
      at += width;
      width = at < n ? wordCharAt(text, at) : 0;
    } while (width > 0);
    out.push(text.slice(start, at));
  }
  return out;
}

/** The matching stemmer: `-ies`→`-y`, `-sses`→`-ss`, `-ing`, `-ed`, plural `-s` (not `-ss`, `-us`, `-is`). */
export function matchStem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('sses')) return word.slice(0, -2);
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) {
    return word.slice(0, -1);
  }
  return word;
}

/** The matching tokens of a text, with repeats: lower-case letter/digit runs, stop words removed, `matchStem`med. */
export function matchTokens(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text.toLowerCase())) {
    if (MATCH_STOP_WORDS.has(word)) continue;
    out.push(matchStem(word));
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

/** A label normalised for repetition checks: lower case, letter/digit runs joined by one space. */
export function normalizeLabel(text: string): string {
  return words(text.toLowerCase()).join(' ');
}
