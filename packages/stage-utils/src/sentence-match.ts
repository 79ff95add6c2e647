import { metricTokens } from './metric-tokens.js';

/** A sentence of a text with where it sits (`offset`/`length` in the text) and whether the text's edges cut it. */
export interface TextSentence {
  /** The sentence with runs of white space as one space. */
  text: string;
  offset: number;
  length: number;
  /** True for a first fragment that starts mid-sentence (when `start > 0`) or a last one without an end mark. */
  partial: boolean;
}

// A sentence ends at . ! ? (with closing quotes/brackets) before a capital or digit; a paragraph (blank
// line), a list item starting a line ("ii.", "(a)", "3.", "-") and a line in capitals (a heading) also
// start a new one, so that hard-wrapped legal and technical text splits where a reader would.
const BREAKS = [
  /(?<=[.!?]["'”’)\]]?)\s+(?=["'“‘([]?[A-Z0-9])/g,
  /\n[ \t]*\n\s*/g,
  /[ \t]*\n[ \t]*(?=(?:\(?(?:[ivxlc]+|[a-z]|\d+(?:\.\d+)*)[.)]|[-*•])\s)/g,
  /\n[ \t]*(?=[A-Z][A-Z0-9 ,'&-]{3,}\n)/g,
  /(?<=\n[ \t]*[A-Z][A-Z0-9 ,'&-]{3,})\n/g,
];
const TERMINAL = /[.!?;:]["'”’)\]]*$/;

/** Splits a text (a window: its `start` in the document says whether its first fragment may be cut) into sentences. */
export function splitSentences(window: { text: string; start: number }): TextSentence[] {
  const text = window.text;
  const cuts: Array<[number, number]> = [];
  for (const pattern of BREAKS) for (const match of text.matchAll(pattern)) cuts.push([match.index as number, (match.index as number) + match[0].length]);
  cuts.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const parts: Array<{ offset: number; length: number }> = [];
  let from = 0;
  for (const [at, to] of cuts) {
    if (at < from) {
      from = Math.max(from, to);
      continue;
    }
    parts.push({ offset: from, length: at - from });
    from = to;
  }
  parts.push({ offset: from, length: text.length - from });
  const sentences = parts
    .map(({ offset, length }) => {
      const slice = text.slice(offset, offset + length);
      const lead = slice.length - slice.trimStart().length;
      const trimmed = slice.trim();
      return { text: trimmed.replace(/\s+/g, ' '), offset: offset + lead, length: trimmed.length };
    })
    .filter((part) => part.text.length > 0);
  return sentences.map((sentence, index) => {
    const cutAtStart = index === 0 && window.start > 0 && !/^["'“‘([]?[A-Z0-9]/.test(sentence.text);
    const cutAtEnd = index === sentences.length - 1 && !TERMINAL.test(sentence.text);
    return { ...sentence, partial: cutAtStart || cutAtEnd };
  });
}

/** How well each sentence answers a question (see `scoreSentences`). */
export interface SentenceScores {
  /** The question's content tokens (METRICS.md tokens). */
  questionTokens: string[];
  /** Weight of every question token present in some sentence: 1 + ln(N / df), df = sentences holding it. */
  weights: Record<string, number>;
  /** Per sentence, in input order: its score, the question tokens it holds, and the part of the score from adjacent question words. */
  scores: Array<{ score: number; matched: string[]; adjacency: number }>;
}

/** BM25's usual constants (Robertson & Zaragoza), not fitted here. */
const K1 = 1.2;
const B = 0.75;

/**
 * Scores sentences against a question as BM25 does passages, with each question token counted once:
 * Σ over the question tokens a sentence holds of weight(t) · (k1 + 1) / (1 + k1 · (1 − b + b · len / avgLen)),
 * plus, for every pair of question tokens adjacent in the question that are adjacent in the sentence,
 * the lighter of the two weights (the question's words together, e.g. a term being defined). Weights are
 * rarity among the given sentences, so the same call ranks sentences of several windows against each other.
 */
export function scoreSentences(options: { question: string; sentences: readonly string[] }): SentenceScores {
  const questionSequence = metricTokens(options.question);
  const questionTokens = [...new Set(questionSequence)];
  const tokenLists = options.sentences.map((sentence) => metricTokens(sentence));
  const sets = tokenLists.map((tokens) => new Set(tokens));
  const n = Math.max(1, sets.length);
  const weights: Record<string, number> = {};
  for (const token of questionTokens) {
    const df = sets.reduce((count, set) => count + (set.has(token) ? 1 : 0), 0);
    if (df > 0) weights[token] = 1 + Math.log(n / df);
  }
  const avgLength = tokenLists.reduce((sum, tokens) => sum + tokens.length, 0) / n || 1;
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < questionSequence.length; i += 1) {
    const a = questionSequence[i] as string;
    const b = questionSequence[i + 1] as string;
    if (a !== b) pairs.push([a, b]);
  }
  const scores = tokenLists.map((tokens, index) => {
    const set = sets[index] as Set<string>;
    const matched = questionTokens.filter((token) => set.has(token));
    const norm = (K1 + 1) / (1 + K1 * (1 - B + (B * tokens.length) / avgLength));
    const base = matched.reduce((sum, token) => sum + (weights[token] ?? 0), 0) * norm;
    let adjacency = 0;
    if (pairs.length > 0 && matched.length > 1) {
      const adjacent = new Set<string>();
      for (let i = 0; i + 1 < tokens.length; i += 1) adjacent.add(`${tokens[i]} ${tokens[i + 1]}`);
      for (const [a, b] of pairs) if (adjacent.has(`${a} ${b}`)) adjacency += Math.min(weights[a] ?? 0, weights[b] ?? 0);
    }
    const round = (value: number) => Math.round(value * 1e6) / 1e6;
    return { score: round(base + adjacency), matched, adjacency: round(adjacency) };
  });
  return { questionTokens, weights, scores };
}
