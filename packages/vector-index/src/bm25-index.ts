import { IndexMismatchError, InputError, InvalidArgumentError } from '@mosaic/spec';
import type { HeldLexicalScores, LexicalIndex, LexicalScores, VectorHit } from '@mosaic/spec';
import { gunzipSync, gzipSync } from 'node:zlib';
import winkBm25 from 'wink-bm25-text-search';
import { type Bm25BinaryHeader, decodeBm25Binary, encodeBm25Binary } from './bm25-binary.js';
import { type Bm25PostingArrays, Bm25Postings, type DocumentBm25Scores, FREE_DOCUMENT_ARRAYS, type RawBm25Scores, type ScoreArrays } from './bm25-postings.js';
import { bestScoredPositions, bestScoredPositionsByLabel } from '@mosaic/stage-utils/internal';
import type { Bm25Parameters } from './bm25-scoring.js';
import { createDefaultBm25Tokenizer } from './bm25-tokenizer.js';
import type { Bm25Tokenizer } from './bm25-tokenizer.js';
import { checkK } from './vector-checks.js';

export interface Bm25IndexOptions {
  /** Document texts; a hit's label is the document's position here. */
  documents: readonly string[];
  /** Term-frequency saturation. Default 1.2. */
  k1?: number;
  /** Length normalisation, 0..1. Default 0.75. */
  b?: number;
  /** Default: createDefaultBm25Tokenizer() (English, Porter2 stems, stop words removed). */
  tokenizer?: Bm25Tokenizer;
}

/**
 * The persisted form of a Bm25Index as JSON (`JSON.stringify(index)` produces version 2).
 * Version 2 holds the postings as the binary layout (see `toBinary`), gzip'd and base64'd;
 * version 1 (read, no longer written) held wink-bm25's `exportJSON()` string or token lists.
 */
export type Bm25IndexJson = Bm25IndexJsonV2 | Bm25IndexJsonV1;

export interface Bm25IndexJsonV2 {
  format: 'mosaic-bm25';
  version: 2;
  /** Bm25Tokenizer.id used to build the index. */
  tokenizer: string;
  k1: number;
  b: number;
  size: number;
  /** base64 of the gzip'd binary layout (`toBinary()`). */
  binary: string;
}

export interface Bm25IndexJsonV1 {
  format: 'mosaic-bm25';
  version: 1;
  tokenizer: string;
  k1: number;
  b: number;
  size: number;
  /** wink-bm25-text-search exportJSON() output, for collections of 3 or more documents. */
  wink: string | null;
  /** Token lists, for collections smaller than wink's 3-document minimum. */
  documents: string[][] | null;
}

export interface Bm25IndexFromJsonOptions {
  /** Must have the id recorded in the JSON. Default: createDefaultBm25Tokenizer(). */
  tokenizer?: Bm25Tokenizer;
  /** Named in errors, e.g. the file the JSON came from. Default 'bm25 index JSON'. */
  source?: string;
  /**
   * Most postings a term's list is read for: a longer list keeps its highest-weighted postings (the
   * documents the term weighs most in: static index pruning) and every query reads only those, so
   * a query costs at most this many postings a term however large the collection. A document left
   * out of a term's list loses that term's weight, which for a term in so many documents is small
   * (its idf is low). The decoded arrays are rewritten in place, and the index can no longer be
   * saved (`toBinary`, `toJSON`). `matchCount` of one term still counts every document holding it.
   * Default: every posting (the index scores exactly as wink-bm25-text-search).
   */
  maxPostingsPerTerm?: number;
}

/** A binary BM25 state as `decodeBm25Binary` reads it: its header and its postings as flat arrays. */
export interface DecodedBm25Binary {
  header: Bm25BinaryHeader;
  postings: Bm25PostingArrays;
}

/** Options of `Bm25Index.fromDecoded` (those of `fromJSON`). */
export type Bm25IndexFromDecodedOptions = Bm25IndexFromJsonOptions;

export interface Bm25IndexFromBinaryOptions extends Bm25IndexFromDecodedOptions {
  /**
   * The bytes belong to the index from now on (e.g. a buffer just read from a file): its postings are
   * views of them, decoded in place, not copies. Do not use or change them afterwards. Default false.
   */
  owned?: boolean;
}

/**
 * The `maxPostingsPerTerm` loaders of this project's indexes use by default (loadIndex of
 * @mosaic/indexing, loadSurrealIndex). Above the longest list of every GraphRAG-Bench corpus (the
 * 12,310 relation texts of Medical that hold "related"), so the benchmark scores exactly as without a
 * cap; at 100 MB of documentation that term is in 1.46 million of 1.75 million relation texts.
 * What it does to larger corpora is measured in docs/results/issue-31.md (session 18).
 */
export const DEFAULT_MAX_POSTINGS_PER_TERM = 16_384;

/**
 * A loader's `maxPostingsPerTerm` option (an integer ≥ 1, `false` for every posting, undefined for
 * DEFAULT_MAX_POSTINGS_PER_TERM) as `fromDecoded` / `fromJSON` take it; InvalidArgumentError for
 * anything else, so a loader can refuse it before reading a file.
 */
export function resolveMaxPostingsPerTerm(option: number | false | undefined): number | undefined {
  if (option === false) return undefined;
  if (option === undefined) return DEFAULT_MAX_POSTINGS_PER_TERM;
  if (!(Number.isInteger(option) && option >= 1)) {
    throw new InvalidArgumentError({ argument: 'maxPostingsPerTerm', message: `must be an integer ≥ 1 or false, got ${String(option)}` });
  }
  return option;
}

/** Queries whose scores a Bm25Index keeps (the scores are never mutated once computed). */
const RECENT_QUERIES = 8;

/** Most bytes of free score arrays `Bm25Index.prepare` makes (labels and scores, 12 bytes an entry). */
const PREPARED_POOL_BYTES = 32 * 1024 * 1024;

/**
 * Largest k `search` answers from a pruned top k (`Bm25Postings.topCandidates`); a larger one (a
 * search over the whole index) scores every document, which then costs less than pruning.
 */
export const PRUNED_SEARCH_MAX_K = 1000;

/**
 * Recent queries whose raw scores an index keeps by document (`Bm25Postings.scoreByDocument`): arrays
 * as large as the collection each (21 MB for 1.75 million relation texts), so fewer than the recent
 * queries, and as many as the postings keep free. A question's whole scoring is read by its stages
 * one after another, then not again.
 */
const RECENT_BY_DOCUMENT = FREE_DOCUMENT_ARRAYS;

/** Normalised scores as arrays: views of the first `count` entries of pooled arrays. */
type ScoreList = LexicalScores & { labels: Int32Array; scores: Float64Array };

/** One recent query's scores. */
interface RecentScores {
  /** Its raw scores by document, for postings that keep them (until the entry is released). */
  byDocument: DocumentBm25Scores | undefined;
  /** Its normalised scores as arrays: scored so without `byDocument`, else made from it when first read as arrays. */
  scores: ScoreList | undefined;
  /** The pooled arrays behind `scores`. */
  arrays: ScoreArrays | undefined;
  /** Readers now: `withScores` / `search` calls, and `holdScores` not yet released. */
  lent: number;
  /** `scores` given away by `scoreAll`: its arrays never go back to the pool. */
  kept: boolean;
  /** No longer among the recent queries. */
  evicted: boolean;
  /** What it held is back with the pool and the postings (once). */
  released: boolean;
}

/**
 * Score arrays kept for reuse, by capacity (powers of two): as many as the recent queries hold and
 * one more (the query being scored takes a pair before the oldest gives one back), so
 * that a steady flow of queries reuses the same buffers instead of leaving megabytes to the garbage
 * collector, and at most `maxBytes` of them.
 */
class ScoreArrayPool {
  readonly #free = new Map<number, ScoreArrays[]>();
  #bytes = 0;

  get bytes(): number {
    return this.#bytes;
  }

  constructor(
    private readonly keep = RECENT_QUERIES + 1,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  /** Arrays of at least `count` entries: free ones of up to eight times the capacity needed, else new ones. */
  take(count: number): ScoreArrays {
    const capacity = capacityOf(count);
    for (let larger = capacity; larger <= capacity * 8; larger *= 2) {
      const free = this.#free.get(larger)?.pop();
      if (free) {
        this.#bytes -= bytesOf(free);
        return free;
      }
    }
    return newScoreArrays(capacity);
  }

  /**
   * `count` free arrays of `capacity` entries (a power of two, at least 256), written once so that their
   * pages are present: what the first queries would otherwise each make anew (see `Bm25Index.prepare`).
   * Arrays already free count towards `count`; none past `keep` or `maxBytes`.
   */
  prime(capacity: number, count: number): void {
    const free = this.#free.get(capacity) ?? [];
    this.#free.set(capacity, free);
    while (free.length < Math.min(count, this.keep)) {
      const arrays = newScoreArrays(capacity);
      if (this.#bytes + bytesOf(arrays) > this.maxBytes) return;
      arrays.labels.fill(0);
      arrays.scores.fill(0);
      free.push(arrays);
      this.#bytes += bytesOf(arrays);
    }
  }

  putBack(arrays: ScoreArrays): void {
    const capacity = arrays.labels.length;
    const free = this.#free.get(capacity) ?? [];
    if (free.length >= this.keep || this.#bytes + bytesOf(arrays) > this.maxBytes) return;
    free.push(arrays);
    this.#bytes += bytesOf(arrays);
    this.#free.set(capacity, free);
  }
}

function newScoreArrays(capacity: number): ScoreArrays {
  return { labels: new Int32Array(capacity), scores: new Float64Array(capacity) };
}

function bytesOf(arrays: ScoreArrays): number {
  return arrays.labels.byteLength + arrays.scores.byteLength;
}

/** The pooled capacity for `count` entries: the next power of two, at least 256. */
function capacityOf(count: number): number {
  let capacity = 256;
  while (capacity < count) capacity *= 2;
  return capacity;
}

/**
 * BM25 over a fixed collection. Built with wink-bm25-text-search (3+ documents) or the same
 * formula in TypeScript (fewer), then held as flat postings (Bm25Postings), which score exactly
 * as wink's search does. Scores are normalised per query: each hit's BM25 score divided by the
 * best hit's, so the best hit scores 1 and only documents sharing a term with the query are
 * returned. Persisted as a compact binary layout (`toBinary` / `fromBinary`) or JSON.
 */
export class Bm25Index implements LexicalIndex {
  readonly size: number;
  readonly tokenizer: Bm25Tokenizer;
  readonly parameters: Readonly<Bm25Parameters>;
  readonly #postings: Bm25Postings;
  readonly #recent = new Map<string, RecentScores>();
  readonly #pool = new ScoreArrayPool();

  private constructor(options: { size: number; tokenizer: Bm25Tokenizer; parameters: Bm25Parameters; postings: Bm25Postings }) {
    this.size = options.size;
    this.tokenizer = options.tokenizer;
    this.parameters = options.parameters;
    this.#postings = options.postings;
  }

  /** @internal Use createBm25Index / Bm25Index.fromJSON / Bm25Index.fromBinary. */
  static build(options: Bm25IndexOptions): Bm25Index {
    if (!Array.isArray(options.documents) || options.documents.some((document) => typeof document !== 'string')) {
      throw new InvalidArgumentError({ argument: 'documents', message: 'must be an array of strings' });
    }
    const parameters = checkParameters(options.k1 ?? 1.2, options.b ?? 0.75);
    const tokenizer = options.tokenizer ?? createDefaultBm25Tokenizer();
    // wink-bm25-text-search's weights, computed without its per-document objects (Bm25Postings.build),
    // for any number of documents (wink itself refuses fewer than 3).
    const postings = Bm25Postings.build(options.documents, (text) => tokenizer.tokenize(text), parameters);
    return new Bm25Index({ size: options.documents.length, tokenizer, parameters, postings });
  }

  /** Rebuild from `toJSON()` output (object or string; versions 1 and 2) without re-tokenising the documents. */
  static fromJSON(json: Bm25IndexJson | string, options: Bm25IndexFromJsonOptions = {}): Bm25Index {
    const source = options.source ?? 'bm25 index JSON';
    const value = parseJson(json, source);
    const tokenizer = options.tokenizer ?? createDefaultBm25Tokenizer();
    if (value.tokenizer !== tokenizer.id) {
      throw new IndexMismatchError({ path: source, field: 'tokenizer', expected: tokenizer.id, actual: value.tokenizer });
    }
    if (value.version === 2) {
      let bytes: Buffer;
      try {
        bytes = gunzipSync(Buffer.from(value.binary, 'base64'));
      } catch (cause) {
        throw new InputError({ source, message: 'the binary BM25 state is not valid gzip', cause });
      }
      const index = Bm25Index.fromBinary(bytes, { tokenizer, source, maxPostingsPerTerm: options.maxPostingsPerTerm });
      if (index.size !== value.size || index.parameters.k1 !== value.k1 || index.parameters.b !== value.b) {
        throw new InputError({ source, message: 'size, k1 or b differ from the binary state' });
      }
      return index;
    }
    const legacy = Bm25Index.#fromVersion1(value, tokenizer, source);
    // A version 1 state is rebuilt whole; cut through the binary layout when asked to.
    if (options.maxPostingsPerTerm === undefined) return legacy;
    return Bm25Index.fromBinary(Buffer.concat(legacy.toBinary()), { tokenizer, source, maxPostingsPerTerm: options.maxPostingsPerTerm });
  }

  static #fromVersion1(value: Bm25IndexJsonV1, tokenizer: Bm25Tokenizer, source: string): Bm25Index {
    const parameters = { k1: value.k1, b: value.b };
    if (value.documents)
      return new Bm25Index({ size: value.size, tokenizer, parameters, postings: Bm25Postings.build(value.documents, (tokens) => tokens, parameters) });
    const engine = winkBm25();
    try {
      engine.importJSON(value.wink as string);
    } catch (error) {
      throw new InputError({ source, message: `wink-bm25 state is invalid: ${(error as Error).message}`, cause: error });
    }
    if (engine.getTotalDocs() !== value.size) {
      throw new InputError({ source, message: `size ${value.size} does not match the ${engine.getTotalDocs()} documents stored` });
    }
    const postings = Bm25Postings.fromWink(engine, value.size);
    if (!postings) throw new InputError({ source, message: 'wink-bm25 state has an unexpected shape' });
    return new Bm25Index({ size: value.size, tokenizer, parameters, postings });
  }

  /**
   * Rebuild from `toBinary()` bytes (concatenated), without wink: the postings are read straight
   * into typed arrays (views of `bytes` with `owned`). InputError when malformed, IndexMismatchError
   * for another tokenizer.
   */
  static fromBinary(bytes: Uint8Array, options: Bm25IndexFromBinaryOptions = {}): Bm25Index {
    const source = options.source ?? 'binary bm25 index';
    return Bm25Index.fromDecoded(decodeBm25Binary(bytes, source, { owned: options.owned }), { ...options, source });
  }

  /**
   * `fromBinary` in two steps: `decodeBm25Binary` (e.g. in a worker thread, its arrays then
   * transferred), then this, which checks the postings and the tokenizer and keeps the arrays as
   * they are. InputError when they disagree, IndexMismatchError for another tokenizer.
   */
  static fromDecoded(decoded: DecodedBm25Binary, options: Bm25IndexFromDecodedOptions = {}): Bm25Index {
    const source = options.source ?? 'binary bm25 index';
    const tokenizer = options.tokenizer ?? createDefaultBm25Tokenizer();
    const { header, postings } = decoded;
    // Checked here (an InvalidArgumentError, not the InputError of a bad state); undefined: every posting.
    const maxPostingsPerTerm = options.maxPostingsPerTerm === undefined ? undefined : resolveMaxPostingsPerTerm(options.maxPostingsPerTerm);
    if (header.tokenizer !== tokenizer.id) {
      throw new IndexMismatchError({ path: source, field: 'tokenizer', expected: tokenizer.id, actual: header.tokenizer });
    }
    let parameters: Bm25Parameters;
    let table: Bm25Postings;
    try {
      parameters = checkParameters(header.k1, header.b);
      table = Bm25Postings.fromArrays(postings, header.size, { maxPostingsPerTerm });
    } catch (cause) {
      throw new InputError({ source, message: `binary BM25 state: ${(cause as Error).message}`, cause });
    }
    return new Bm25Index({ size: header.size, tokenizer, parameters, postings: table });
  }

  /**
   * The compact binary layout (see encodeBm25Binary in bm25-binary.ts) as byte ranges to write in
   * order (views of the postings, not copies); `Buffer.concat` them for one buffer. Weights are
   * stored losslessly: scores after `fromBinary` are identical to the last bit.
   */
  toBinary(): Uint8Array[] {
    if (this.#postings.cutLists.lists > 0) {
      throw new InvalidArgumentError({
        argument: 'maxPostingsPerTerm',
        message: `this index was loaded reading at most ${this.#postings.maxPostingsPerTerm} postings a term, and its longer lists no longer hold the rest: load it without maxPostingsPerTerm to save it`,
      });
    }
    return encodeBm25Binary({ tokenizer: this.tokenizer.id, k1: this.parameters.k1, b: this.parameters.b, size: this.size, postings: this.#postings.arrays() });
  }

  /**
   * Top-k documents for `query`, best first (ties: lower label first), scores in (0, 1]. A query
   * scored in full lately (see `withScores`) is read from its scores; another, for k up to
   * PRUNED_SEARCH_MAX_K, from the few documents that can be among the k best
   * (`Bm25Postings.topCandidates`): the same hits, without scoring every document that shares a word
   * with the query. Such a query is not kept.
   */
  search(query: string, k: number): VectorHit[] {
    if (typeof query !== 'string') throw new InvalidArgumentError({ argument: 'query', message: 'must be a string' });
    checkK(k);
    if (k === 0 || this.size === 0) return [];
    if (k <= PRUNED_SEARCH_MAX_K && !this.#recent.has(query)) {
      const candidates = this.#postings.topCandidates(this.tokenizer.tokenize(query), k);
      if (candidates) return topHits(normalised(candidates), k);
    }
    const entry = this.#entry(query);
    if (entry.byDocument && !entry.scores) return topHitsByDocument(entry.byDocument, k);
    return this.#lend(query, (scores) => topHits(scores, k));
  }

  /**
   * Every document sharing a term with `query`, unsorted, scores divided by the best (see LexicalIndex).
   * The arrays are the caller's to keep (never changed afterwards); `withScores` lends them instead.
   */
  scoreAll(query: string): LexicalScores {
    if (typeof query !== 'string') throw new InvalidArgumentError({ argument: 'query', message: 'must be a string' });
    if (this.size === 0) return { count: 0, labels: new Int32Array(0), scores: new Float64Array(0) };
    const entry = this.#entry(query);
    const scores = this.#listOf(entry);
    // Given away: the arrays are no longer reused once the query leaves the recent ones.
    entry.kept = true;
    return scores;
  }

  /**
   * `scoreAll`'s scores lent to `read` for the length of the call: the arrays are the index's, reused
   * for later queries, so `read` copies what it needs and keeps no reference. A caller that copies the
   * scores out anyway (most stages do) then costs no arrays per query: a common word's scores are
   * megabytes at 100 MB of text, and such short-lived buffers make V8 collect the whole heap often.
   */
  withScores<T>(query: string, read: (scores: LexicalScores) => T): T {
    if (typeof query !== 'string') throw new InvalidArgumentError({ argument: 'query', message: 'must be a string' });
    if (typeof read !== 'function') throw new InvalidArgumentError({ argument: 'read', message: 'must be a function' });
    if (this.size === 0) return read({ count: 0, labels: new Int32Array(0), scores: new Float64Array(0) });
    return this.#lend(query, read);
  }

  /**
   * How many documents `scoreAll(query)` gives (`count`). A query of one distinct term is counted from
   * its postings, without scoring them or keeping anything (the support judgement asks this of each
   * question word); others are scored as `withScores` does.
   */
  matchCount(query: string): number {
    if (typeof query !== 'string') throw new InvalidArgumentError({ argument: 'query', message: 'must be a string' });
    if (this.size === 0) return 0;
    if (!this.#recent.has(query)) {
      const terms = new Set(this.tokenizer.tokenize(query));
      if (terms.size === 0) return 0;
      if (terms.size === 1) return this.#postings.positiveCount(terms.values().next().value as string);
    }
    const entry = this.#entry(query);
    // Scored by document, every document listed scores above 0 (no weight is below 0): all are counted.
    if (entry.byDocument && !entry.scores) return entry.byDocument.best > 0 ? entry.byDocument.count : 0;
    return this.#lend(query, (scores) => scores.count);
  }

  /**
   * `scoreAll(query)`'s scores held for the caller, read one document at a time (`scoreOf(label)`)
   * where the scoring added them: no list of every score is made (at 100 MB of text a question's
   * words score 100,000 relation texts or more, of which the traversal reads a few thousand). The
   * scores stay the caller's until `release()`, which it must call: a held query's arrays are not
   * reused before. Undefined for postings that cannot keep scores by document (a weight below 0,
   * which no index built here has): use `withScores`.
   */
  holdScores(query: string): HeldLexicalScores | undefined {
    if (typeof query !== 'string') throw new InvalidArgumentError({ argument: 'query', message: 'must be a string' });
    if (this.size === 0) return new HeldDocumentScores(undefined, () => undefined);
    const entry = this.#entry(query);
    if (!entry.byDocument) return undefined;
    entry.lent += 1;
    return new HeldDocumentScores(entry.byDocument, () => {
      entry.lent -= 1;
      if (entry.evicted) this.#release(entry);
    });
  }

  /**
   * `scoreAll(query)`'s score of one document at a time (0 for one it leaves out), without scoring
   * the others: the best score from `Bm25Postings.bestScore` (a pruned top 1, or for one word its
   * largest weight), each document asked scored by looking its terms up (`Bm25Postings.scoreOf`),
   * the same additions as a whole scoring. Undefined when the postings cannot be pruned (use
   * `withScores`).
   */
  scorer(query: string): ((label: number) => number) | undefined {
    if (typeof query !== 'string') throw new InvalidArgumentError({ argument: 'query', message: 'must be a string' });
    if (this.size === 0) return () => 0;
    const tokens = this.tokenizer.tokenize(query);
    const best = this.#postings.bestScore(tokens);
    if (best === undefined) return undefined;
    if (!(best > 0)) return () => 0;
    const terms = this.#postings.termsOf(tokens);
    return (label) => {
      if (!(Number.isInteger(label) && label >= 0 && label < this.size)) return 0;
      const raw = this.#postings.scoreOf(terms, label);
      return raw > 0 ? raw / best : 0;
    };
  }

  /**
   * Make and write now the arrays that scoring works in (`Bm25Postings.prepare`), instead of during the
   * first questions: call it once after loading an index that will answer questions. The scores do
   * not change. Returns the bytes those arrays hold.
   */
  prepare(): number {
    const scratch = this.#postings.prepare();
    // Free arrays for every recent query and one more, of the capacity of the whole collection, or less
    // when they would hold more than PREPARED_POOL_BYTES: at 100 MB of text, 262,144 entries, where a
    // question's words match tens of thousands of relation texts. `take` reuses an array of up to
    // eight times the capacity asked, so these serve every query of an eighth of them or more; a query
    // of fewer documents takes small arrays (few pages).
    const pairs = RECENT_QUERIES + 1;
    let capacity = capacityOf(this.size);
    while (capacity > 256 && pairs * capacity * 12 > PREPARED_POOL_BYTES) capacity /= 2;
    this.#pool.prime(capacity, pairs);
    return scratch + this.#pool.bytes;
  }

  #lend<T>(query: string, read: (scores: LexicalScores) => T): T {
    const entry = this.#entry(query);
    const scores = this.#listOf(entry);
    entry.lent += 1;
    try {
      return read(scores);
    } finally {
      entry.lent -= 1;
      if (entry.evicted) this.#release(entry);
    }
  }

  /**
   * A query's scores: every document sharing a term, in the order the postings met them, each raw
   * score divided by the best (those not above 0 left out). The last few queries are kept, because
   * one question is scored by several stages (seed selection, traversal, reranking) against the same
   * index. Kept by document (`Bm25Postings.scoreByDocument`) when the postings can, the last
   * RECENT_BY_DOCUMENT of those only (the oldest leaves first, before the new one is scored, so that
   * its arrays serve it); else as arrays from, and back to, the index's pool.
   */
  #entry(query: string): RecentScores {
    const known = this.#recent.get(query);
    if (known) return known;
    const tokens = this.tokenizer.tokenize(query);
    const byDocument = [...this.#recent].filter(([, entry]) => entry.byDocument);
    if (byDocument.length >= RECENT_BY_DOCUMENT) this.#evict(...byDocument[0]);
    if (this.#recent.size >= RECENT_QUERIES) {
      const [oldest, entry] = this.#recent.entries().next().value as [string, RecentScores];
      this.#evict(oldest, entry);
    }
    const entry: RecentScores = { byDocument: undefined, scores: undefined, arrays: undefined, lent: 0, kept: false, evicted: false, released: false };
    entry.byDocument = this.#postings.scoreByDocument(tokens);
    if (!entry.byDocument) {
      const raw = this.#postings.score(tokens, (count) => this.#pool.take(count));
      entry.arrays = { labels: raw.labels, scores: raw.scores };
      entry.scores = normalised(raw);
    }
    this.#recent.set(query, entry);
    return entry;
  }

  /**
   * An entry's normalised scores as arrays: made from its scores by document the first time they are
   * asked for (the same documents in the same order, each raw score divided by the best, as
   * `normalised` gives them), in arrays from the pool.
   */
  #listOf(entry: RecentScores): ScoreList {
    if (entry.scores) return entry.scores;
    const byDocument = entry.byDocument as DocumentBm25Scores;
    const { raw, best } = byDocument;
    const arrays = this.#pool.take(byDocument.count);
    let count = 0;
    if (best > 0) {
      for (let i = 0; i < byDocument.count; i += 1) {
        const label = byDocument.labels[i];
        const score = raw[label];
        if (!(score > 0)) continue;
        arrays.labels[count] = label;
        arrays.scores[count] = score / best;
        count += 1;
      }
    }
    entry.arrays = arrays;
    entry.scores = { count, labels: arrays.labels.subarray(0, count), scores: arrays.scores.subarray(0, count) };
    return entry.scores;
  }

  /** Takes a query out of the recent ones, its arrays handed back once nothing reads them. */
  #evict(query: string, entry: RecentScores): void {
    this.#recent.delete(query);
    entry.evicted = true;
    this.#release(entry);
  }

  /**
   * An evicted query's scores back to the postings and its arrays to the pool once nothing reads them
   * (no `withScores` running, no `holdScores` unreleased); arrays `scoreAll` gave away stay with their
   * caller.
   */
  #release(entry: RecentScores): void {
    if (entry.lent > 0 || entry.released) return;
    entry.released = true;
    if (entry.byDocument) this.#postings.release(entry.byDocument);
    if (entry.arrays && !entry.kept) this.#pool.putBack(entry.arrays);
  }

  /** Lists cut by `maxPostingsPerTerm` when loaded (none otherwise), and the postings they dropped. */
  get cutLists(): { maxPostingsPerTerm: number | undefined; lists: number; postings: number } {
    return { maxPostingsPerTerm: this.#postings.maxPostingsPerTerm, ...this.#postings.cutLists };
  }

  /** Version 2 JSON (the binary layout gzip'd and base64'd), for stores that keep JSON. */
  toJSON(): Bm25IndexJsonV2 {
    return {
      format: 'mosaic-bm25',
      version: 2,
      tokenizer: this.tokenizer.id,
      k1: this.parameters.k1,
      b: this.parameters.b,
      size: this.size,
      binary: gzipSync(Buffer.concat(this.toBinary()), { level: 3 }).toString('base64'),
    };
  }
}

/** Build a BM25 index over `documents`. */
export function createBm25Index(options: Bm25IndexOptions): Bm25Index {
  return Bm25Index.build(options);
}

/**
 * Raw scores divided by the best, in place: those not above 0 left out (none when the best is not
 * above 0); views of the same arrays.
 */
function normalised(raw: RawBm25Scores): LexicalScores & { labels: Int32Array; scores: Float64Array } {
  const { labels, scores } = raw;
  let best = 0;
  for (let i = 0; i < raw.count; i += 1) best = Math.max(best, scores[i]);
  let count = 0;
  if (best > 0) {
    for (let i = 0; i < raw.count; i += 1) {
      if (!(scores[i] > 0)) continue;
      labels[count] = labels[i];
      scores[count] = scores[i] / best;
      count += 1;
    }
  }
  return { count, labels: labels.subarray(0, count), scores: scores.subarray(0, count) };
}

/**
 * A query's scores held by document for a `holdScores` caller: `scoreOf(label)` is the raw score at
 * the label divided by the best, as the normalised list holds it (undefined for a document not
 * scored). After `release`, nothing is read from the arrays (the postings reuse them).
 */
class HeldDocumentScores implements HeldLexicalScores {
  readonly count: number;
  readonly labels: Int32Array;
  #raw: Float64Array;
  readonly #best: number;
  #release: (() => void) | undefined;

  constructor(scores: DocumentBm25Scores | undefined, release: () => void) {
    // A query that scored nothing (best 0) reads as no document.
    const scored = scores && scores.best > 0 ? scores : undefined;
    this.count = scored?.count ?? 0;
    this.labels = scored ? scored.labels.subarray(0, scored.count) : new Int32Array(0);
    this.#raw = scored?.raw ?? NO_SCORES;
    this.#best = scored?.best ?? 0;
    this.#release = release;
  }

  scoreOf(label: number): number | undefined {
    const raw = this.#raw[label];
    return raw > 0 ? raw / this.#best : undefined;
  }

  release(): void {
    const release = this.#release;
    if (!release) return;
    this.#release = undefined;
    this.#raw = NO_SCORES;
    release();
  }
}

const NO_SCORES = new Float64Array(0);

/**
 * `topHits` of a query's scores by document: the same hits in the same order (each raw score divided
 * by the best, compareHits' order), read where the scoring added them.
 */
function topHitsByDocument(scores: DocumentBm25Scores, k: number): VectorHit[] {
  const { raw, best, labels } = scores;
  if (!(best > 0)) return [];
  return bestScoredPositionsByLabel(scores.count, labels, raw, best, k).map((i) => ({ label: labels[i], score: raw[labels[i]] / best }));
}

/**
 * The k best of normalised scores, ordered by compareHits (score descending, then label ascending);
 * only the k kept hits become objects (a question's terms can match thousands of documents).
 */
function topHits(all: LexicalScores, k: number): VectorHit[] {
  const { scores, labels } = all;
  // compareHits' order: score descending, then label ascending.
  return bestScoredPositions(all.count, labels, scores, k).map((i) => ({ label: labels[i], score: scores[i] }));
}

function checkParameters(k1: unknown, b: unknown): Bm25Parameters {
  if (typeof k1 !== 'number' || !Number.isFinite(k1) || k1 < 0) {
    throw new InvalidArgumentError({ argument: 'k1', message: `must be a finite number >= 0, got ${String(k1)}` });
  }
  if (typeof b !== 'number' || !(b >= 0 && b <= 1)) {
    throw new InvalidArgumentError({ argument: 'b', message: `must be between 0 and 1, got ${String(b)}` });
  }
  return { k1, b };
}

function parseJson(json: Bm25IndexJson | string, source: string): Bm25IndexJson {
  let value: unknown;
  try {
    value = typeof json === 'string' ? JSON.parse(json) : json;
  } catch (error) {
    throw new InputError({ source, message: 'is not valid JSON', cause: error });
  }
  const record = value as (Partial<Bm25IndexJsonV1> & Partial<Omit<Bm25IndexJsonV2, 'version'>>) | null;
  if (!record || typeof record !== 'object' || record.format !== 'mosaic-bm25') {
    throw new InputError({ source, message: "is not a Bm25Index (format 'mosaic-bm25')" });
  }
  const version = (record as { version?: unknown }).version;
  if (version !== 1 && version !== 2) {
    throw new IndexMismatchError({ path: source, field: 'version', expected: '1 or 2', actual: version });
  }
  const common =
    typeof record.tokenizer === 'string' &&
    Number.isInteger(record.size) &&
    (record.size as number) >= 0 &&
    typeof record.k1 === 'number' &&
    typeof record.b === 'number';
  const wellFormed =
    common &&
    (version === 2
      ? typeof record.binary === 'string'
      : typeof record.wink === 'string'
        ? record.documents === null
        : record.wink === null &&
          Array.isArray(record.documents) &&
          record.documents.length === record.size &&
          record.documents.every((tokens) => Array.isArray(tokens) && tokens.every((token) => typeof token === 'string')));
  if (!wellFormed) throw new InputError({ source, message: 'has missing or malformed fields' });
  checkParameters(record.k1, record.b);
  return record as Bm25IndexJson;
}
