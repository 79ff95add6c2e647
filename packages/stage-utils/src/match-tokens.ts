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
  if (code < 128) return isAsciiWordChar(code) ? 1 : 0;
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

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/**
 * The matching tokens of ASCII text as numbers, read straight from the text: a word is lower-cased
 * and hashed while it is scanned and looked up among the words seen before (each mapped once, on
 * first sight, to `numberOf` of its `matchStem`, or to nothing for a stop word), so a word seen
 * before costs no substring, no stemming and no string hashing. `forEachNumber` gives the numbers of
 * `matchTokens(text.slice(start, end))` (offsets clamped to 0 … text.length, as sentence spans are),
 * in order, for a range with no character above U+007F (where
 * lower-casing keeps every offset, and words are runs of ASCII letters and digits); for any other
 * range it gives nothing and returns false, and the caller tokenizes the slice. The words seen are
 * kept for the object's life (a hub's sentences share most of them).
 */
export class AsciiTokenNumbers {
  readonly #numberOf: (token: string) => number;
  /** Open addressing: slot → entry + 1 (0: empty). */
  #slots: Int32Array = new Int32Array(1 << 12);
  readonly #words: string[] = [];
  #hashes: Int32Array = new Int32Array(1 << 11);
  /** Per entry: its token's number, −1 for a stop word. */
  #numbers: Int32Array = new Int32Array(1 << 11);

  constructor(numberOf: (token: string) => number) {
    this.#numberOf = numberOf;
  }

  /** Distinct lower-case words seen so far. */
  get size(): number {
    return this.#words.length;
  }

  forEachNumber(text: string, start: number, end: number, visit: (number: number) => void): boolean {
    const from = Math.min(Math.max(0, start), text.length);
    const to = Math.min(Math.max(0, end), text.length);
    for (let at = from; at < to; at += 1) if (text.charCodeAt(at) > 0x7f) return false;
    let at = from;
    while (at < to) {
      let code = text.charCodeAt(at);
      if (!isAsciiWordChar(code)) {
        at += 1;
        continue;
      }
      const wordStart = at;
      let hash = FNV_OFFSET;
      do {
        hash = Math.imul(hash ^ asciiLower(code), FNV_PRIME);
        at += 1;
        code = at < to ? text.charCodeAt(at) : 0;
      } while (at < to && isAsciiWordChar(code));
      // The entry first: adding it may grow the numbers.
      const entry = this.#entry(text, wordStart, at, hash);
      const number = this.#numbers[entry];
      if (number >= 0) visit(number);
    }
    return true;
  }

  /** The entry of the lower-case word text[start, end) (added when new). */
  #entry(text: string, start: number, end: number, hash: number): number {
    const mask = this.#slots.length - 1;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const held = this.#slots[slot];
      if (held === 0) break;
      const entry = held - 1;
      if (this.#hashes[entry] !== hash) continue;
      const word = this.#words[entry];
      if (word.length !== length) continue;
      let same = true;
      for (let k = 0; k < length; k += 1) {
        if (asciiLower(text.charCodeAt(start + k)) !== word.charCodeAt(k)) {
          same = false;
          break;
        }
      }
      if (same) return entry;
    }
    const word = text.slice(start, end).toLowerCase();
    const tokens = matchTokens(word);
    const entry = this.#words.length;
    this.#words.push(word);
    if (entry === this.#hashes.length) {
      this.#hashes = doubled(this.#hashes);
      this.#numbers = doubled(this.#numbers);
    }
    this.#hashes[entry] = hash;
    this.#numbers[entry] = tokens.length === 0 ? -1 : this.#numberOf(tokens[0]);
    if (2 * this.#words.length > this.#slots.length) this.#rehash();
    else this.#place(entry);
    return entry;
  }

  #place(entry: number): void {
    const mask = this.#slots.length - 1;
    let slot = this.#hashes[entry] & mask;
    while (this.#slots[slot] !== 0) slot = (slot + 1) & mask;
    this.#slots[slot] = entry + 1;
  }

  #rehash(): void {
    this.#slots = new Int32Array(this.#slots.length * 2);
    for (let entry = 0; entry < this.#words.length; entry += 1) this.#place(entry);
  }
}

/**
 * Numbers for matching tokens, given on first sight (`vocabulary[n]` is token n), and the distinct
 * numbers of a range of a text: `forEachDistinct(text, start, end, visit)` calls `visit` once per
 * distinct token of `matchTokens(text.slice(start, end))`, in order of first occurrence (an ASCII
 * range read as numbers by `AsciiTokenNumbers`, any other range tokenized from its slice). The
 * sentence tables of evidence selection and the sentence tokens an index keeps are both made with it.
 */
export class TokenNumbering {
  readonly vocabulary: string[] = [];
  readonly #numbers = new Map<string, number>();
  readonly #ascii = new AsciiTokenNumbers((token) => this.numberOf(token));
  /** Per number: the last range (stamp) it was visited for, so a range visits it once. */
  #listed: Int32Array = new Int32Array(1024);
  #stamp = 0;
  #visit: (number: number) => void = () => undefined;
  readonly #once = (number: number): void => {
    if (this.#listed[number] === this.#stamp) return;
    this.#listed[number] = this.#stamp;
    this.#visit(number);
  };

  /** The number of `token`, given now when it has none. */
  numberOf(token: string): number {
    let number = this.#numbers.get(token);
    if (number === undefined) {
      number = this.vocabulary.length;
      this.vocabulary.push(token);
      this.#numbers.set(token, number);
      if (number >= this.#listed.length) this.#listed = doubled(this.#listed);
    }
    return number;
  }

  /** The number of `token`, or undefined when it has none yet. */
  numberIfKnown(token: string): number | undefined {
    return this.#numbers.get(token);
  }

  forEachDistinct(text: string, start: number, end: number, visit: (number: number) => void): void {
    if (this.#stamp >= 0x3fffffff) {
      this.#listed.fill(0);
      this.#stamp = 0;
    }
    this.#stamp += 1;
    this.#visit = visit;
    if (!this.#ascii.forEachNumber(text, start, end, this.#once)) for (const token of matchTokens(text.slice(start, end))) this.#once(this.numberOf(token));
  }
}

/** An ASCII letter or digit. */
export function isAsciiWordChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || (code >= 65 && code <= 90);
}

/** An ASCII code lower-cased (A–Z to a–z; anything else as it is). */
function asciiLower(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

/** A copy of `values` in an array twice as long (the rest zero). */
export function doubled(values: Int32Array): Int32Array {
  const bigger = new Int32Array(values.length * 2);
  bigger.set(values);
  return bigger;
}
