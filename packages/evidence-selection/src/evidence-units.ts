import type { ChunkStore, GraphStore, ScoredPath, SelectedPath, SentenceTokens, SpanColumns, TextSpan } from '@mosaic/spec';
import { matchTokens, windowsOfSpan, type PassageRelevance } from '@mosaic/stage-utils';
import { chunkScoresByNumber, doubled, firstPositions, matchSentenceTokens, TokenNumbering, WeightedLru } from '@mosaic/stage-utils/internal';
import type { GraphFacts } from './graph-facts.js';

export const ENTITY_PREFIX = 'entity:';
export const RELATION_PREFIX = 'relation:';

/** The units a path contributes, in the order it contributes them: its relations from the far end back to the seed, then its entities likewise. */
export function unitOrder(path: ScoredPath): string[] {
  const order: string[] = [];
  for (let i = path.edges.length - 1; i >= 0; i -= 1) order.push(RELATION_PREFIX + path.edges[i]);
  for (let i = path.nodes.length - 1; i >= 0; i -= 1) order.push(ENTITY_PREFIX + path.nodes[i]);
  return order;
}

/** Identity of a sentence span. */
export function spanKey(span: TextSpan): string {
  return `${span.chunkId}\u0000${span.start}\u0000${span.end}`;
}

/**
 * One fact per sentence (`compute`), per chunk store, kept across questions (bounded): the content
 * tokens of a sentence (`tokensOfSentence`) or the windows it grounds in (`spanWindowIds`).
 */
export class SpanFacts<T> {
  /**
   * Per chunk store: the facts by chunk id and then by offsets (one number, `start · 2²⁶ + end`, so
   * a lookup builds no key string), and by span key for offsets that do not fit. All start afresh
   * at 200,000 facts.
   */
  readonly #byStore = new WeakMap<object, { byChunk: Map<string, Map<number, T>>; byKey: Map<string, T>; size: number }>();

  constructor(private readonly compute: (chunks: ChunkStore, span: TextSpan, key: string) => T) {}

  of(chunks: ChunkStore, span: TextSpan): T {
    let facts = this.#byStore.get(chunks);
    if (!facts) this.#byStore.set(chunks, (facts = { byChunk: new Map(), byKey: new Map(), size: 0 }));
    const { start, end } = span;
    const offsets = Number.isInteger(start) && Number.isInteger(end) && start >= 0 && end >= 0 && start < OFFSET_LIMIT && end < OFFSET_LIMIT;
    const packed = start * OFFSET_LIMIT + end;
    const key = offsets ? undefined : spanKey(span);
    const known = key === undefined ? facts.byChunk.get(span.chunkId)?.get(packed) : facts.byKey.get(key);
    if (known !== undefined) return known;
    const fact = this.compute(chunks, span, key ?? spanKey(span));
    if (facts.size >= 200_000) {
      facts.byChunk.clear();
      facts.byKey.clear();
      facts.size = 0;
    }
    if (key === undefined) {
      let inChunk = facts.byChunk.get(span.chunkId);
      if (!inChunk) facts.byChunk.set(span.chunkId, (inChunk = new Map()));
      inChunk.set(packed, fact);
    } else facts.byKey.set(key, fact);
    facts.size += 1;
    return fact;
  }
}

/** Offsets below it pack two to a number (2²⁶ · 2²⁶ = 2⁵², within a double's exact integers). */
const OFFSET_LIMIT = 2 ** 26;

/** An empty array of numbers, read in place of a store's arrays when there is no store. */
const NO_NUMBERS = new Int32Array(0);

/** Spans lists of at least this many sentences are scored from a sentence table (see `SentenceTables`). */
export const TABLE_MIN_SPANS = 128;

/** Sentence tables' summed weight (token numbers plus sentences) kept across questions by default. */
const DEFAULT_TABLE_WEIGHT = 4_000_000;

/**
 * One unit's sentences as numbers. A sentence the chunk store's `sentenceTokens` holds is kept as its
 * number there (`sentences[i]`), its tokens read from the store when scored; another one's distinct
 * content tokens (`tokensOfSentence`) are `tokens[tokenStart[i] … tokenStart[i + 1])`, as numbers of
 * the tables' vocabulary (an empty range for a stored one). Its chunk's number in a passage
 * relevance's chunk numbering (`chunkNumbers`, −1 for a chunk it does not hold) is made on first use.
 */
interface SentenceTable {
  chunks: ChunkStore;
  /**
   * The spans it was made from (a table found by key is checked against them); undefined for a
   * table read from a store's columns (`sentences` is then the columns' own sentence numbers).
   */
  spans?: readonly TextSpan[];
  count: number;
  /** The store's sentence tokens `sentences` numbers, when it held any of the sentences. */
  stored?: SentenceTokens;
  /** Per sentence: its number in `stored`, or −1 when its tokens are in `tokens`. */
  sentences: Int32Array;
  tokenStart: Int32Array;
  tokens: Int32Array;
  /** Per sentence: its chunk's number in `stored` (`chunkNumber`), −1 when the store does not number it; set when the store numbers its chunks. */
  storedChunks?: Int32Array;
  numbering?: ReadonlyMap<string, number>;
  chunkNumbers?: Int32Array;
}

/**
 * The sentences of units with many of them (a hub entity is named in thousands of sentences, and
 * every question that reaches it ranks them all), as tables of numbers kept across questions:
 * scoring a sentence is then a few array reads (its tokens against the question's, its chunk's
 * passage relevance by number) instead of a cache lookup by chunk id and offsets, a set
 * intersection and a relevance lookup by chunk id. Keyed by the unit's id when the caller gives one
 * (a graph store may build a hub's node, and its spans array, afresh for every question: at 100 MB
 * CompactGraphStore keeps only a few hubs' nodes), else by the spans array itself, and checked
 * against the chunk store and the spans, sentence by sentence. Bounded: least recently used tables go
 * once the summed weight passes the limit. The scores are the same numbers `bestSpans` computes
 * without a table. A sentence the chunk store's `sentenceTokens` holds (made with `matchTokens`
 * when the index was built) is kept as its number there and its tokens read from the store when
 * scored, instead of tokenizing its text or copying its tokens: a hub's table, made when a question
 * first reaches it, then costs a number per sentence.
 */
export class SentenceTables {
  /** The tables' token numbers, and the words of ASCII sentences read as them, kept across questions. */
  readonly #numbering = new TokenNumbering();
  readonly #tables: WeightedLru<readonly TextSpan[] | string, SentenceTable>;
  /** Per vocabulary number: 1 while it is a token of the question being scored. */
  #question = new Uint8Array(1024);
  /** Where `#tableOf` writes a table's token numbers before copying them at their length. */
  #scratch: Int32Array = new Int32Array(1 << 16);
  readonly #storedNumbers = new WeakMap<SentenceTokens, Int32Array>();
  /** Per store that numbers its words: question marks over its vocabulary (all 0 between calls). */
  readonly #storedMarks = new WeakMap<SentenceTokens, Uint8Array>();
  /**
   * Per store that numbers its chunks, for the last passage chunk numbering asked: its chunks' numbers
   * in that numbering (`toPassage`, see `#storedChunkNumbers`) and the numbering's chunks' numbers in
   * the store (`toStored`, made when first asked, see `#passageToStored`).
   */
  readonly #translations = new WeakMap<SentenceTokens, ChunkTranslation>();

  constructor(options: { limit?: number } = {}) {
    this.#tables = new WeightedLru({ limit: options.limit ?? DEFAULT_TABLE_WEIGHT, weigh: (table) => table.tokens.length + table.count });
  }

  /** Tables held, and their summed weight. */
  get size(): { tables: number; weight: number } {
    return { tables: this.#tables.size, weight: this.#tables.weight };
  }

  /**
   * Per sentence of `spans` (an array, or a store's columns: `GraphStore.spanColumns`): the
   * content tokens it shares with `question` plus `weight` times its chunk's score in `relevance`
   * (when given), into `score`; `relevanceOut` receives that chunk score.
   * `key` (the unit's id) finds the table kept for the same spans in an array made afresh.
   * `spanChunks`, when given, numbers the spans' chunks in a chunk numbering, one number per span
   * (GraphStore.spanChunkNumbers of the unit, −1 for a chunk the numbering lacks): the table then reads
   * its chunks by number, each chunk looked up by id once per store rather than once per table.
   */
  score(
    chunks: ChunkStore,
    spans: readonly TextSpan[] | SpanColumns,
    question: ReadonlySet<string>,
    passage: { relevance: PassageRelevance; weight: number } | undefined,
    score: Float64Array,
    relevanceOut: Float64Array,
    key?: string,
    spanChunks?: (numbering: ReadonlyMap<string, number>) => Int32Array | undefined,
  ): void {
    const numbered = passage ? chunkScoresByNumber(passage.relevance) : undefined;
    // The spans' chunks in the passage relevance's numbering, asked at most once (and only when a
    // table is made or renumbered); null: none, or not one per span.
    let byNumber: Int32Array | null | undefined;
    const passageChunks = (): Int32Array | undefined => {
      if (byNumber === undefined) {
        const numbers = numbered && spanChunks ? spanChunks(numbered.chunkNumber) : undefined;
        byNumber = numbers?.length === spanCount(spans) ? numbers : null;
      }
      return byNumber ?? undefined;
    };
    const passageNumbering = numbered ? { numbering: numbered.chunkNumber, chunks: passageChunks } : undefined;
    const table = isSpanArray(spans)
      ? this.#tableOf(chunks, spans, key, passageNumbering)
      : (this.#columnTable(chunks, spans, key) ?? this.#tableOf(chunks, spanArray(spans), key, passageNumbering));
    const marks = this.#marksFor(question);
    const { sentences, tokenStart, tokens, stored } = table;
    // A store that numbers its words (`tokenNumber`) has the question's tokens marked by its own
    // numbers: a stored sentence's tokens are read as they are.
    const storedMarks = stored && typeof stored.tokenNumber === 'function' ? this.#storedMarksFor(stored, question) : undefined;
    // Else a stored sentence's tokens are numbered in the tables' vocabulary as they are first met: a
    // word numbered only now is no question token (those were numbered by #marksFor) unless the
    // vocabulary already held it, and then its number is below the marks' length.
    const fromStored = stored && !storedMarks ? this.#numbersOf(stored) : undefined;
    // The store's arrays read once, not per sentence (a hub's table holds thousands); a stored
    // sentence (number ≥ 0) means there is a store.
    const from = stored?.tokenStart ?? NO_NUMBERS;
    const held = stored?.tokens ?? NO_NUMBERS;
    const vocabulary = stored?.vocabulary ?? [];
    const markedStored = storedMarks?.marks;
    for (let i = 0; i < table.count; i += 1) {
      let shared = 0;
      const sentence = sentences[i];
      if (sentence >= 0) {
        if (markedStored) {
          for (let at = from[sentence], end = from[sentence + 1]; at < end; at += 1) shared += markedStored[held[at]];
        } else {
          for (let at = from[sentence], end = from[sentence + 1]; at < end; at += 1) {
            const token = held[at];
            let number = fromStored![token];
            if (number < 0) number = fromStored![token] = this.#numbering.numberOf(vocabulary[token]);
            if (number < marks.length) shared += marks[number];
          }
        }
      } else {
        for (let at = tokenStart[i]; at < tokenStart[i + 1]; at += 1) shared += marks[tokens[at]];
      }
      score[i] = shared;
    }
    for (const token of question) {
      const number = this.#numbering.numberIfKnown(token);
      if (number !== undefined) marks[number] = 0;
    }
    if (storedMarks) for (const number of storedMarks.set) storedMarks.marks[number] = 0;
    if (!passage) {
      relevanceOut.fill(0, 0, table.count);
      return;
    }
    if (numbered) {
      const chunkNumbers = this.#chunkNumbers(table, spans, numbered.chunkNumber, passageChunks);
      const scores = numbered.scores;
      for (let i = 0; i < table.count; i += 1) relevanceOut[i] = chunkNumbers[i] < 0 ? 0 : scores[chunkNumbers[i]];
    } else {
      for (let i = 0; i < table.count; i += 1) relevanceOut[i] = passage.relevance.chunk(chunkIdOf(spans, i));
    }
    for (let i = 0; i < table.count; i += 1) score[i] += passage.weight * relevanceOut[i];
  }

  /**
   * The table of `spans`, kept or made. `passage`: a chunk numbering and, when known, the spans'
   * chunks in it (see `score`); a stored chunk number is then found through it, once per chunk.
   */
  #tableOf(
    chunks: ChunkStore,
    spans: readonly TextSpan[],
    key: string | undefined,
    passage: { numbering: ReadonlyMap<string, number>; chunks: () => Int32Array | undefined } | undefined,
  ): SentenceTable {
    const known = this.#tables.get(key ?? spans);
    if (known?.spans && known.chunks === chunks && known.count === spans.length && sameSpans(known.spans, spans)) return known;
    const sentences = new Int32Array(spans.length);
    const tokenStart = new Int32Array(spans.length + 1);
    // Written to the tables' scratch array (grown when short, kept), then copied at its length.
    let tokens = this.#scratch;
    let used = 0;
    const add = (number: number) => {
      if (used === tokens.length) this.#scratch = tokens = doubled(tokens);
      tokens[used] = number;
      used += 1;
    };
    // The sentences' tokens made at build time, when the store keeps them (`matchTokens`' own): such
    // a sentence is kept as its number there, its tokens read from the store when scored.
    const stored = matchSentenceTokens(chunks);
    // Spans come in corpus order: consecutive sentences of one chunk read it once, and a store that
    // numbers its chunks (`chunkNumber`) is asked each chunk's number once.
    const byChunk =
      stored && typeof stored.chunkNumber === 'function' && typeof stored.sentenceInChunk === 'function' ? (stored as ChunkNumberedTokens) : undefined;
    let storedChunkId: string | undefined;
    let storedChunk: number | undefined;
    const storedChunks = byChunk ? new Int32Array(spans.length) : undefined;
    // The spans' chunks by number in the passage numbering, and that numbering's chunks' stored numbers
    // (made once per store and numbering; −2 for a number the numbering does not give: looked up by id).
    const passageChunks = byChunk && passage ? passage.chunks() : undefined;
    const passageToStored = passageChunks ? this.#passageToStored(byChunk!, passage!.numbering) : undefined;
    let chunkId: string | undefined;
    let text: string | undefined;
    for (let i = 0; i < spans.length; i += 1) {
      const span = spans[i];
      let sentence = -1;
      if (byChunk) {
        if (storedChunkId === undefined || span.chunkId !== storedChunkId) {
          storedChunkId = span.chunkId;
          // Through the passage numbering when the span's chunk has a number there, else by id.
          const number = passageChunks ? passageChunks[i] : -1;
          const known = number >= 0 ? (passageToStored![number] ?? -2) : -2;
          storedChunk = known === -2 ? validChunk(byChunk.chunkNumber(span.chunkId)) : known < 0 ? undefined : known;
        }
        storedChunks![i] = storedChunk ?? -1;
        if (storedChunk !== undefined) sentence = byChunk.sentenceInChunk(storedChunk, span.start, span.end);
      } else if (stored) {
        sentence = stored.sentence(span.chunkId, span.start, span.end);
      }
      sentences[i] = sentence;
      if (sentence < 0) {
        if (chunkId === undefined || span.chunkId !== chunkId) {
          chunkId = span.chunkId;
          text = chunks.getChunk(chunkId)?.text;
        }
        // A sentence's distinct token numbers (`tokensOfSentence`), an ASCII one read straight from its chunk.
        if (text !== undefined) this.#numbering.forEachDistinct(text, span.start, span.end, add);
      }
      tokenStart[i + 1] = used;
    }
    const table: SentenceTable = {
      chunks,
      spans,
      count: spans.length,
      stored,
      sentences,
      tokenStart,
      tokens: tokens.slice(0, used),
      storedChunks,
    };
    this.#tables.set(key ?? spans, table);
    return table;
  }

  /**
   * The table of a store's span columns, kept under `key` or made: its sentences are the columns'
   * sentence numbers in the chunk store's sentence tokens (`SpanColumns.sentenceNumbers`, read in
   * place), so making it reads no span. Undefined when the columns give no numbers for that table
   * or a span's sentence is not in it (the caller then builds the spans and `#tableOf` makes the
   * table, tokenizing such a sentence from its chunk).
   */
  #columnTable(chunks: ChunkStore, columns: SpanColumns, key: string | undefined): SentenceTable | undefined {
    const stored = matchSentenceTokens(chunks);
    if (!stored || typeof columns.sentenceNumbers !== 'function') return undefined;
    const sentences = columns.sentenceNumbers(stored);
    if (sentences.length !== columns.count) return undefined;
    const known = key === undefined ? undefined : this.#tables.get(key);
    // The same numbers in place: the same spans of the same store.
    if (
      known &&
      !known.spans &&
      known.chunks === chunks &&
      known.stored === stored &&
      known.count === sentences.length &&
      known.sentences.buffer === sentences.buffer &&
      known.sentences.byteOffset === sentences.byteOffset
    )
      return known;
    for (let i = 0; i < sentences.length; i += 1) if (sentences[i] < 0) return undefined;
    const table: SentenceTable = { chunks, count: sentences.length, stored, sentences, tokenStart: NO_NUMBERS, tokens: NO_NUMBERS };
    if (key !== undefined) this.#tables.set(key, table);
    return table;
  }

  /** Per token of a stored table's vocabulary: its number in these tables' vocabulary (−1 until first met). */
  #numbersOf(stored: SentenceTokens): Int32Array {
    let numbers = this.#storedNumbers.get(stored);
    if (!numbers) this.#storedNumbers.set(stored, (numbers = new Int32Array(stored.vocabulary.length).fill(-1)));
    return numbers;
  }

  /**
   * The question's tokens marked (1) by their numbers in `stored` (`tokenNumber`), in an array over its
   * vocabulary kept per store, and the numbers marked; the caller clears them.
   */
  #storedMarksFor(stored: SentenceTokens, question: ReadonlySet<string>): { marks: Uint8Array; set: number[] } {
    let marks = this.#storedMarks.get(stored);
    if (marks?.length !== stored.vocabulary.length) this.#storedMarks.set(stored, (marks = new Uint8Array(stored.vocabulary.length)));
    const set: number[] = [];
    for (const token of question) {
      const number = stored.tokenNumber!(token);
      if (number !== undefined && number >= 0 && number < marks.length && marks[number] === 0) {
        marks[number] = 1;
        set.push(number);
      }
    }
    return { marks, set };
  }

  /**
   * Per chunk number of `stored`: its number in `numbering` (−1: none there; −2: not looked up yet),
   * kept for the last numbering, long enough for the numbers in `chunks`.
   */
  #storedChunkNumbers(stored: SentenceTokens, numbering: ReadonlyMap<string, number>, chunks: Int32Array): Int32Array {
    let maxChunk = -1;
    for (const chunk of chunks) if (chunk > maxChunk) maxChunk = chunk;
    const kept = this.#translation(stored, numbering);
    if (kept.toPassage.length <= maxChunk) {
      const numbers = new Int32Array(Math.max(maxChunk + 1, kept.toPassage.length * 2, 1024)).fill(-2);
      numbers.set(kept.toPassage);
      kept.toPassage = numbers;
    }
    return kept.toPassage;
  }

  /**
   * Per chunk number of `numbering`: its number in `stored` (−1: none there; −2: a number the map does
   * not give), kept for the last numbering asked. Every chunk is looked up at once, in the map's order,
   * when a numbering is first asked: tables met later read numbers only (looked up chunk by chunk as
   * tables met them, the first lookups of a large corpus's chunks cost more than the tables).
   */
  #passageToStored(stored: ChunkNumberedTokens, numbering: ReadonlyMap<string, number>): Int32Array {
    const kept = this.#translation(stored, numbering);
    if (!kept.toStored) {
      const numbers = new Int32Array(numbering.size).fill(-2);
      for (const [chunkId, number] of numbering) {
        if (Number.isInteger(number) && number >= 0 && number < numbers.length) numbers[number] = validChunk(stored.chunkNumber(chunkId)) ?? -1;
      }
      kept.toStored = numbers;
    }
    return kept.toStored;
  }

  /** The translations kept for `stored`, started afresh when `numbering` is not the one they were made for. */
  #translation(stored: SentenceTokens, numbering: ReadonlyMap<string, number>): ChunkTranslation {
    let kept = this.#translations.get(stored);
    if (kept?.numbering !== numbering) {
      kept = { numbering, toPassage: new Int32Array(0) };
      this.#translations.set(stored, kept);
    }
    return kept;
  }

  /** The question marks (1 per question token, each given a number), sized to the vocabulary; the caller clears them. */
  #marksFor(question: ReadonlySet<string>): Uint8Array {
    // Every question token gets a number (a stored sentence's words are numbered as they are read).
    const numbers: number[] = [];
    for (const token of question) numbers.push(this.#numbering.numberOf(token));
    const size = this.#numbering.vocabulary.length;
    if (this.#question.length < size) this.#question = new Uint8Array(Math.max(size, this.#question.length * 2));
    for (const number of numbers) this.#question[number] = 1;
    return this.#question;
  }

  /**
   * The numbers in `numbering` of the chunks of the table's sentences. A chunk the store numbers
   * (`storedChunks`) is looked up once per store and numbering, whichever table holds it (a chunk
   * naming several hubs is in each of their tables); another one once per run of its sentences.
   */
  #chunkNumbers(
    table: SentenceTable,
    spans: readonly TextSpan[] | SpanColumns,
    numbering: ReadonlyMap<string, number>,
    spanChunks: () => Int32Array | undefined,
  ): Int32Array {
    if (table.numbering === numbering && table.chunkNumbers) return table.chunkNumbers;
    // Given by number (the same numbers: each span's chunk id in `numbering`, −1 when absent).
    const given = spanChunks();
    if (given) {
      table.numbering = numbering;
      table.chunkNumbers = given;
      return given;
    }
    const chunkNumbers = new Int32Array(table.count);
    const { storedChunks, stored } = table;
    const known = storedChunks && stored ? this.#storedChunkNumbers(stored, numbering, storedChunks) : undefined;
    let lastChunk: string | undefined;
    let lastNumber = -1;
    for (let i = 0; i < table.count; i += 1) {
      const chunkId = chunkIdOf(spans, i);
      if (chunkId !== lastChunk) {
        lastChunk = chunkId;
        const storedChunk = known ? storedChunks![i] : -1;
        if (storedChunk >= 0) {
          lastNumber = known![storedChunk];
          if (lastNumber === -2) lastNumber = known![storedChunk] = numbering.get(chunkId) ?? -1;
        } else {
          lastNumber = numbering.get(chunkId) ?? -1;
        }
      }
      chunkNumbers[i] = lastNumber;
    }
    table.numbering = numbering;
    table.chunkNumbers = chunkNumbers;
    return chunkNumbers;
  }
}

/** The content tokens of a sentence. */
export function tokensOfSentence(chunks: ChunkStore, span: TextSpan): ReadonlySet<string> {
  const chunk = chunks.getChunk(span.chunkId);
  return new Set(chunk ? matchTokens(chunk.text.slice(span.start, span.end)) : []);
}

/**
 * The ids of the windows a sentence grounds in (`windowsOfSpan`, as the rerankers ground it); a
 * sentence whose chunk is unknown keys by itself (`key`).
 */
export function spanWindowIds(chunks: ChunkStore, span: TextSpan, key: string): readonly string[] {
  const windows = windowsOfSpan({ chunks }, span, chunks.windowsOfChunk(span.chunkId));
  return windows.length > 0 ? windows.map((window) => window.id) : [key];
}

/** How a unit's sentences are chosen. */
export interface UnitSpanOptions {
  facts: GraphFacts;
  chunks: ChunkStore;
  question: string;
  sentenceTokens: SpanFacts<ReadonlySet<string>>;
  /** Tables for units with at least `TABLE_MIN_SPANS` sentences (same choice, fewer lookups); without it every unit goes through `sentenceTokens`. */
  sentenceTables?: SentenceTables;
  /** Sentences per relation unit, and per entity unit. */
  spansPerUnit: number;
  spansPerEntity: number;
  /**
   * The question's passage relevance, its weight in a sentence's score (see `spanContextWeight`) and
   * the relevance below which an entity's sentence is not grounded (see `spanRelevanceFloor`; 0 = none).
   */
  passage?: { relevance: PassageRelevance; weight: number; entityFloor: number };
}

/** A store's chunk numbers translated to and from one passage chunk numbering (see `SentenceTables`). */
interface ChunkTranslation {
  numbering: ReadonlyMap<string, number>;
  /** Per stored chunk: its number in `numbering` (−1: none there; −2: not looked up yet). */
  toPassage: Int32Array;
  /** Per chunk number of `numbering`: its stored number (−1: none there; −2: a number the map does not give). */
  toStored?: Int32Array;
}

/** Sentence tokens that number their chunks. */
type ChunkNumberedTokens = SentenceTokens & Required<Pick<SentenceTokens, 'chunkNumber' | 'sentenceInChunk'>>;

/** A store's chunk number when it is one (an integer ≥ 0), else undefined. */
function validChunk(number: number | undefined): number | undefined {
  return number !== undefined && Number.isInteger(number) && number >= 0 ? number : undefined;
}

/** The graph's numbers for a unit's span chunks (`GraphStore.spanChunkNumbers`), when it gives them. */
function spanChunksOf(graph: GraphStore, kind: 'node' | 'edge', id: string): ((numbering: ReadonlyMap<string, number>) => Int32Array | undefined) | undefined {
  return typeof graph.spanChunkNumbers === 'function' ? (numbering) => graph.spanChunkNumbers!(kind, id, numbering) : undefined;
}

/** The same sentences in the same order: the same array (taken as unchanged), or equal chunk ids and offsets. */
function sameSpans(a: readonly TextSpan[], b: readonly TextSpan[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) {
    if (a[i].chunkId !== b[i].chunkId || a[i].start !== b[i].start || a[i].end !== b[i].end) return false;
  }
  return true;
}

/** The sentences each unit grounds to, chosen once per unit (undefined: the unit has no spans). */
export function unitSpans(options: UnitSpanOptions): (unitId: string) => TextSpan[] | undefined {
  const { facts, chunks, sentenceTokens } = options;
  const questionTokens = new Set(matchTokens(options.question));
  const chosen = new Map<string, TextSpan[] | undefined>();
  return (unitId) => {
    if (chosen.has(unitId)) return chosen.get(unitId);
    const entity = unitId.startsWith(ENTITY_PREFIX);
    const id = unitId.slice(entity ? ENTITY_PREFIX.length : RELATION_PREFIX.length);
    const all = entity ? facts.nodeSpans(id) : relationSpans(facts, id, options.sentenceTables !== undefined);
    const count = all ? spanCount(all) : 0;
    const spans =
      all && count > 0
        ? bestSpans(all, {
            question: questionTokens,
            tokensOf: (span) => sentenceTokens.of(chunks, span),
            table:
              options.sentenceTables && count >= TABLE_MIN_SPANS
                ? { tables: options.sentenceTables, chunks, key: unitId, spanChunks: spanChunksOf(facts.graph, entity ? 'node' : 'edge', id) }
                : undefined,
            limit: entity ? options.spansPerEntity : options.spansPerUnit,
            passage: options.passage,
            floor: entity ? (options.passage?.entityFloor ?? 0) : 0,
          })
        : undefined;
    chosen.set(unitId, spans);
    return spans;
  };
}

/**
 * A fetched relation's spans: the edge's own (it comes whole from `getEdges`), or the store's columns
 * for a list a sentence table will score (`tables`, `TABLE_MIN_SPANS` or more: the table is then read
 * from their sentence numbers, see `SentenceTables`).
 */
function relationSpans(facts: GraphFacts, id: string, tables: boolean): readonly TextSpan[] | SpanColumns | undefined {
  const spans = facts.edges.get(id)?.spans;
  return tables && spans && spans.length >= TABLE_MIN_SPANS ? (facts.edgeColumns(id) ?? spans) : spans;
}

/** Step 4's result. */
export interface UnitRanking {
  /** Units in evidence order (before the cap B). */
  ranked: string[];
  /** Units set aside because units ranked before them ground all their sentences. */
  redundant: string[];
  /** Every unit the selected paths offered (ranked or redundant). */
  seen: Set<string>;
  /** Unit id → ids of the selected paths containing it. */
  unitPaths: Map<string, string[]>;
}

/**
 * Step 4, evidence units (report §5.6): round-robin over the selected paths in rank order, each
 * contributing its next unit not yet taken (`unitOrder`: a path's far end is what sets it apart
 * from the paths sharing its prefix, and what a reserved path was reserved for). With `spansOf`, a
 * unit is set aside, and does not count against B, when every key of its sentences (`keysOf`: the
 * sentence itself by default, or the windows it grounds in) is already grounded by units ranked
 * before it: it is the same statement, or the same source text, seen through another entity or
 * relation.
 */
export function rankUnits(
  selectedPaths: readonly SelectedPath[],
  spansOf: ((unitId: string) => TextSpan[] | undefined) | undefined,
  keysOf: (span: TextSpan) => readonly string[] = (span) => [spanKey(span)],
): UnitRanking {
  const unitPaths = new Map<string, string[]>();
  for (const path of selectedPaths) {
    for (const unitId of unitOrder(path)) {
      const list = unitPaths.get(unitId) ?? [];
      if (!list.includes(path.id)) list.push(path.id);
      unitPaths.set(unitId, list);
    }
  }
  const ranked: string[] = [];
  const redundant: string[] = [];
  const grounded = new Set<string>();
  const seen = new Set<string>();
  const queues = selectedPaths.map((path) => unitOrder(path));
  for (let progress = true; progress; ) {
    progress = false;
    for (const queue of queues) {
      while (queue.length > 0 && seen.has(queue[0])) queue.shift();
      const next = queue.shift();
      if (next === undefined) continue;
      seen.add(next);
      progress = true;
      const keys = spansOf?.(next)?.flatMap(keysOf);
      if (keys?.every((key) => grounded.has(key))) {
        redundant.push(next);
        continue;
      }
      if (keys) for (const key of keys) grounded.add(key);
      ranked.push(next);
    }
  }
  return { ranked, redundant, seen, unitPaths };
}

/**
 * The `limit` best spans, in corpus order: a span scores the content tokens it shares with the
 * question, plus `passage.weight` times the relevance of its chunk's passage to the question when
 * given (ties: corpus order). With a `floor` > 0, a span whose passage relevance is below it is left
 * out, except the best span, which is always kept.
 */
function bestSpans(
  spans: readonly TextSpan[] | SpanColumns,
  options: {
    question: ReadonlySet<string>;
    tokensOf: (span: TextSpan) => ReadonlySet<string>;
    /** Score from the unit's sentence table instead of `tokensOf` and `passage.relevance.chunk` (the same numbers); `spanChunks` as `SentenceTables.score` takes it. */
    table?: { tables: SentenceTables; chunks: ChunkStore; key?: string; spanChunks?: (numbering: ReadonlyMap<string, number>) => Int32Array | undefined };
    limit: number;
    passage: UnitSpanOptions['passage'];
    floor: number;
  },
): TextSpan[] {
  const { question, passage, limit } = options;
  const floor = passage ? options.floor : 0;
  const count = spanCount(spans);
  if (count <= limit && floor === 0) return Array.from({ length: count }, (_, i) => spanAt(spans, i));
  if (count === 0 || limit <= 0) return [];
  // Scores by position; a hub entity has thousands of spans, of which `limit` are kept.
  const score = new Float64Array(count);
  const eligible = new Uint8Array(count);
  if (options.table) {
    const relevance = new Float64Array(count);
    options.table.tables.score(options.table.chunks, spans, question, passage, score, relevance, options.table.key, options.table.spanChunks);
    for (let i = 0; i < count; i += 1) eligible[i] = floor > 0 && relevance[i] < floor ? 0 : 1;
  } else {
    for (let i = 0; i < count; i += 1) {
      const span = isSpanArray(spans) ? spans[i] : spanAt(spans, i);
      score[i] = sharedTokens(question, options.tokensOf(span));
      const relevance = passage ? passage.relevance.chunk(span.chunkId) : 0;
      if (passage) score[i] += passage.weight * relevance;
      eligible[i] = floor > 0 && relevance < floor ? 0 : 1;
    }
  }
  // Rank order: score descending, then corpus order. The best span is kept whatever its relevance.
  const before = (a: number, b: number) => score[a] > score[b] || (score[a] === score[b] && a < b);
  let best = 0;
  for (let i = 1; i < count; i += 1) if (before(i, best)) best = i;
  return firstPositions(count, limit, before, (i) => eligible[i] === 1 || i === best)
    .sort((a, b) => a - b)
    .map((i) => spanAt(spans, i));
}

/** Whether `spans` is an array (else a store's columns). */
function isSpanArray(spans: readonly TextSpan[] | SpanColumns): spans is readonly TextSpan[] {
  return Array.isArray(spans);
}

/** How many spans there are. */
function spanCount(spans: readonly TextSpan[] | SpanColumns): number {
  return isSpanArray(spans) ? spans.length : spans.count;
}

/** Span i's chunk id. */
function chunkIdOf(spans: readonly TextSpan[] | SpanColumns, i: number): string {
  return isSpanArray(spans) ? spans[i].chunkId : spans.chunkId(i);
}

/** Span i as a new object (a copy of an array's span; the chunk id and offsets of a column's). */
function spanAt(spans: readonly TextSpan[] | SpanColumns, i: number): TextSpan {
  return isSpanArray(spans) ? { ...spans[i] } : { chunkId: spans.chunkId(i), start: spans.start(i), end: spans.end(i) };
}

/** A store's span columns as an array of spans. */
function spanArray(columns: SpanColumns): TextSpan[] {
  return Array.from({ length: columns.count }, (_, i) => spanAt(columns, i));
}

/** How many tokens two sets share (iterating the smaller). */
function sharedTokens(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const token of small) if (large.has(token)) shared += 1;
  return shared;
}
