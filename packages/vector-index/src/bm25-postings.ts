/** Raw BM25 scores of one query: `count` matched documents, parallel labels and scores. */
export interface RawBm25Scores {
  count: number;
  labels: ArrayLike<number>;
  scores: ArrayLike<number>;
}

/** The part of a consolidated wink-bm25-text-search engine the postings are read from. */
export interface WinkBm25State {
  getDocs(): Record<string, { freq: Record<string, number> }>;
  getTokens(): Record<string, number>;
}

/**
 * The postings of a consolidated wink-bm25-text-search engine (its per-document term weights),
 * scored the way wink's `search` scores them — for each query token in order, every document
 * containing it adds the token's weight — but into a reusable array instead of an object that
 * wink then turns into a table and sorts in full on every query.
 */
export class Bm25Postings {
  readonly #tokenIndex: Map<string, number>;
  readonly #labels: Int32Array[];
  readonly #weights: Float64Array[];
  readonly #scores: Float64Array;
  readonly #marked: Uint8Array;
  readonly #touched: Int32Array;

  private constructor(tokenIndex: Map<string, number>, labels: Int32Array[], weights: Float64Array[], size: number) {
    this.#tokenIndex = tokenIndex;
    this.#labels = labels;
    this.#weights = weights;
    this.#scores = new Float64Array(size);
    this.#marked = new Uint8Array(size);
    this.#touched = new Int32Array(size);
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
    const labels = Array.from(counts, (count) => new Int32Array(count));
    const weights = Array.from(counts, (count) => new Float64Array(count));
    const filled = new Int32Array(tokenCount);
    for (const id of ids) {
      const label = Number(id);
      const freq = documents[id].freq;
      for (const key of Object.keys(freq)) {
        const token = Number(key);
        const weight = freq[key];
        if (typeof weight !== 'number') return undefined;
        const at = filled[token];
        labels[token][at] = label;
        weights[token][at] = weight;
        filled[token] = at + 1;
      }
    }
    return new Bm25Postings(tokenIndex, labels, weights, size);
  }

  /** Raw scores of the documents sharing a token with `queryTokens` (repeated tokens count each time). */
  score(queryTokens: readonly string[]): RawBm25Scores {
    const scores = this.#scores;
    const marked = this.#marked;
    const touched = this.#touched;
    let count = 0;
    for (const token of queryTokens) {
      const index = this.#tokenIndex.get(token);
      if (index === undefined) continue;
      const labels = this.#labels[index];
      const weights = this.#weights[index];
      for (let i = 0; i < labels.length; i += 1) {
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
    const outLabels = new Int32Array(count);
    const outScores = new Float64Array(count);
    for (let i = 0; i < count; i += 1) {
      const label = touched[i];
      outLabels[i] = label;
      outScores[i] = scores[label];
      scores[label] = 0;
      marked[label] = 0;
    }
    return { count, labels: outLabels, scores: outScores };
  }
}
