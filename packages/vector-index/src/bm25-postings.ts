/**
 * Relative slack of the pruning in `Bm25Postings.topCandidates`: bounds are compared with this much
 * room, far more than the rounding of a sum of a few weights, so no document that can reach the k-th
 * score (or tie it once scores are divided by the best) is ever left out.
 */
const PRUNING_SLACK = 1e-9;

/**
 * The floor of a top k that holds fewer than k documents: every one is kept. A module constant, not
 * `Number.NEGATIVE_INFINITY` or `-Infinity` written in place: a property read or an operation that no
 * query had reached yet threw away the compiled code of the function around it the first time one did
 * (a query of a few rare words, at 100 MB a question in the middle of a batch).
 */
const NO_FLOOR = Number.NEGATIVE_INFINITY;

/** Entries of `topCandidates`' merge arrays when first made (and by `prepare`): a question's lists at 100 MB of text hold tens of thousands of documents. */
const MERGE_ARRAYS_LENGTH = 1 << 16;

/**
 * What a pass over the postings finds (`Bm25Postings.#pruning`): `topCandidates` can prune them when every
 * list's labels ascend and no weight is below 0 (or NaN), `score` reads each posting's document once when
 * no weight is; each token's largest weight is the most its list can add to a document.
 */
interface PruningTables {
  ascending: boolean;
  nonNegative: boolean;
  maxWeights: Float64Array;
}

/** Candidates of a pruned top-k (`Bm25Postings.topCandidates`), with how much of the postings it read. */
export interface Bm25Candidates extends RawBm25Scores {
  /** Postings of the lists read in full (every document they hold scored); the other lists are only read for the documents already seen. */
  postingsRead: number;
  /** Postings of the query's lists (each distinct token once). */
  postingsListed: number;
}

/** How `Bm25Postings.fromArrays` holds the postings. */
export interface Bm25PostingsOptions {
  /**
   * Most postings a token's list is read for (an integer ≥ 1): a longer list keeps its
   * `maxPostingsPerTerm` largest weights (ties: lower labels first), in label order, and every
   * scoring reads only those; the rest of the list is overwritten (the arrays must be the
   * postings' own). Default: every posting.
   */
  maxPostingsPerTerm?: number;
}

/** Arrays a scoring writes labels and scores to (at least as long as the scores written). */
export interface ScoreArrays {
  labels: Int32Array;
  scores: Float64Array;
}

/** Raw BM25 scores of one query: the first `count` entries of the arrays, matched documents' labels and scores. */
export interface RawBm25Scores extends ScoreArrays {
  count: number;
}

/**
 * Raw BM25 scores of one query kept by document (`Bm25Postings.scoreByDocument`): `raw[d]` is document
 * d's score, 0 for a document the query does not score; `labels` lists the scored documents in the
 * order `score` gives them. Valid until handed back with `Bm25Postings.release`.
 */
export interface DocumentBm25Scores {
  /** Per document of the collection, its raw score (0: not scored). */
  readonly raw: Float64Array;
  /** The scored documents (the first `count` entries), in the order the postings met them. */
  readonly labels: Int32Array;
  readonly count: number;
  /** The largest raw score (0 when no document is scored). */
  readonly best: number;
}

/** The arrays of one `DocumentBm25Scores`, handed back once (`released`). */
interface DocumentScoreArrays {
  raw: Float64Array;
  labels: Int32Array;
}

/**
 * Free `DocumentScoreArrays` a `Bm25Postings` keeps for the next queries (each as large as the
 * collection), and makes in `prepare`; a Bm25Index keeps as many recent queries scored by document.
 */
export const FREE_DOCUMENT_ARRAYS = 2;

/** The part of a consolidated wink-bm25-text-search engine the postings are read from. */
export interface WinkBm25State {
  getDocs(): Record<string, { freq: Record<string, number> }>;
  getTokens(): Record<string, number>;
}

/**
 * Postings as flat arrays: token `t` (the t-th of `tokens`) is in the documents
 * `labels[offsets[t] .. offsets[t + 1])` with the weights at the same positions.
 */
export interface Bm25PostingArrays {
  tokens: readonly string[];
  /** `tokens.length + 1` ascending offsets, the first 0, the last `labels.length`. */
  offsets: Int32Array;
  labels: Int32Array;
  /** BM25 term weights as wink computes them (`(…).toFixed(4)` read back as numbers). */
  weights: Float64Array;
}

/**
 * The postings of a consolidated wink-bm25-text-search engine (its per-document term weights),
 * scored the way wink's `search` scores them — for each query token in order, every document
 * containing it adds the token's weight — but into a reusable array instead of an object that
 * wink then turns into a table and sorts in full on every query. Stored flat (one labels array,
 * one weights array, per-token offsets), so that they are written and read as typed arrays.
 */
export class Bm25Postings {
  readonly size: number;
  readonly #tokens: readonly string[];
  readonly #tokenIndex: Map<string, number>;
  readonly #offsets: Int32Array;
  /** Where each token's list ends for scoring: `offsets[t + 1]`, or sooner for a list cut to its highest weights. */
  #ends: Int32Array;
  /** Per token whose list was cut: the documents the whole list gave a weight above 0 (`positiveCount`). */
  #cut: Map<number, number> | undefined;
  #maxPostingsPerTerm: number | undefined;
  readonly #labels: Int32Array;
  readonly #weights: Float64Array;
  #scratch: { scores: Float64Array; marked: Uint8Array; touched: Int32Array } | undefined;
  /** What pruning needs (see `#pruning`): found at load by `fromArrays`, else on the first pruned query. */
  #pruningTables: PruningTables | undefined;
  /** `topCandidates`' own arrays: the candidates it gives. */
  #candidates: LabelScoreArrays | undefined;
  /** `topCandidates`' partial scores, copied for the k-th largest. */
  #select: Float64Array | undefined;
  /** `topCandidates`' two arrays of the documents met and their partial scores (see `#mergeArrays`). */
  readonly #merge: (LabelScoreArrays | undefined)[] = [undefined, undefined];
  /** Arrays of `scoreByDocument`, handed back by `release` (all zero), at most FREE_DOCUMENT_ARRAYS. */
  readonly #freeDocumentArrays: DocumentScoreArrays[] = [];
  /** The arrays of each `scoreByDocument` result not yet released. */
  readonly #lentDocumentArrays = new WeakMap<DocumentBm25Scores, DocumentScoreArrays>();

  private constructor(arrays: Bm25PostingArrays, size: number, tokenIndex?: Map<string, number>) {
    this.size = size;
    this.#tokens = arrays.tokens;
    this.#offsets = arrays.offsets;
    this.#ends = arrays.offsets.subarray(1);
    this.#labels = arrays.labels;
    this.#weights = arrays.weights;
    this.#tokenIndex = tokenIndex ?? new Map(arrays.tokens.map((token, index) => [token, index]));
  }

  /**
   * The postings wink-bm25-text-search computes for `documents` (labelled 0 … n − 1; one field of
   * weight 1, k = 1, weights rounded to 4 decimals by its `consolidate(4)`), weight for weight, built
   * straight into flat arrays. wink keeps an object per document with a key per token until it is
   * consolidated: several times these arrays for a large collection (1.75 million relation texts of
   * 100 MB of documentation took gigabytes there). `tokenize` gives a document's tokens (documents
   * already tokenised pass `(tokens) => tokens`); any number of documents, none included.
   */
  static build<D>(documents: readonly D[], tokenize: (document: D) => readonly string[], parameters: { k1: number; b: number }): Bm25Postings {
    const size = documents.length;
    const { k1, b } = parameters;
    const tokenIndex = new Map<string, number>();
    const tokens: string[] = [];
    // Per token: documents holding it, the last document that did, where its count in that document is.
    let documentFrequency = new Int32Array(1024);
    let lastDocument = new Int32Array(1024);
    let countAt = new Int32Array(1024);
    // Per document, its distinct tokens and their counts, documents one after another.
    let postingTokens = new Int32Array(1 << 16);
    let postingCounts = new Int32Array(1 << 16);
    let used = 0;
    const starts = new Int32Array(size + 1);
    const lengths = new Float64Array(size);
    let totalLength = 0;
    const grown = (array: Int32Array, length: number) => {
      const bigger = new Int32Array(Math.max(length, array.length * 2));
      bigger.set(array);
      return bigger;
    };
    for (let document = 0; document < size; document++) {
      starts[document] = used;
      const list = tokenize(documents[document]);
      lengths[document] = list.length;
      totalLength += list.length;
      for (const token of list) {
        let t = tokenIndex.get(token);
        if (t === undefined) {
          t = tokens.length;
          tokenIndex.set(token, t);
          tokens.push(token);
          if (t >= lastDocument.length) {
            documentFrequency = grown(documentFrequency, t + 1);
            lastDocument = grown(lastDocument, t + 1);
            countAt = grown(countAt, t + 1);
          }
          lastDocument[t] = -1;
        }
        if (lastDocument[t] === document) {
          postingCounts[countAt[t]] += 1;
          continue;
        }
        if (used === postingTokens.length) {
          postingTokens = grown(postingTokens, used + 1);
          postingCounts = grown(postingCounts, used + 1);
        }
        lastDocument[t] = document;
        countAt[t] = used;
        postingTokens[used] = t;
        postingCounts[used] = 1;
        used += 1;
        documentFrequency[t] += 1;
      }
    }
    starts[size] = used;
    const tokenCount = tokens.length;
    // wink's consolidate: idf per token, then each count turned into its weight in place.
    const idf = new Float64Array(tokenCount);
    for (let t = 0; t < tokenCount; t++) {
      const n = documentFrequency[t];
      idf[t] = Math.log((size - n + 0.5) / (n + 0.5) + 1);
    }
    const averageLength = totalLength / size;
    const offsets = new Int32Array(tokenCount + 1);
    for (let t = 0; t < tokenCount; t++) offsets[t + 1] = offsets[t] + documentFrequency[t];
    const labels = new Int32Array(used);
    const weights = new Float64Array(used);
    const filled = offsets.slice(0, tokenCount);
    for (let document = 0; document < size; document++) {
      const normalization = 1 - b + b * (lengths[document] / averageLength);
      for (let i = starts[document]; i < starts[document + 1]; i++) {
        const t = postingTokens[i];
        const frequency = postingCounts[i];
        const at = filled[t];
        labels[at] = document;
        weights[at] = Math.sign(frequency) * Number((Math.abs((frequency * (k1 + 1)) / (k1 * normalization + frequency)) * idf[t]).toFixed(4));
        filled[t] = at + 1;
      }
    }
    return new Bm25Postings({ tokens, offsets, labels, weights }, size, tokenIndex);
  }

  /**
   * Read the postings of `engine`, whose documents must be labelled "0" … String(size − 1).
   * Undefined when the state does not have that shape (the caller then keeps using wink).
   */
  static fromWink(engine: WinkBm25State, size: number): Bm25Postings | undefined {
    const documents = engine.getDocs();
    const tokens = engine.getTokens();
    const tokenIndex = new Map<string, number>();
    let tokenCount = 0;
    for (const token of Object.keys(tokens)) {
      const index = tokens[token];
      if (!Number.isInteger(index) || index < 0) return undefined;
      tokenIndex.set(token, index);
      tokenCount = Math.max(tokenCount, index + 1);
    }
    const names: string[] = new Array(tokenCount).fill('');
    for (const [token, index] of tokenIndex) names[index] = token;
    const ids = Object.keys(documents);
    if (ids.length !== size) return undefined;
    const counts = new Int32Array(tokenCount);
    for (const id of ids) {
      const label = Number(id);
      if (!Number.isInteger(label) || label < 0 || label >= size || String(label) !== id) return undefined;
      for (const key of Object.keys(documents[id].freq)) {
        const token = Number(key);
        if (!Number.isInteger(token) || token < 0 || token >= tokenCount) return undefined;
        counts[token] += 1;
      }
    }
    const offsets = new Int32Array(tokenCount + 1);
    for (let t = 0; t < tokenCount; t += 1) offsets[t + 1] = offsets[t] + counts[t];
    const labels = new Int32Array(offsets[tokenCount]);
    const weights = new Float64Array(offsets[tokenCount]);
    const filled = offsets.slice(0, tokenCount);
    for (const id of ids) {
      const label = Number(id);
      const freq = documents[id].freq;
      for (const key of Object.keys(freq)) {
        const token = Number(key);
        const weight = freq[key];
        if (typeof weight !== 'number') return undefined;
        const at = filled[token];
        labels[at] = label;
        weights[at] = weight;
        filled[token] = at + 1;
      }
    }
    return new Bm25Postings({ tokens: names, offsets, labels, weights }, size, tokenIndex);
  }

  /**
   * Postings from flat arrays (as `arrays()` gives them); throws RangeError when they are
   * inconsistent. With `maxPostingsPerTerm`, the arrays are rewritten in place (see the option).
   */
  static fromArrays(arrays: Bm25PostingArrays, size: number, options: Bm25PostingsOptions = {}): Bm25Postings {
    const cap = options.maxPostingsPerTerm;
    const { tokens, offsets, labels, weights } = arrays;
    if (offsets.length !== tokens.length + 1 || offsets[0] !== 0 || offsets[tokens.length] !== labels.length || weights.length !== labels.length) {
      throw new RangeError('postings: offsets, labels and weights disagree');
    }
    for (let t = 0; t < tokens.length; t += 1) if (offsets[t + 1] < offsets[t]) throw new RangeError(`postings: offsets decrease at token ${t}`);
    const postings = new Bm25Postings(arrays, size);
    // Labels checked in the pass that finds what pruning needs (made at load, not on the first query).
    postings.#pruning(true);
    if (postings.#tokenIndex.size !== tokens.length) throw new RangeError('postings: a token is listed twice');
    if (cap !== undefined) postings.#cutLists(cap);
    return postings;
  }

  /** The most postings a token's list is read for (`maxPostingsPerTerm`), or undefined: every posting. */
  get maxPostingsPerTerm(): number | undefined {
    return this.#maxPostingsPerTerm;
  }

  /** Lists cut to their `maxPostingsPerTerm` highest weights, and the postings they dropped. */
  get cutLists(): { lists: number; postings: number } {
    let postings = 0;
    for (const t of this.#cut?.keys() ?? []) postings += this.#offsets[t + 1] - this.#ends[t];
    return { lists: this.#cut?.size ?? 0, postings };
  }

  /**
   * Every list longer than `cap` keeps its `cap` largest weights (ties: lower labels first), moved to
   * the front in label order; `#ends` then stops scoring there. A list's largest weight is always
   * kept, so the pruning tables stay as they are, and kept labels still ascend.
   */
  #cutLists(cap: number): void {
    this.#maxPostingsPerTerm = cap;
    const offsets = this.#offsets;
    const labels = this.#labels;
    const weights = this.#weights;
    let ends: Int32Array | undefined;
    let values = new Float64Array(0);
    for (let t = 0; t < this.#tokens.length; t += 1) {
      const start = offsets[t];
      const end = offsets[t + 1];
      if (end - start <= cap) continue;
      if (values.length < end - start) values = new Float64Array(end - start);
      values.set(weights.subarray(start, end));
      const least = kthLargest(values, end - start, cap);
      let above = 0;
      let positive = 0;
      for (let i = start; i < end; i += 1) {
        if (weights[i] > least) above += 1;
        if (weights[i] > 0) positive += 1;
      }
      let ties = cap - above;
      let kept = start;
      for (let i = start; i < end; i += 1) {
        const weight = weights[i];
        if (weight > least || (weight === least && ties-- > 0)) {
          labels[kept] = labels[i];
          weights[kept] = weight;
          kept += 1;
        }
      }
      ends ??= offsets.slice(1);
      ends[t] = kept;
      (this.#cut ??= new Map()).set(t, positive);
    }
    if (ends) this.#ends = ends;
  }

  /**
   * The flat arrays (shared, not copied: do not mutate). RangeError for postings whose lists were
   * cut (`maxPostingsPerTerm`): their arrays no longer hold the dropped postings.
   */
  arrays(): Bm25PostingArrays {
    if (this.#cut)
      throw new RangeError(`postings: ${this.#cut.size} lists were cut to ${this.#maxPostingsPerTerm} postings; the arrays no longer hold them all`);
    return { tokens: this.#tokens, offsets: this.#offsets, labels: this.#labels, weights: this.#weights };
  }

  /**
   * Documents whose weight for `token` is above 0, without scoring them: those a query of it alone
   * scores, or for a list cut to `maxPostingsPerTerm`, those its whole list held (the document frequency).
   */
  positiveCount(token: string): number {
    const index = this.#tokenIndex.get(token);
    if (index === undefined) return 0;
    const whole = this.#cut?.get(index);
    if (whole !== undefined) return whole;
    const weights = this.#weights;
    let count = 0;
    for (let i = this.#offsets[index], end = this.#ends[index]; i < end; i += 1) if (weights[i] > 0) count += 1;
    return count;
  }

  /**
   * Raw scores of the documents sharing a token with `queryTokens` (repeated tokens count each time),
   * in the order the postings met them. `allocate` gives the arrays to write them to, of at least
   * `count` entries; the first `count` entries are the result. When no weight is below 0 (any index
   * built here), a document met only by weights of 0 is left out, and one met first by a weight of 0
   * is placed where its first weight above 0 met it (see `scoreByDocument`, whose scores these are,
   * copied out).
   */
  score(queryTokens: readonly string[], allocate: (count: number) => ScoreArrays): RawBm25Scores {
    const terms = this.termsOf(queryTokens);
    if (!this.#pruning(false).nonNegative) return this.#collect(this.#addMarked(terms), allocate);
    const { scores, touched } = this.#scratchArrays();
    return this.#collect(this.#addByDocument(terms, scores, touched).count, allocate);
  }

  /**
   * `score`'s raw scores (the same documents, order and additions) kept by document instead of copied
   * out: in arrays as large as the collection, each document's score at its label, with the documents
   * scored and the best score. A caller that looks scores up by document (the traversal reads a few
   * thousand of the 100,000 or more that a question's words score at 100 MB of text) reads them where
   * they were added, and no scoring writes a list of them and clears the array after it. The arrays
   * are the caller's until `release`; the next queries score into others (kept arrays, else new ones).
   * Undefined when a weight is below 0 (postings not built here): use `score`.
   *
   * One random access a posting: a document's score starts at 0 and only grows (no weight below 0), so
   * the first posting that leaves it above 0 is where it is met, with no table of the documents met. At
   * 100 MB of text a question's words are 100,000 postings or more over 1.75 million relation texts, and
   * each access misses the cache. A document whose postings for the query all weigh 0 is left out
   * (the normalised scores leave it out either way), and one met first by a weight of 0 takes its place
   * from its first weight above 0.
   */
  scoreByDocument(queryTokens: readonly string[]): DocumentBm25Scores | undefined {
    if (!this.#pruning(false).nonNegative) return undefined;
    const arrays = this.#freeDocumentArrays.pop() ?? { raw: new Float64Array(this.size), labels: new Int32Array(this.size) };
    const { count, best } = this.#addByDocument(this.termsOf(queryTokens), arrays.raw, arrays.labels);
    const scores: DocumentBm25Scores = { raw: arrays.raw, labels: arrays.labels, count, best };
    this.#lentDocumentArrays.set(scores, arrays);
    return scores;
  }

  /**
   * Adds the postings of lists `terms` (`termsOf`) into `raw` (all 0 before), for postings with no
   * weight below 0, each document at its first sum above 0 listed in `scored`: how many, and the best.
   */
  #addByDocument(terms: readonly number[], raw: Float64Array, scored: Int32Array): { count: number; best: number } {
    const labels = this.#labels;
    const weights = this.#weights;
    const ends = this.#ends;
    let count = 0;
    // Scores only grow (no weight below 0), so the largest sum met is the largest final score.
    let best = 0;
    for (const index of terms) {
      const end = ends[index];
      for (let i = this.#offsets[index]; i < end; i += 1) {
        const label = labels[i];
        const before = raw[label];
        // wink: results[id] = weight + (results[id] || 0)
        const after = weights[i] + before;
        raw[label] = after;
        if (after > best) best = after;
        if (before === 0 && after !== 0) {
          scored[count] = label;
          count += 1;
        }
      }
    }
    return { count, best };
  }

  /**
   * Hands back the arrays of a `scoreByDocument` result: its scores go back to 0 and the arrays serve a
   * later query (at most FREE_DOCUMENT_ARRAYS are kept). The result must not be read after. Releasing
   * it twice, or a result of other postings, does nothing.
   */
  release(scores: DocumentBm25Scores): void {
    const arrays = this.#lentDocumentArrays.get(scores);
    if (!arrays) return;
    this.#lentDocumentArrays.delete(scores);
    if (this.#freeDocumentArrays.length >= FREE_DOCUMENT_ARRAYS) return;
    const { raw, labels } = arrays;
    // Cleared in one sweep when the documents scored are a sixteenth of the collection or more: a write at
    // each one's place is a cache miss (8–80 ns in a benchmark over an array of 1.75 million scores), the
    // sweep about half a nanosecond a document. At 100 MB of text a question's words met 57,000 of the
    // 112,285 windows (swept) and 108,783 of the 1.75 million relation texts (written one by one).
    // (The writes one by one are a function of their own: as a branch here that the first questions had
    // not taken, V8 threw away this function's compiled code, in some runs at every question.)
    if (scores.count * 16 >= raw.length) raw.fill(0);
    else clearScored(raw, labels, scores.count);
    this.#freeDocumentArrays.push(arrays);
  }

  /**
   * Adds the postings of lists `terms` to the scratch scores, each document's first posting marking it
   * met (`touched`); returns how many were met, their marks cleared again.
   */
  #addMarked(terms: readonly number[]): number {
    const { scores, marked, touched } = this.#scratchArrays();
    const labels = this.#labels;
    const weights = this.#weights;
    const ends = this.#ends;
    let count = 0;
    for (const index of terms) {
      const end = ends[index];
      for (let i = this.#offsets[index]; i < end; i += 1) {
        const label = labels[i];
        // wink: results[id] = weight + (results[id] || 0)
        scores[label] = weights[i] + scores[label];
        if (marked[label] === 0) {
          marked[label] = 1;
          touched[count] = label;
          count += 1;
        }
      }
    }
    for (let i = 0; i < count; i += 1) marked[touched[i]] = 0;
    return count;
  }

  /** The first `count` documents met (`touched`) and their scores, into arrays from `allocate`; their scores back to 0 for the next scoring. */
  #collect(count: number, allocate: (count: number) => ScoreArrays): RawBm25Scores {
    const { scores, touched } = this.#scratchArrays();
    const { labels: outLabels, scores: outScores } = allocate(count);
    for (let i = 0; i < count; i += 1) {
      const label = touched[i];
      outLabels[i] = label;
      outScores[i] = scores[label];
      scores[label] = 0;
    }
    return { count, labels: outLabels, scores: outScores };
  }

  /**
   * The documents that can be among the `k` best for `queryTokens` (raw score descending), with raw
   * scores exactly as `score` gives them (the same additions in the same order), in label order: the
   * top k of `score` without scoring every posting. Lists are read in decreasing order of the most
   * they can add (a token's largest weight, times its repeats); once a document that none of the lists
   * read so far holds can no longer reach the k-th best partial score, the other lists only add to the
   * documents already seen (no new document is scored or kept), and only the documents within
   * `PRUNING_SLACK` of the k-th score are then scored exactly, by binary search in each list. A query
   * of rare and common words thus scores the documents of its rare words, not the hundreds of
   * thousands that hold a common one; the slack means that dividing the scores by the best cannot
   * turn a document left out into a tie. Undefined when the postings cannot be pruned (a list whose
   * labels do not ascend, or a negative weight): use `score`. The arrays are the postings' own, valid
   * until the next call. As in `score` of such postings, a document is met at its first weight above
   * 0 (its partial score then leaves 0): one met only by weights of 0 is no candidate.
   *
   * The partial scores are kept as a list of the documents met, in label order, that each list read is
   * merged into (the lists' labels ascend): each document's partial score is the same sum, added in
   * the same order, as in an array over every document, but the reads and writes go through a few
   * arrays in order instead of landing anywhere in one of the collection's size (14 MB at 1.75 million
   * relation texts, where each of a common word's 16,384 postings was a cache and TLB miss).
   */
  topCandidates(queryTokens: readonly string[], k: number): Bm25Candidates | undefined {
    const { ascending, nonNegative, maxWeights } = this.#pruning(false);
    if (!(ascending && nonNegative)) return undefined;
    const known = this.termsOf(queryTokens);
    const times = new Map<number, number>();
    for (const index of known) times.set(index, (times.get(index) ?? 0) + 1);
    // The lists in reading order, as typed arrays (list j: token `listIndex[j]`, `listRepeats[j]` times,
    // adding at most `listMost[j]`): objects here had their number fields change representation between
    // questions, and V8 threw away this function's compiled code each time (a first question paid 6–15 ms).
    const lists = times.size;
    const listIndex = new Int32Array(lists);
    const listRepeats = new Int32Array(lists);
    const listMost = new Float64Array(lists);
    let listed = 0;
    for (const [index, repeats] of times) {
      listIndex[listed] = index;
      listRepeats[listed] = repeats;
      listMost[listed] = maxWeights[index] * repeats;
      listed += 1;
    }
    sortLists(listIndex, listRepeats, listMost);
    const offsets = this.#offsets;
    const ends = this.#ends;
    let postingsListed = 0;
    for (let j = 0; j < lists; j += 1) postingsListed += ends[listIndex[j]] - offsets[listIndex[j]];
    if (lists === 1) return this.#topOfOneList(listIndex[0], listRepeats[0], k, postingsListed);
    // After list j: the most the lists after it can add to a document.
    const after = new Float64Array(lists);
    for (let j = lists - 2; j >= 0; j -= 1) after[j] = after[j + 1] + listMost[j + 1];
    const labels = this.#labels;
    const weights = this.#weights;
    // The documents met (partial score above 0), by label: `met` holds `count` of them; each list read
    // in full is merged into them, into `next`, and the two change places.
    const most = Math.min(postingsListed, this.size);
    let met = this.#mergeArrays(0, most);
    let next = this.#mergeArrays(1, most);
    let count = 0;
    let read = 0;
    let postingsRead = 0;
    let level = 0;
    while (read < lists) {
      const index = listIndex[read];
      const repeats = listRepeats[read];
      const end = ends[index];
      postingsRead += end - offsets[index];
      let i = 0;
      let j = offsets[index];
      let merged = 0;
      while (i < count || j < end) {
        if (j >= end || (i < count && met.labels[i] < labels[j])) {
          next.labels[merged] = met.labels[i];
          next.scores[merged] = met.scores[i];
          merged += 1;
          i += 1;
        } else if (i >= count || labels[j] < met.labels[i]) {
          // A document no earlier list held: met now if this weight leaves 0.
          const score = 0 + weights[j] * repeats;
          if (score !== 0) {
            next.labels[merged] = labels[j];
            next.scores[merged] = score;
            merged += 1;
          }
          j += 1;
        } else {
          next.labels[merged] = met.labels[i];
          next.scores[merged] = met.scores[i] + weights[j] * repeats;
          merged += 1;
          i += 1;
          j += 1;
        }
      }
      const filled = next;
      next = met;
      met = filled;
      count = merged;
      read += 1;
      if (count < k) continue;
      level = this.#kthLargestOf(met.scores, count, k);
      // A document none of the read lists holds scores at most after[read − 1]: below the k-th, stop reading whole lists.
      if (read < lists && after[read - 1] * (1 + PRUNING_SLACK) < level * (1 - PRUNING_SLACK)) break;
    }
    // The other lists only add to the documents already met: a pass of reads beside them, no new document.
    for (let j = read; j < lists; j += 1) {
      const index = listIndex[j];
      const repeats = listRepeats[j];
      let i = 0;
      for (let at = offsets[index], end = ends[index]; at < end && i < count; at += 1) {
        const label = labels[at];
        while (i < count && met.labels[i] < label) i += 1;
        if (i < count && met.labels[i] === label) met.scores[i] += weights[at] * repeats;
      }
    }
    if (read < lists) level = this.#kthLargestOf(met.scores, count, k);
    // Partial scores are whole now (up to rounding): the documents within the slack of the k-th.
    const floor = count < k ? NO_FLOOR : level * (1 - PRUNING_SLACK);
    let kept = 0;
    for (let i = 0; i < count; i += 1) if (met.scores[i] >= floor) kept += 1;
    const out = this.#candidateArrays(kept);
    kept = 0;
    for (let i = 0; i < count; i += 1) {
      if (met.scores[i] >= floor) {
        out.labels[kept] = met.labels[i];
        out.scores[kept] = this.scoreOf(known, met.labels[i]);
        kept += 1;
      }
    }
    return { count: kept, labels: out.labels, scores: out.scores, postingsRead, postingsListed };
  }

  /**
   * The best raw score of any document for `queryTokens`: the best of `topCandidates(queryTokens, 1)`
   * (0 when no document scores), undefined when the postings cannot be pruned. A query of one distinct
   * term is answered from its list's largest weight (kept when a list is cut), added as many times as
   * the term repeats, from 0, as `scoreOf` adds it: the same number, without reading the list (a
   * common word's list holds 16,384 postings at 100 MB of text, and a question's per-target queries
   * are mostly one word).
   */
  bestScore(queryTokens: readonly string[]): number | undefined {
    const { ascending, nonNegative, maxWeights } = this.#pruning(false);
    if (!(ascending && nonNegative)) return undefined;
    const known = this.termsOf(queryTokens);
    if (known.length > 0 && known.every((index) => index === known[0])) {
      const most = maxWeights[known[0]];
      let best = 0;
      for (let r = 0; r < known.length; r += 1) best = most + best;
      return best;
    }
    const top = this.topCandidates(queryTokens, 1);
    if (!top) return undefined;
    let best = 0;
    for (let i = 0; i < top.count; i += 1) best = Math.max(best, top.scores[i]);
    return best;
  }

  /**
   * `topCandidates` of a query of one distinct term (`repeats` times): its list's documents, each scored
   * its weight times `repeats` (0 + that, as the pruning adds it), read in list order without a score
   * per document of the collection: the k-th largest of those above 0 from a copy of them, and the
   * documents within `PRUNING_SLACK` of it kept in list order (the order the pruning meets them), each
   * scored as `scoreOf` scores it (its weight added `repeats` times from 0), read at its position in the
   * list instead of found again. The same candidates, order and scores as reading the list into the
   * scratch scores; a list of 16,384 postings at 1.75 million relation texts had cost three passes of
   * cache and TLB misses over a 14 MB array there (1–2.5 ms a target in a question's seed selection).
   */
  #topOfOneList(index: number, repeats: number, k: number, postingsListed: number): Bm25Candidates {
    const start = this.#offsets[index];
    const end = this.#ends[index];
    const weights = this.#weights;
    const values = this.#selectArray(end - start);
    let count = 0;
    for (let i = start; i < end; i += 1) {
      const score = 0 + weights[i] * repeats;
      if (score !== 0) values[count++] = score;
    }
    const floor = count < k ? NO_FLOOR : kthLargest(values, count, k) * (1 - PRUNING_SLACK);
    // At most the whole list is kept: arrays of its length, filled in one pass.
    const out = this.#candidateArrays(end - start);
    const labels = this.#labels;
    let kept = 0;
    for (let i = start; i < end; i += 1) {
      const score = 0 + weights[i] * repeats;
      if (score === 0 || !(score >= floor)) continue;
      let exact = 0;
      for (let r = 0; r < repeats; r += 1) exact = weights[i] + exact;
      out.labels[kept] = labels[i];
      out.scores[kept] = exact;
      kept += 1;
    }
    return { count: kept, labels: out.labels, scores: out.scores, postingsRead: end - start, postingsListed };
  }

  /**
   * The per-document arrays every scoring works in, made now instead of on the first query, and
   * written once, page by page, so that the memory is the process's before a question needs it. A
   * new array is only reserved: each of its pages is given on first write (a page fault, which on a
   * virtual machine can cost tens of microseconds), and a scoring writes where its documents fall,
   * so without this the first questions of a large collection pay for thousands of pages (at 1.75
   * million relation texts, 5,500 pages: 90 ms on the first question, then 5–15 ms more on each of
   * the next ten). Returns the bytes the arrays hold.
   */
  prepare(): number {
    const { scores, marked, touched } = this.#scratchArrays();
    // The arrays hold zeros between scorings; writing zeros is what makes their pages present.
    scores.fill(0);
    marked.fill(0);
    touched.fill(0);
    this.#pruning(false);
    const select = this.#selectArray(Math.ceil(this.size / 8));
    select.fill(0);
    let mergeBytes = 0;
    for (const which of [0, 1] as const) {
      const { labels, scores } = this.#mergeArrays(which, Math.min(MERGE_ARRAYS_LENGTH, this.size));
      labels.fill(0);
      scores.fill(0);
      mergeBytes += labels.byteLength + scores.byteLength;
    }
    // The arrays `scoreByDocument` keeps free, made now and their pages made present the same way: a
    // loaded index's steady flow of questions then makes none (at 1.75 million relation texts, a new
    // pair of 21 MB during the questions set off a full collection of the heap).
    while (this.#freeDocumentArrays.length < FREE_DOCUMENT_ARRAYS && this.#pruning(false).nonNegative) {
      const arrays = { raw: new Float64Array(this.size), labels: new Int32Array(this.size) };
      arrays.raw.fill(0);
      arrays.labels.fill(0);
      this.#freeDocumentArrays.push(arrays);
    }
    let documentBytes = 0;
    for (const { raw, labels } of this.#freeDocumentArrays) documentBytes += raw.byteLength + labels.byteLength;
    return scores.byteLength + marked.byteLength + touched.byteLength + select.byteLength + mergeBytes + documentBytes;
  }

  /** The scoring arrays, made on first use (a loaded index that is never searched nor prepared costs none). */
  #scratchArrays(): { scores: Float64Array; marked: Uint8Array; touched: Int32Array } {
    return (this.#scratch ??= { scores: new Float64Array(this.size), marked: new Uint8Array(this.size), touched: new Int32Array(this.size) });
  }

  /** The list numbers of the query tokens the postings know, in query order (repeats kept): what `scoreOf` reads. */
  termsOf(queryTokens: readonly string[]): number[] {
    const known: number[] = [];
    for (const token of queryTokens) {
      const index = this.#tokenIndex.get(token);
      if (index !== undefined) known.push(index);
    }
    return known;
  }

  /**
   * The raw score `score` gives document `label` for the query whose `termsOf` are `terms` (0 when it
   * has none of them): the same additions, each term's weight in turn from 0, found by binary search
   * in each list. Needs lists whose labels ascend (`topCandidates` tells: it declines others).
   */
  scoreOf(terms: readonly number[], label: number): number {
    const weights = this.#weights;
    let score = 0;
    for (const index of terms) {
      const at = this.#find(index, label);
      if (at >= 0) score = weights[at] + score;
    }
    return score;
  }

  /**
   * What `topCandidates` and `score` need, found in one pass over the postings and kept (see
   * `PruningTables`). `checkLabels`: also throw RangeError for a label out of range.
   */
  #pruning(checkLabels: boolean): PruningTables {
    if (this.#pruningTables) return this.#pruningTables;
    const offsets = this.#offsets;
    const labels = this.#labels;
    const weights = this.#weights;
    let ascending = true;
    let nonNegative = true;
    const maxWeights = new Float64Array(this.#tokens.length);
    for (let t = 0; t < maxWeights.length; t += 1) {
      let most = 0;
      for (let i = offsets[t]; i < offsets[t + 1]; i += 1) {
        if (checkLabels && (labels[i] < 0 || labels[i] >= this.size)) throw new RangeError(`postings: label ${labels[i]} out of 0..${this.size - 1}`);
        if (!(weights[i] >= 0)) nonNegative = false;
        if (i > offsets[t] && labels[i] <= labels[i - 1]) ascending = false;
        most = Math.max(most, weights[i]);
      }
      maxWeights[t] = most;
    }
    this.#pruningTables = { ascending, nonNegative, maxWeights };
    return this.#pruningTables;
  }

  /** Where `label` is in token `index`'s list (−1: not there), by binary search. */
  #find(index: number, label: number): number {
    const labels = this.#labels;
    let low = this.#offsets[index];
    let high = this.#ends[index] - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = labels[middle];
      if (at === label) return middle;
      if (at < label) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  /** The k-th largest of `scores[0 … count)` (1 ≤ k ≤ count), by selection in a kept copy. */
  #kthLargestOf(scores: Float64Array, count: number, k: number): number {
    const values = this.#selectArray(count);
    values.set(scores.subarray(0, count));
    return kthLargest(values, count, k);
  }

  /**
   * `topCandidates`' pair of merge arrays (`which`: 0 or 1), at least `count` long (a query's lists
   * hold at most that many documents): made MERGE_ARRAYS_LENGTH long at first (at most the collection's
   * size), grown by doubling, kept.
   */
  #mergeArrays(which: 0 | 1, count: number): LabelScoreArrays {
    return (this.#merge[which] = atLeast(this.#merge[which], count, Math.min(this.size, MERGE_ARRAYS_LENGTH), this.size));
  }

  /** The kept array `#kthLargestOf` selects in, at least `count` long: made an eighth of the collection long at first (a question's words touch tens of thousands of documents at 100 MB), so it seldom grows. */
  #selectArray(count: number): Float64Array {
    if (!this.#select || this.#select.length < count)
      this.#select = new Float64Array(Math.max(count, 2 * (this.#select?.length ?? 0), Math.ceil(this.size / 8)));
    return this.#select;
  }

  /** `topCandidates`' arrays, at least `count` long (grown by doubling, kept). */
  #candidateArrays(count: number): LabelScoreArrays {
    return (this.#candidates = atLeast(this.#candidates, count, 1024));
  }
}

/** A pair of kept label and score arrays (`topCandidates`' candidates, its merge arrays). */
interface LabelScoreArrays {
  labels: Int32Array;
  scores: Float64Array;
}

/**
 * `held` when its arrays hold `count` entries, else a new pair of at least `count`: twice `held`'s
 * length, `first` long when there is none, and no longer than `cap` unless `count` needs it.
 */
function atLeast(held: LabelScoreArrays | undefined, count: number, first: number, cap = Number.POSITIVE_INFINITY): LabelScoreArrays {
  if (held && held.labels.length >= count) return held;
  const length = Math.max(count, Math.min(cap, held ? 2 * held.labels.length : first));
  return { labels: new Int32Array(length), scores: new Float64Array(length) };
}

/** Each of the first `count` documents of `labels` given a score of 0 again in `raw`. */
function clearScored(raw: Float64Array, labels: Int32Array, count: number): void {
  for (let i = 0; i < count; i += 1) raw[labels[i]] = 0;
}

/**
 * A query's lists put in reading order, in place: the most a list can add descending, then the token's
 * number ascending (insertion sort: a query has a few distinct words).
 */
function sortLists(index: Int32Array, repeats: Int32Array, most: Float64Array): void {
  for (let i = 1; i < index.length; i += 1) {
    const t = index[i];
    const r = repeats[i];
    const m = most[i];
    let j = i - 1;
    while (j >= 0 && (most[j] < m || (most[j] === m && index[j] > t))) {
      index[j + 1] = index[j];
      repeats[j + 1] = repeats[j];
      most[j + 1] = most[j];
      j -= 1;
    }
    index[j + 1] = t;
    repeats[j + 1] = r;
    most[j + 1] = m;
  }
}

/**
 * The k-th largest of `values[0 … count)` (1 ≤ k ≤ count), by quickselect in place (the middle
 * value as pivot): the values are reordered.
 */
function kthLargest(values: Float64Array, count: number, k: number): number {
  let low = 0;
  let high = count - 1;
  const target = k - 1;
  while (low < high) {
    const pivot = values[(low + high) >>> 1];
    let i = low;
    let j = high;
    while (i <= j) {
      while (values[i] > pivot) i += 1;
      while (values[j] < pivot) j -= 1;
      if (i <= j) {
        const swap = values[i];
        values[i] = values[j];
        values[j] = swap;
        i += 1;
        j -= 1;
      }
    }
    if (target <= j) high = j;
    else if (target >= i) low = i;
    else break;
  }
  return values[target];
}
