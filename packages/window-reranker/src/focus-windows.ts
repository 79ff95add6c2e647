import type { RankedWindow } from '@mosaic/spec';
import { metricTokenSet, scoreSentences, splitSentences } from '@mosaic/stage-utils';
import { createHeadingMatcher, type WordWeight } from './heading-match.js';

/** What `focusWindows` computed for one window (each term in [0, 1]). */
export interface FocusedWindow {
  id: string;
  /** 1-based rank the reranker gave it. */
  before: number;
  /** The reranker's score, min-max normalised over the windows. */
  rerank: number;
  /** Share of the question's weight (rarity among the windows) that the window holds. */
  coverage: number;
  /**
   * The window's best whole sentence against the question (`scoreSentences` over the sentences of all the
   * windows: rare question words, short sentences, the question's words adjacent), divided by the best
   * sentence of any window: the question's words close together, in one sentence the window does not cut.
   */
  proximity: number;
  /** How much of the windows' rerank mass (and of the evidence, when given) the window's document holds, relative to the best document. */
  document: number;
  /**
   * How closely the window's document title, a heading of the section it starts in (`window.source`) or
   * one of a section that begins inside it (`sectionsWithin`) names what the question asks about: the
   * best cosine between the question's words and one heading's words, each word weighted by its rarity
   * (`wordWeight`). 0 for a window without a title or section (plain text read without an outline).
   */
  heading: number;
  /** proximity + document + heading (the reranker's order breaks ties; rerank and coverage are reported, not added). */
  score: number;
}

/** The focus step's trace: the question tokens with their weights and every window's terms. */
export interface FocusTrace {
  questionTokens: string[];
  /** Weight of each question token present in some window: ln(1 + N / df), df = windows holding it. */
  weights: Record<string, number>;
  windows: FocusedWindow[];
  /** Whether the order changed. */
  reordered: boolean;
}

export interface FocusWindowsOptions {
  question: string;
  /** The reranker's windows, best first. */
  windows: readonly RankedWindow[];
  /**
   * How strongly the graph's evidence points to each document (e.g. the share of evidence units whose
   * chunks lie in it). Optional; without it the document term reads the windows' own scores only.
   */
  documentSupport?: ReadonlyMap<string, number>;
  /**
   * The weight of a word in the corpus, for the heading term: `word` as written, `token` its METRICS.md
   * token (e.g. ln(1 + N / (df + 1)), df = windows of the corpus holding the word). Without it a word
   * weighs ln(1 + n / df) over the `windows` given (df at least 1).
   */
  wordWeight?: WordWeight;
  /**
   * The heading trails of the sections that begin inside a window (after its start: `window.source`
   * names the one it starts in), e.g. `sectionsWithin` of its document's outline. A window of 1,600
   * characters often starts at the end of one section and holds the opening of the next, where
   * documentation says what that section is about. Without it only `window.source` is read.
   */
  sectionsWithin?: (window: RankedWindow) => readonly (readonly string[])[];
}

function weightedShare(tokens: ReadonlySet<string>, weights: Readonly<Record<string, number>>, total: number): number {
  if (total <= 0) return 0;
  let held = 0;
  for (const [token, weight] of Object.entries(weights)) if (tokens.has(token)) held += weight;
  return held / total;
}

/**
 * Puts the window that answers first (the others keep the reranker's order), chosen from signals the pipeline
 * already has: the window's best whole sentence against the question (`proximity`: the question's rare
 * words, close together, in a sentence the window does not cut), whether the window's document is the
 * one the other windows and the graph's evidence point to (`document`), and whether its document title,
 * a heading of its section or of a section beginning inside it names what the question asks about
 * (`heading`, read from `window.source` and `sectionsWithin`; 0 without them). All three lie in [0, 1]
 * and are added with equal weight, no fitted weights; the reranker's order breaks ties. The reranker
 * chose the windows and their order; only the focus window moves to the front (recall over the windows is unchanged,
 * and a top k changes by at most that one window). Each window gets `scores.focus`
 * and its terms; `score` keeps the reranker's value. Deterministic.
 */
export function focusWindows(options: FocusWindowsOptions): { windows: RankedWindow[]; trace: FocusTrace } {
  const { windows } = options;
  const questionTokens = [...metricTokenSet(options.question)];
  const tokenSets = windows.map((window) => metricTokenSet(window.text));
  // Windows holding a token, and its weight among them: ln(1 + n / df).
  const windowCount = (token: string) => tokenSets.reduce((count, set) => count + (set.has(token) ? 1 : 0), 0);
  const windowWeight = (df: number) => Math.log(1 + windows.length / df);
  const weights: Record<string, number> = {};
  for (const token of questionTokens) {
    const df = windowCount(token);
    if (df > 0) weights[token] = windowWeight(df);
  }
  const total = Object.values(weights).reduce((sum, weight) => sum + weight, 0);

  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const window of windows) {
    min = Math.min(min, window.score);
    max = Math.max(max, window.score);
  }
  const rerank = windows.map((window) => (max > min ? (window.score - min) / (max - min) : 1));

  // Document agreement: the share of rerank mass per document, and the evidence's support when given.
  const mass = new Map<string, number>();
  windows.forEach((window, index) => {
    mass.set(window.documentId, (mass.get(window.documentId) ?? 0) + (rerank[index] as number));
  });
  const maxMass = Math.max(0, ...mass.values());
  const support = options.documentSupport;
  const maxSupport = support ? Math.max(0, ...support.values()) : 0;
  const documentTerm = (documentId: string) => {
    const own = maxMass > 0 ? (mass.get(documentId) ?? 0) / maxMass : 0;
    if (!support || maxSupport <= 0) return own;
    return (own + (support.get(documentId) ?? 0) / maxSupport) / 2;
  };

  // Every whole sentence of every window, scored together, so that sentence scores compare across windows.
  const sentences: Array<{ window: number; text: string }> = [];
  windows.forEach((window, index) => {
    for (const sentence of splitSentences(window)) if (!sentence.partial) sentences.push({ window: index, text: sentence.text });
  });
  const { scores } = scoreSentences({ question: options.question, sentences: sentences.map((sentence) => sentence.text) });
  const bestSentence = windows.map(() => 0);
  sentences.forEach((sentence, i) => {
    bestSentence[sentence.window] = Math.max(bestSentence[sentence.window] as number, (scores[i] as { score: number }).score);
  });
  const topSentence = Math.max(0, ...bestSentence);

  // Headings: the question's words against each title and section heading, words weighted by rarity.
  const headingTerm = createHeadingMatcher(options.question, options.wordWeight ?? ((_, token) => windowWeight(Math.max(1, windowCount(token)))));

  const focused: FocusedWindow[] = windows.map((window, index) => {
    const coverage = weightedShare(tokenSets[index] as Set<string>, weights, total);
    const proximity = topSentence > 0 ? (bestSentence[index] as number) / topSentence : 0;
    const document = documentTerm(window.documentId);
    const heading = headingTerm(window.source, options.sectionsWithin?.(window));
    const r = rerank[index] as number;
    const round = (value: number) => Math.round(value * 1e6) / 1e6;
    return {
      id: window.id,
      before: index + 1,
      rerank: round(r),
      coverage: round(coverage),
      proximity: round(proximity),
      document: round(document),
      heading: round(heading),
      score: round(proximity + document + heading),
    };
  });
  // Only the answering window moves: the best by focus (the reranker's order breaks ties) comes first,
  // and every other window keeps the reranker's order, which is the better order for recall in the top k.
  const ranked = focused.map((entry, index) => ({ entry, index }));
  const first = ranked.reduce((best, candidate) => (candidate.entry.score > best.entry.score ? candidate : best), ranked[0] as (typeof ranked)[number]);
  const order = first ? [first, ...ranked.filter((candidate) => candidate !== first)] : [];
  const reordered = order.some(({ index }, position) => index !== position);
  const out = order.map(({ entry, index }) => {
    const window = windows[index] as RankedWindow;
    return {
      ...window,
      scores: {
        ...window.scores,
        focus: entry.score,
        focusCoverage: entry.coverage,
        focusProximity: entry.proximity,
        focusDocument: entry.document,
        focusHeading: entry.heading,
      },
    };
  });
  return { windows: out, trace: { questionTokens, weights, windows: order.map(({ entry }) => entry), reordered } };
}
