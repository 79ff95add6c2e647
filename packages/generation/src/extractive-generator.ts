import { InvalidArgumentError, throwIfAborted, type Answer, type Citation, type GenerateOptions, type Generator, type RankedWindow } from '@mosaic/spec';
import { metricTokenSet } from '@mosaic/stage-utils';

export interface ExtractiveGeneratorOptions {
  /** Top windows read, in rank order. Default 5. */
  maxWindows?: number;
  /** Sentences quoted at most. Default 3. */
  maxSentences?: number;
  /** Characters of quoted text at most (a sentence that would exceed it is skipped). Default 700. */
  maxChars?: number;
  /** A longer sentence is cut at a word boundary and ends with '…'. Default 400. */
  maxSentenceChars?: number;
  /** A sentence is quoted only if its score is at least this fraction of the best score. Default 0.25. */
  minRelativeScore?: number;
  /** Text before the quoted sentences. Default 'Extractive answer (sentences quoted from the sources):'. */
  label?: string;
}

/** One candidate sentence with its score and provenance. */
export interface ExtractiveSentence {
  /** The sentence (cut to maxSentenceChars). */
  text: string;
  /** 1-based rank of its window among the windows handed to the generator. */
  window: number;
  windowId: string;
  /** Index of the sentence within its window. */
  position: number;
  /** Sum of the weights of the question tokens it contains. */
  score: number;
  /** The question content tokens it contains. */
  matched: string[];
  /** True when the window cuts the sentence (first or last fragment). */
  partial: boolean;
}

/** What the extractive generator chose and why (its trace). */
export interface ExtractiveSelection {
  questionTokens: string[];
  /** Weight of every question token: 1 + ln(N / df), df = candidate sentences containing it. */
  weights: Record<string, number>;
  /** Scored candidates, best first (at most 25). */
  candidates: ExtractiveSentence[];
  /** The sentences quoted, in answer order. */
  selected: ExtractiveSentence[];
  /**
   * 'matched': sentences share question tokens; 'no-overlap': nothing matched and the top
   * window's first sentence is quoted; 'no-windows': nothing to quote.
   */
  outcome: 'matched' | 'no-overlap' | 'no-windows';
}

const DEFAULT_LABEL = 'Extractive answer (sentences quoted from the sources):';
const TERMINAL = /[.!?]["'”’)\]]*$/;
const SENTENCE_BREAK = /(?<=[.!?]["'”’)\]]?)\s+(?=["'“‘([]?[A-Z0-9])/g;

interface Resolved {
  maxWindows: number;
  maxSentences: number;
  maxChars: number;
  maxSentenceChars: number;
  minRelativeScore: number;
  label: string;
}

function resolve(options: ExtractiveGeneratorOptions): Resolved {
  const resolved: Resolved = {
    maxWindows: options.maxWindows ?? 5,
    maxSentences: options.maxSentences ?? 3,
    maxChars: options.maxChars ?? 700,
    maxSentenceChars: options.maxSentenceChars ?? 400,
    minRelativeScore: options.minRelativeScore ?? 0.25,
    label: options.label ?? DEFAULT_LABEL,
  };
  for (const key of ['maxWindows', 'maxSentences', 'maxChars', 'maxSentenceChars'] as const) {
    if (!Number.isInteger(resolved[key]) || resolved[key] < 1) {
      throw new InvalidArgumentError({ argument: key, message: 'must be a positive integer' });
    }
  }
  if (!(resolved.minRelativeScore >= 0 && resolved.minRelativeScore <= 1)) {
    throw new InvalidArgumentError({ argument: 'minRelativeScore', message: 'must be in [0, 1]' });
  }
  return resolved;
}

/** Split a window into sentences, marking the fragments the window boundaries cut. */
export function splitSentences(window: Pick<RankedWindow, 'text' | 'start'>): Array<{ text: string; partial: boolean }> {
  const parts = window.text
    .split(SENTENCE_BREAK)
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .filter((part) => part.length > 0);
  return parts.map((text, index) => {
    const cutAtStart = index === 0 && window.start > 0 && !/^["'“‘([]?[A-Z0-9]/.test(text);
    const cutAtEnd = index === parts.length - 1 && !TERMINAL.test(text);
    return { text, partial: cutAtStart || cutAtEnd };
  });
}

function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`;
}

/**
 * Score every sentence of the top windows by the question tokens it contains (weighted by
 * rarity among the candidates) and pick the best few. Ties go to the better-ranked window,
 * then to the earlier sentence. Questions (sentences ending in '?', e.g. headings) are never
 * quoted; fragments cut by a window boundary only when no whole sentence matches.
 * Deterministic.
 */
export function selectExtractiveSentences(options: { question: string; windows: readonly RankedWindow[] } & ExtractiveGeneratorOptions): ExtractiveSelection {
  const config = resolve(options);
  const questionTokens = [...metricTokenSet(options.question)];
  const windows = options.windows.slice(0, config.maxWindows);
  if (windows.length === 0) {
    return { questionTokens, weights: {}, candidates: [], selected: [], outcome: 'no-windows' };
  }

  const seen = new Set<string>();
  const raw: Array<{ text: string; window: number; windowId: string; position: number; partial: boolean; tokens: Set<string> }> = [];
  windows.forEach((window, index) => {
    splitSentences(window).forEach((sentence, position) => {
      if (/\?["'”’)\]]*$/.test(sentence.text)) return; // a question is not an answer
      const key = sentence.text.toLowerCase();
      if (seen.has(key)) return; // overlapping windows repeat sentences; keep the best-ranked copy
      seen.add(key);
      raw.push({ ...sentence, window: index + 1, windowId: window.id, position, tokens: metricTokenSet(sentence.text) });
    });
  });

  const weights: Record<string, number> = {};
  for (const token of questionTokens) {
    const df = raw.reduce((count, sentence) => count + (sentence.tokens.has(token) ? 1 : 0), 0);
    if (df > 0) weights[token] = 1 + Math.log(raw.length / df);
  }
  const scored: ExtractiveSentence[] = raw.map((sentence) => {
    const matched = questionTokens.filter((token) => sentence.tokens.has(token));
    const score = matched.reduce((sum, token) => sum + (weights[token] ?? 0), 0);
    return {
      text: shorten(sentence.text, config.maxSentenceChars),
      window: sentence.window,
      windowId: sentence.windowId,
      position: sentence.position,
      score: Math.round(score * 1e6) / 1e6,
      matched,
      partial: sentence.partial,
    };
  });
  const order = (a: ExtractiveSentence, b: ExtractiveSentence) => b.score - a.score || a.window - b.window || a.position - b.position;
  const candidates = [...scored].sort(order);

  const whole = candidates.filter((c) => !c.partial && c.score > 0);
  const pool = whole.length > 0 ? whole : candidates.filter((c) => c.score > 0);
  if (pool.length === 0) {
    const first = scored.find((c) => c.window === 1 && !c.partial) ?? scored.find((c) => c.window === 1) ?? candidates[0];
    return {
      questionTokens,
      weights,
      candidates: candidates.slice(0, 25),
      selected: first ? [first] : [],
      outcome: first ? 'no-overlap' : 'no-windows',
    };
  }
  const best = pool[0]!.score;
  const selected: ExtractiveSentence[] = [];
  let chars = 0;
  for (const candidate of pool) {
    if (selected.length >= config.maxSentences) break;
    if (candidate.score < best * config.minRelativeScore) break;
    if (selected.length > 0 && chars + candidate.text.length > config.maxChars) continue;
    selected.push(candidate);
    chars += candidate.text.length;
  }
  return { questionTokens, weights, candidates: candidates.slice(0, 25), selected, outcome: 'matched' };
}

/** Render selected sentences as answer text with [n] markers, and their citations. */
export function renderExtractiveAnswer(
  selection: ExtractiveSelection,
  windows: readonly RankedWindow[],
  label: string = DEFAULT_LABEL,
): { text: string; citations: Citation[] } {
  if (selection.selected.length === 0) {
    return { text: `${label} no sources were retrieved.`.trim(), citations: [] };
  }
  const citations: Citation[] = [];
  const parts = selection.selected.map((sentence) => {
    if (!citations.some((c) => c.window === sentence.window)) {
      citations.push({ window: sentence.window, windowId: windows[sentence.window - 1]?.id ?? sentence.windowId });
    }
    return `${sentence.text} [${sentence.window}]`;
  });
  return { text: [label, ...parts].filter(Boolean).join(' '), citations };
}

/**
 * An offline Generator that quotes the best-matching sentences of the top windows, labelled as
 * extractive (`extractive: true`, generator 'extractive'), with [n] citations of the windows used.
 */
export function createExtractiveGenerator(options: ExtractiveGeneratorOptions = {}): Generator {
  const config = resolve(options);
  return {
    specificationVersion: 'v1',
    id: 'extractive',
    async generate(input: GenerateOptions): Promise<Answer> {
      throwIfAborted(input.abortSignal, 'generate');
      const selection = selectExtractiveSentences({ ...config, question: input.question.text, windows: input.windows });
      const { text, citations } = renderExtractiveAnswer(selection, input.windows, config.label);
      return { text, citations, generator: 'extractive', extractive: true };
    },
  };
}
