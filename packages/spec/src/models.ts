export interface AbortOptions {
  abortSignal?: AbortSignal;
}

/** A bi-encoder: texts in, L2-normalised vectors out. */
export interface Encoder {
  readonly specificationVersion: 'v1';
  /** Stable identifier recorded in index manifests (e.g. 'onnx:bge-large-en-v1.5'). */
  readonly id: string;
  readonly dimension: number;
  encode(texts: readonly string[], options?: AbortOptions): Promise<Float32Array[]>;
}

export interface VectorHit {
  /** Label of the stored vector (its position at insertion). */
  label: number;
  /** Inner product (= cosine for normalised vectors). */
  score: number;
}

/** A vector index keyed by insertion order. */
export interface VectorIndex {
  readonly specificationVersion: 'v1';
  readonly dimension: number;
  readonly size: number;
  /** Append vectors; labels continue from the current size. */
  add(vectors: readonly Float32Array[]): Promise<void>;
  /** Top-k by inner product, best first. */
  search(query: Float32Array, k: number): Promise<VectorHit[]>;
  /** Persist to a file path. */
  save(path: string): Promise<void>;
}

/** A lexical (e.g. BM25) index over the same items as a vector index. */
export interface LexicalIndex {
  search(query: string, k: number): VectorHit[];
  /**
   * Optional: every item sharing a term with the query, unsorted — the same scores `search` returns
   * (divided by the query's best), without ranking them all. Stages that score many items against
   * one question (the traversal's r(e), the passage terms) read this when present.
   */
  scoreAll?(query: string): LexicalScores;
  /**
   * Optional: `scoreAll`'s scores lent to `read` for the length of the call, in arrays the index
   * reuses afterwards (`read` copies what it keeps). For stages that copy the scores out anyway: no
   * arrays are made per query, and a large corpus's common words otherwise make megabytes of them.
   */
  withScores?<T>(query: string, read: (scores: LexicalScores) => T): T;
  /**
   * Optional: `scoreAll(query)`'s scores held for the caller, read one item at a time by label
   * (`HeldLexicalScores.scoreOf`) where the index keeps them, so that no list of every score is made
   * for a caller that looks a few of them up. The caller must `release()` them: the index does not
   * reuse what they occupy before. Undefined when the index cannot hold them for this query (use
   * `withScores`).
   */
  holdScores?(query: string): HeldLexicalScores | undefined;
  /** Optional: the number of items `scoreAll(query)` gives, cheaper when the index can count them without scoring. */
  matchCount?(query: string): number;
  /**
   * Optional: `scoreAll(query)`'s score of one item at a time, by label (0 for an item it leaves
   * out), for a caller that reads a few items: the index may then score only those (and find the
   * query's best item without scoring the others). Undefined when it cannot for this query.
   */
  scorer?(query: string): ((label: number) => number) | undefined;
  /**
   * Optional: make now the memory the index's scorings work in, instead of during the first queries
   * (e.g. once loaded, before a server takes questions); scores do not change. Returns its bytes.
   */
  prepare?(): number;
}

/** One query's scores held for a caller (`LexicalIndex.holdScores`) until it releases them. */
export interface HeldLexicalScores {
  /** Items scored: `scoreAll(query).count`. */
  readonly count: number;
  /** Their labels, in `scoreAll`'s order (`count` of them). */
  readonly labels: ArrayLike<number>;
  /** `scoreAll`'s score of item `label`, in (0, 1]; undefined for an item it leaves out, and once released. */
  scoreOf(label: number): number | undefined;
  /** Done reading: the index may reuse what the scores occupy. A second call does nothing. */
  release(): void;
}

/** Unsorted lexical scores of one query: `count` items, parallel labels and scores in (0, 1]. */
export interface LexicalScores {
  count: number;
  labels: ArrayLike<number>;
  scores: ArrayLike<number>;
}
