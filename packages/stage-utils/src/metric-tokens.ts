// The METRICS.md rules (../shared/docs/METRICS.md, "Tokens"), fixed by the metric definition:
// lowercase [a-z0-9] runs, no 1-character tokens, the METRICS.md stop words, light suffix
// stripping. The metrics, the extractive generator and the reranker's BM25 read them, so that
// what they pick agrees with how retrieval is measured. Not the matching rules (match-tokens.ts).

import { escapeRegExp } from './escape-regexp.js';
import { isAsciiWordChar } from './match-tokens.js';

/** Stop words of METRICS.md, verbatim. */
export const METRIC_STOP_WORDS: ReadonlySet<string> = new Set(
  `a an the of to in on for and or but is are was were be been being by with
as at from that this these those it its into than then there their they them he she
his her him i you your we our us not no do does did done have has had having which who
whom whose what when where why how all any both each few more most other some such only
own same so too very can will just should would could may might must also about above
after again against before below between during through under until up down out off
over further once here s t don now one two if while because per via within without
upon like`
    .split(/\s+/)
    .filter(Boolean),
);

/** Suffixes of METRICS.md, in the order they are tried. */
const METRIC_SUFFIXES = ['ations', 'ation', 'ingly', 'ings', 'ing', 'edly', 'ies', 'ied', 'es', 'ed', 'ly', 's'] as const;

/** METRICS.md stemming: strip the first matching suffix when the word is longer than the suffix plus 3. */
export function metricStem(word: string): string {
  for (const suffix of METRIC_SUFFIXES) {
    if (word.endsWith(suffix) && word.length > suffix.length + 3) return word.slice(0, -suffix.length);
  }
  return word;
}

/** The METRICS.md tokens of a text, with repeats and in text order (term frequencies, BM25). */
export function metricTokens(text: string): string[] {
  const out: string[] = [];
  const lower = text.toLowerCase();
  // The runs of [a-z0-9] of the lower-cased text (which holds no A–Z), read by character code (no match objects).
  for (let at = 0; at < lower.length; ) {
    if (!isAsciiWordChar(lower.charCodeAt(at))) {
      at += 1;
      continue;
    }
    const start = at;
    do at += 1;
    while (at < lower.length && isAsciiWordChar(lower.charCodeAt(at)));
    if (at - start < 2) continue;
    const token = lower.slice(start, at);
    if (!METRIC_STOP_WORDS.has(token)) out.push(metricStem(token));
  }
  return out;
}

/**
 * Each METRICS.md token of a text with the first word (lower-cased) it comes from, in text order: a
 * token read back as its word ("airspe" → "airspeed"), for a person or for an index with a tokenizer
 * of its own.
 */
export function metricTokenWords(text: string): Map<string, string> {
  const words = new Map<string, string>();
  for (const match of text.toLowerCase().matchAll(/[a-z0-9]+/g)) {
    const [token] = metricTokens(match[0]);
    if (token !== undefined && !words.has(token)) words.set(token, match[0]);
  }
  return words;
}

/** The METRICS.md content tokens of a text as a set (in first-occurrence order), as the metrics compare them. */
export function metricTokenSet(text: string): Set<string> {
  return new Set(metricTokens(text));
}

/** Whether `word` has a METRICS.md token and `occurs` does not know it (a stop word is never missing). */
function missingWord(word: string, occurs: (word: string) => boolean): boolean {
  return metricTokens(word).length > 0 && !occurs(word);
}

/** `occurs`, asked each word once (its answers kept for the call). */
function askedOnce(occurs: (word: string) => boolean): (word: string) => boolean {
  const known = new Map<string, boolean>();
  return (word) => {
    let answer = known.get(word);
    if (answer === undefined) known.set(word, (answer = occurs(word)));
    return answer;
  };
}

/**
 * `text` with each two adjacent words that it writes apart and `occurs` knows only joined ("roll
 * back" when a corpus says "rollback") written as one word: the joined word occurs, and one of the
 * two has a METRICS.md token that does not (a stop word or a single letter has none, and counts as
 * occurring). Words are runs of ASCII letters, apart when a space or one hyphen separates them; a word
 * joins at most one neighbour, left first. `occurs` is asked with lower-case words. Everything else of
 * the text is kept as it is.
 */
export function joinSplitWords(text: string, occurs: (word: string) => boolean): string {
  const words = [...text.matchAll(/[A-Za-z]+/g)].map((match) => ({ word: match[0].toLowerCase(), start: match.index, end: match.index + match[0].length }));
  const occursOnce = askedOnce(occurs);
  const missing = (word: string) => missingWord(word, occursOnce);
  let out = '';
  let copied = 0;
  for (let i = 0; i + 1 < words.length; i += 1) {
    const left = words[i]!;
    const right = words[i + 1]!;
    if (!/^(?:\s+|-)$/.test(text.slice(left.end, right.start))) continue;
    const joined = left.word + right.word;
    if (metricTokens(joined).length === 0 || !(missing(left.word) || missing(right.word)) || !occursOnce(joined)) continue;
    out += `${text.slice(copied, left.start)}${joined}`;
    copied = right.end;
    i += 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Letters a part of a split word has at least ("re" of "reopen" is too short to be a word apart: 3). */
const SPLIT_PART_LETTERS = 3;

/**
 * `text` with each word that `occurs` does not know, and that `apart` finds written as two words
 * ("rollback" where the corpus says "roll back"), written as those two words: the mirror of
 * `joinSplitWords`. A word is missing when it has a METRICS.md token and `occurs` does not know it;
 * it is then cut at each place that leaves two parts of at least three letters, left to right, one of
 * them with a token, and the first cut that `apart(left, right)` knows is taken. Words are runs of ASCII
 * letters; `occurs` and `apart` are asked with lower-case words, each question once. Everything else
 * of the text is kept as it is.
 */
export function splitJoinedWords(text: string, occurs: (word: string) => boolean, apart: (left: string, right: string) => boolean): string {
  let out = '';
  let copied = 0;
  const asked = new Map<string, string | undefined>();
  for (const match of text.matchAll(/[A-Za-z]+/g)) {
    const word = match[0].toLowerCase();
    if (word.length < 2 * SPLIT_PART_LETTERS) continue;
    let split = asked.get(word);
    if (!asked.has(word)) {
      if (missingWord(word, occurs)) {
        for (let cut = SPLIT_PART_LETTERS; cut <= word.length - SPLIT_PART_LETTERS && split === undefined; cut += 1) {
          const left = word.slice(0, cut);
          const right = word.slice(cut);
          if (metricTokens(`${left} ${right}`).length > 0 && apart(left, right)) split = `${left} ${right}`;
        }
      }
      asked.set(word, split);
    }
    if (split === undefined) continue;
    out += `${text.slice(copied, match.index)}${split}`;
    copied = match.index + match[0].length;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * `text` with its words as the corpus writes them: two adjacent words it knows only joined written as
 * one (`joinSplitWords`), then a word it does not know but writes as two words written as those two
 * (`splitJoinedWords`, apart as `apart` finds them). `occurs` is asked each word once for both.
 */
export function wordsAsWritten(text: string, occurs: (word: string) => boolean, apart: (left: string, right: string) => boolean): string {
  const occursOnce = askedOnce(occurs);
  return splitJoinedWords(joinSplitWords(text, occursOnce), occursOnce, apart);
}

/**
 * An `apart` for `splitJoinedWords`: whether one of `texts` writes `left` and `right` as adjacent words
 * (a space or one hyphen between them, any case).
 */
export function writtenApartIn(texts: readonly string[]): (left: string, right: string) => boolean {
  return (left, right) => {
    const phrase = new RegExp(`(?<![A-Za-z])${escapeRegExp(left)}(?:\\s+|-)${escapeRegExp(right)}(?![A-Za-z])`, 'i');
    return texts.some((text) => phrase.test(text));
  };
}
