import {
  InvalidArgumentError,
  throwIfAborted,
  type Answer,
  type AnswerQuote,
  type Citation,
  type GenerateOptions,
  type Generator,
  type RankedWindow,
  type SourceLocation,
} from '@mosaic/spec';
import { metricTokens, metricTokenSet, scoreSentences, splitSentences, wordsAsWritten, writtenApartIn } from '@mosaic/stage-utils';

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
  /** The part of `score` from question words it holds side by side (see `scoreSentences` of @mosaic/stage-utils). */
  adjacency: number;
  /**
   * Question tokens counted for it from the first sentence of its paragraph (its topic), which it does
   * not repeat: "The default is five minutes." speaks of what the paragraph opened with. Counted only
   * when the sentence itself holds a question token its topic lacks (the part of the question it answers).
   */
  inherited: string[];
  /**
   * True when the question asks what something is ("What is a savepoint?") and the sentence says it: its
   * words before "is", "are", "means" or "refers to" name that thing ("A savepoint is a special mark …"),
   * or a line naming it alone opens or precedes the sentence (a glossary's term; see `defines`). Such a
   * sentence, holding a question word, is quoted first.
   */
  definition: boolean;
  /** True when the window cuts the sentence (first or last fragment). */
  partial: boolean;
  /** The window's document. */
  documentId: string;
  /** Character offsets of the sentence in the document. */
  start: number;
  end: number;
  /** 1-based source lines of the sentence, when the window's source has lines (counted from its first line). */
  lines?: { start: number; end: number };
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
   * The document quoted first: the best-supported one (the top window's when it holds a sentence at
   * least half as good as the best, else the best sentence's). Sentences of other documents follow only
   * when they hold a question word the quoted ones lack.
   */
  document?: string;
  /**
   * 'matched': sentences share question tokens; 'no-overlap': nothing matched and the top
   * window's first sentence is quoted; 'no-windows': nothing to quote.
   */
  outcome: 'matched' | 'no-overlap' | 'no-windows';
}

const DEFAULT_LABEL = 'Extractive answer (sentences quoted from the sources):';

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

/** "What is a savepoint?" → the thing asked about, as METRICS.md tokens in order; undefined for another question. */
export function definedTerm(question: string): string[] | undefined {
  const asked = /^\s*what\s+(?:is|are)\s+(?:an?\s+|the\s+)?(.+?)[\s?.!]*$/i.exec(question);
  const tokens = asked ? metricTokens(asked[1] as string) : [];
  return tokens.length > 0 ? tokens : undefined;
}

/** The verb that follows the thing a definition defines. */
const DEFINING_VERB = /\s(?:is|are|means|refers\s+to)\s/i;

/**
 * Whether `sentence` says what `term` (`definedTerm`) is: the words before its first "is", "are",
 * "means" or "refers to" are words of the term, its first word among them ("A savepoint is …",
 * "The default level is WARNING." for "the default level of the logging module"); or, given where the
 * sentence sits in its text (`at`), a line naming the term alone opens it or comes right before it, as
 * a glossary's term line does ("generator" over "A function which returns a generator iterator.").
 */
export function defines(term: readonly string[], sentence: string, at?: SentenceAt): boolean {
  return definitionTest(term)(sentence, at);
}

/** Where a sentence sits in its text (`defines`). */
export interface SentenceAt {
  text: string;
  offset: number;
  length: number;
}

/** `defines` for one term, its words' set made once: the test asked of every sentence of an answer's windows. */
function definitionTest(term: readonly string[]): (sentence: string, at?: SentenceAt) => boolean {
  const termSet = new Set(term);
  const namesTerm = (line: string) => {
    const tokens = metricTokens(line);
    return tokens.length > 0 && tokens.every((token) => termSet.has(token)) && new Set(tokens).size === termSet.size;
  };
  return (sentence, at) => {
    const verb = DEFINING_VERB.exec(sentence);
    if (verb) {
      const head = metricTokens(sentence.slice(0, verb.index));
      if (head.length > 0 && head.includes(term[0] as string) && head.every((token) => termSet.has(token))) return true;
    }
    if (!at) return false;
    const before = at.text.slice(0, at.offset).trimEnd();
    if (before !== '' && namesTerm(before.slice(before.lastIndexOf('\n') + 1))) return true;
    const own = at.text.slice(at.offset, at.offset + at.length);
    const lineEnd = own.indexOf('\n');
    return lineEnd > 0 && own.slice(lineEnd).trim() !== '' && namesTerm(own.slice(0, lineEnd));
  };
}

/** Split a window into sentences (from @mosaic/stage-utils): `offset`/`length` locate each in `window.text`. */
export { splitSentences };

/**
 * The 1-based source lines of a span of a window's text, when the window's source gives its first
 * line: counted in the window's text, so exact only where the clean text keeps the file's lines
 * (plain text). The pipeline replaces them with the outline's lines (`locateQuotes`).
 */
function sentenceLines(window: Pick<RankedWindow, 'text' | 'source'>, offset: number, length: number): { lines?: { start: number; end: number } } {
  const first = window.source?.lines?.start;
  if (first === undefined) return {};
  const before = countNewlines(window.text, 0, offset);
  const within = countNewlines(window.text, offset, offset + Math.max(0, length - 1));
  return { lines: { start: first + before, end: first + before + within } };
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let index = text.indexOf('\n', from); index !== -1 && index < to; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
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
  const windows = options.windows.slice(0, config.maxWindows);
  if (windows.length === 0) {
    return { questionTokens: [...metricTokenSet(options.question)], weights: {}, candidates: [], selected: [], outcome: 'no-windows' };
  }

  const seen = new Set<string>();
  const defined = definedTerm(options.question);
  const isDefinition = defined === undefined ? undefined : definitionTest(defined);
  const raw: Array<Omit<ExtractiveSentence, 'score' | 'matched' | 'adjacency' | 'inherited'> & { tokens: Set<string>; topic?: Set<string> }> = [];
  windows.forEach((window, index) => {
    const sentences = splitSentences(window);
    // The first sentence of each sentence's paragraph (a blank line starts one), when it is another one.
    let lead = 0;
    const topics = sentences.map((sentence, position) => {
      const previous = sentences[position - 1];
      if (previous && /\n[ \t]*\n/.test(window.text.slice(previous.offset + previous.length, sentence.offset))) lead = position;
      return position > lead ? lead : undefined;
    });
    sentences.forEach((sentence, position) => {
      if (/\?["'”’)\]]*$/.test(sentence.text)) return; // a question is not an answer
      const key = sentence.text.toLowerCase();
      if (seen.has(key)) return; // overlapping windows repeat sentences; keep the best-ranked copy
      seen.add(key);
      raw.push({
        text: sentence.text,
        partial: sentence.partial,
        window: index + 1,
        windowId: window.id,
        position,
        documentId: window.documentId,
        start: window.start + sentence.offset,
        end: window.start + sentence.offset + sentence.length,
        ...sentenceLines(window, sentence.offset, sentence.length),
        definition: isDefinition?.(sentence.text, { text: window.text, offset: sentence.offset, length: sentence.length }) === true,
        tokens: metricTokenSet(sentence.text),
        ...(topics[position] === undefined || sentences[topics[position]]?.partial ? {} : { topic: metricTokenSet(sentences[topics[position]]!.text) }),
      });
    });
  });

  // Two question words that the sentences write only as one ("roll back" where they say "rollback") are
  // read as that word, and a word they write only as two ("rollback" where they say "roll back") as those two.
  const occurs = (word: string) => {
    const [token] = metricTokenSet(word);
    return token !== undefined && raw.some((sentence) => sentence.tokens.has(token));
  };
  const asked = wordsAsWritten(options.question, occurs, writtenApartIn(raw.map((sentence) => sentence.text)));
  const questionTokens = [...metricTokenSet(asked)];
  const { weights, scores } = scoreSentences({ question: asked, sentences: raw.map((sentence) => sentence.text) });
  const scored: ExtractiveSentence[] = raw.map((sentence, index) => {
    const { tokens, topic, ...rest } = sentence;
    const own = scores[index] as { score: number; matched: string[]; adjacency: number };
    // A sentence answering part of the question its paragraph's topic sentence lacks (a value, a default, a
    // limit) also holds, for scoring, the question tokens of that topic sentence, at its own length norm.
    let { score } = own;
    const inherited: string[] = [];
    if (topic && own.matched.some((token) => !topic.has(token))) {
      const ownWeight = own.matched.reduce((sum, token) => sum + (weights[token] ?? 0), 0);
      const norm = ownWeight > 0 ? (own.score - own.adjacency) / ownWeight : 0;
      for (const token of questionTokens) {
        if (topic.has(token) && !own.matched.includes(token) && weights[token] !== undefined) {
          inherited.push(token);
          score += weights[token] * norm;
        }
      }
      score = Math.round(score * 1e6) / 1e6;
    }
    // A heading or a list label ("Redistribution.", "(b)") says too little to be quoted as an answer; a short
    // sentence that speaks of its paragraph's topic ("The default is 5432.") is neither.
    const short = tokens.size < 4 && inherited.length === 0;
    return {
      ...rest,
      partial: rest.partial || short,
      text: shorten(sentence.text, config.maxSentenceChars),
      score,
      matched: own.matched,
      adjacency: own.adjacency,
      inherited,
    };
  });
  // A sentence that says what the question asks something is comes first (among those holding a question word).
  const defining = (sentence: ExtractiveSentence) => (sentence.definition && sentence.score > 0 ? 1 : 0);
  const order = (a: ExtractiveSentence, b: ExtractiveSentence) =>
    defining(b) - defining(a) || b.score - a.score || a.window - b.window || a.position - b.position;
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
  // The best score, a definition aside (it comes first whatever its score).
  const top = pool.reduce((best, candidate) => (candidate.score > best.score ? candidate : best), pool[0]!);
  const best = top.score;
  const bestAdjacency = top.adjacency;
  // The best-supported document: the top window's, when it holds a sentence at least half as good as the best.
  const topDocument = windows[0]!.documentId;
  const topBest = Math.max(0, ...pool.filter((candidate) => candidate.documentId === topDocument).map((candidate) => candidate.score));
  const document = topBest >= best / 2 ? topDocument : pool[0]!.documentId;
  const ordered = [...pool.filter((c) => c.documentId === document), ...pool.filter((c) => c.documentId !== document)];
  const selected: ExtractiveSentence[] = [];
  const covered = new Set<string>();
  let chars = 0;
  for (const candidate of ordered) {
    if (selected.length >= config.maxSentences) break;
    // The bar is set on the words held, not on their adjacency: a second hop's sentence shares fewer words.
    if (defining(candidate) === 0 && candidate.score - candidate.adjacency < (best - bestAdjacency) * config.minRelativeScore) continue;
    if (selected.length > 0 && chars + candidate.text.length > config.maxChars) continue;
    // Another document's sentence only when it adds a question word the quoted ones lack.
    if (candidate.documentId !== document && selected.length > 0 && candidate.matched.every((token) => covered.has(token))) continue;
    selected.push(candidate);
    chars += candidate.text.length;
    for (const token of candidate.matched) covered.add(token);
  }
  return { questionTokens, weights, candidates: candidates.slice(0, 25), selected, document, outcome: 'matched' };
}

/** Render selected sentences as answer text with [n] markers, and their citations. */
export function renderExtractiveAnswer(
  selection: ExtractiveSelection,
  windows: readonly RankedWindow[],
  label: string = DEFAULT_LABEL,
): { text: string; citations: Citation[]; quotes: AnswerQuote[] } {
  if (selection.selected.length === 0) {
    return { text: `${label} no sources were retrieved.`.trim(), citations: [], quotes: [] };
  }
  const citations: Citation[] = [];
  const quotes: AnswerQuote[] = [];
  const parts = selection.selected.map((sentence) => {
    if (!citations.some((c) => c.window === sentence.window)) {
      citations.push({ window: sentence.window, windowId: windows[sentence.window - 1]?.id ?? sentence.windowId });
    }
    const source: SourceLocation = {
      documentId: sentence.documentId,
      start: sentence.start,
      end: sentence.end,
      ...(sentence.lines ? { lines: sentence.lines } : {}),
    };
    quotes.push({ text: sentence.text, source, window: sentence.window });
    return `${sentence.text} [${sentence.window}]`;
  });
  return { text: [label, ...parts].filter(Boolean).join(' '), citations, quotes };
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
      const { text, citations, quotes } = renderExtractiveAnswer(selection, input.windows, config.label);
      return { text, citations, quotes, generator: 'extractive', extractive: true };
    },
  };
}
