import { DimensionMismatchError, throwIfAborted } from '@mosaic/spec';
import type { CorpusIndex, LexicalIndex, PassageRelevance, QueryContext, RelationEdge, VectorIndex } from '@mosaic/spec';
import { matchTokens, passageRelevance } from '@mosaic/stage-utils';
import { clamp01, labelMapOf, readEveryItem, scoresEveryItem } from '@mosaic/stage-utils/internal';

/**
 * Dense similarity (clamped to [0,1]) of indexed items to one query, by item id; undefined when
 * the item was not seen (it then scores 0). A `ReadonlyMap<string, number>` is one.
 */
export interface SimilarityLookup {
  get(id: string): number | undefined;
  /**
   * Optional: `get(ids[label])`, read by position when the lookup's items are numbered by `ids` (the
   * same array), else by id: for callers that know items only by label.
   */
  getByLabel?(label: number, ids: readonly string[]): number | undefined;
  /**
   * Optional: a value at least `get(id) ?? 0`, computed without the costly part of `get` (a fused
   * lookup leaves out the dense similarity, taking it as 1). The traversal ranks a hub's relations
   * with it and computes `get` only for those that can still be among the best.
   */
  upperBound?(id: string): number;
  /**
   * Optional: `upperBound` by the item's label in an index id list, for callers that bound many
   * items at once and keep their labels across questions (see `LabelBounds`).
   */
  labelBounds?(): LabelBounds | undefined;
}

/** `upperBound` by label: `upperBound(id)` is `ofLabel(labels.get(id) ?? -1)`. */
export interface LabelBounds {
  /** The id → label map the labels are read from (the same map for every question over one index). */
  labels: ReadonlyMap<string, number>;
  /** The ids those labels number: `labels.get(ids[k])` is k (the same array for every question over one index). */
  ids: readonly string[];
  /** `upperBound` of the item with this label (−1: an id the map does not hold). */
  ofLabel(label: number): number;
  /**
   * Optional: the lookup's own `get(ids[label])` for a label of the map (0 … ids.length − 1): the
   * value `ofLabel` bounds, for callers that score items they know only by label without building
   * them.
   */
  valueOfLabel?(label: number): number | undefined;
}

/** One target entity or facet of the policy, with its dense scores against an index. */
export interface QuestionAspect {
  text: string;
  /** Distinct content tokens of the text. */
  tokens: ReadonlySet<string>;
  /** Dense similarity (clamped to [0,1]) of indexed items (node ids for targets, relation ids for facets). */
  dense: SimilarityLookup;
}

/** Everything the traversal needs to know about the question, computed once. */
export interface QuestionSignals {
  /** Cosine of each relation to the question, clamped to [0,1]; unseen relations score 0. */
  relationScores: SimilarityLookup;
  /** Cosine of each entity to the question, clamped to [0,1]; unseen entities score 0. */
  entityScores: SimilarityLookup;
  targets: QuestionAspect[];
  facets: QuestionAspect[];
  /**
   * The passage term of r(e): r(e) = (1 − weight)·own + weight·of(e), where of(e) is the BM25 of the
   * question against the best window holding a sentence that states e (divided by the question's
   * best window). Absent when off or when the index has no lexical window index.
   */
  context?: {
    weight: number;
    of(relation: RelationEdge): number;
    /** The passage relevance `of` reads (`of(e)` is `relevance.relation(e)`), when it is one. */
    relevance?: PassageRelevance;
  };
  /** Encoder calls made (0 or 1). */
  encoderCalls: number;
  /**
   * Index searches made: 0 when every similarity comes from stored vectors (`IndexVectorAccessors`),
   * else one per searched index (question × relations, question × entities, one per target and facet).
   */
  indexSearches: number;
}

/**
 * Optional accessors of a CorpusIndex to the stored entity / relation vectors by id (like
 * `windowVector`). When present (and no `searchLimit` is set), similarities are computed only for
 * the nodes and relations the traversal touches, as the inner product of the stored vector and the
 * query vector in float32 arithmetic accumulated in order — bit for bit the score faiss's exact
 * (Flat) inner-product search returns — instead of searching the whole index once per question,
 * target and facet.
 */
export interface IndexVectorAccessors {
  /** The stored vector of an entity; an accessor may decode it into `out` (of the index's dimension) and return that, instead of a new array. */
  entityVector?(id: string, out?: Float32Array): Float32Array | undefined;
  /** The stored vector of a relation; may decode into `out`, as `entityVector`. */
  relationVector?(id: string, out?: Float32Array): Float32Array | undefined;
  /** `entityVector(entityIds[label], out)` by position (see CorpusIndex.entityVectorAt). */
  entityVectorAt?(label: number, out?: Float32Array): Float32Array | undefined;
  /** `relationVector(relationIds[label], out)` by position (see CorpusIndex.relationVectorAt). */
  relationVectorAt?(label: number, out?: Float32Array): Float32Array | undefined;
}

export interface BuildQuestionSignalsOptions {
  index: CorpusIndex & IndexVectorAccessors;
  context: QueryContext;
  /** Cap on k for the per-question index searches (default: the whole index). */
  searchLimit?: number;
  /**
   * Skip the question × entity search when the policy names targets: the path features then read
   * target affinities and never `entityScores`, which is left empty (default false).
   */
  skipUnusedEntityScores?: boolean;
  /**
   * Use the index's `entityVector` / `relationVector` accessors when present and no `searchLimit`
   * is set (default true).
   */
  useStoredVectors?: boolean;
  /**
   * λ of r(e) = (1 − λ)·dense + λ·bm25 and of the question–entity score, with BM25 of the question
   * against the index's lexical relation / entity index (`index.lexical`) divided by the best hit.
   * 0 (or an index without lexical indexes) keeps the dense similarity alone. Default 0.
   */
  lexicalWeight?: number;
  /** Weight of the passage term of r(e) (see `QuestionSignals.context`); default 0 (off). */
  contextWeight?: number;
  /** Cache of id → label maps of the index id lists (reused across questions); default: labelMapOf's shared one. */
  labelMaps?: WeakMap<readonly string[], ReadonlyMap<string, number> | null>;
  /**
   * Where dense label scores get their arrays (see `LabelScorePool`): the caller returns them with
   * `returnAll` once it no longer reads the signals. Default: new arrays, left to the collector.
   */
  labelScores?: LabelScoreLoan;
  abortSignal?: AbortSignal;
}

/**
 * Similarities computed on demand from stored vectors. Not memoised: the path features ask once
 * per node or relation and keep the result. Vectors are decoded into one scratch array (when the
 * accessor takes one), read at once and never kept.
 */
class VectorSimilarity implements SimilarityLookup {
  readonly #scratch: Float32Array;

  constructor(
    private readonly query: Float32Array,
    private readonly vectorOf: (id: string, out?: Float32Array) => Float32Array | undefined,
    /** `vectorOf(ids[label], out)` by position, with the `ids` it numbers (the index's id list). */
    private readonly byLabel?: { ids: readonly string[]; vectorAt: (label: number, out?: Float32Array) => Float32Array | undefined },
  ) {
    this.#scratch = new Float32Array(query.length);
  }

  get(id: string): number | undefined {
    return this.#similarity(this.vectorOf(id, this.#scratch));
  }

  getByLabel(label: number, ids: readonly string[]): number | undefined {
    if (this.byLabel?.ids === ids) return this.#similarity(this.byLabel.vectorAt(label, this.#scratch));
    return this.get(ids[label]);
  }

  #similarity(vector: Float32Array | undefined): number | undefined {
    const query = this.query;
    if (!vector || vector.length !== query.length) return undefined;
    // Float32 arithmetic, accumulated in order: the same bits as faiss's exact (Flat)
    // inner-product search returns for the stored vector.
    let sum = 0;
    for (let i = 0; i < query.length; i += 1) sum = Math.fround(sum + Math.fround(vector[i] * query[i]));
    return clamp01(sum);
  }
}

/**
 * Scores by label for the items one search touched. Dense (an array over every label, with a
 * stamp per label: zeroed memory, nothing filled) when the hits are many for the index's size,
 * sparse (a map) otherwise: a question costs what it touches, not the size of the corpus.
 * Both give the same numbers.
 */
class LabelScores {
  readonly #dense?: Float64Array;
  /** Per label: `#mark` when this search set it (any other value: not set). */
  readonly #stamp?: Uint32Array;
  readonly #mark: number = 0;
  readonly #sparse?: Map<number, number>;

  constructor(hits: number, size: number, loan?: LabelScoreLoan) {
    if (hits * DENSE_SHARE >= size) {
      const arrays = loan?.arraysFor(size) ?? { dense: new Float64Array(size), stamp: new Uint32Array(size), mark: 1 };
      this.#dense = arrays.dense;
      this.#stamp = arrays.stamp;
      this.#mark = arrays.mark;
    } else this.#sparse = new Map();
  }

  has(label: number): boolean {
    return this.#stamp ? this.#stamp[label] === this.#mark : this.#sparse!.has(label);
  }

  set(label: number, score: number): void {
    if (this.#dense) {
      this.#dense[label] = score;
      this.#stamp![label] = Number.isNaN(score) ? 0 : this.#mark;
    } else this.#sparse!.set(label, score);
  }

  scoreOf(label: number): number | undefined {
    if (!this.#dense) return this.#sparse!.get(label);
    return this.#stamp![label] === this.#mark ? this.#dense[label] : undefined;
  }
}

/**
 * Dense label-score arrays kept between questions (one traverser's). A question's `loan` takes the
 * arrays of its index's size with a new mark: a label holds a score for that question only where its
 * stamp is the mark, so whatever an earlier question set reads as unset, and the arrays come back
 * (`LabelScoreLoan.returnAll`) without being cleared. A question sets a share of the labels, often
 * more than an eighth of them at 100 MB of text (a common word is in 230,000 of 1.75 million relation
 * texts), while zeroing arrays costs their whole size (1.75 million relations, 21 MB), and fresh
 * arrays' memory counts towards the next garbage collection. Holds at most `keep` arrays per size;
 * questions in flight at once each take their own.
 */
export class LabelScorePool {
  readonly #free = new Map<number, LabelArrays[]>();

  constructor(private readonly keep = 4) {}

  /** A question's loan of arrays, returned with `returnAll` when its scores are no longer read. */
  loan(): LabelScoreLoan {
    return new LabelScoreLoan(this);
  }

  /** Arrays of `size` labels with a mark no stamp holds, when the pool holds some. */
  take(size: number): LabelArrays | undefined {
    const arrays = this.#free.get(size)?.pop();
    if (!arrays) return undefined;
    if (arrays.mark === MAX_MARK) {
      // Every mark used once (after four billion questions): stamps back to 0, marks from 1 again.
      arrays.stamp.fill(0);
      arrays.mark = 1;
    } else arrays.mark += 1;
    return arrays;
  }

  /** Takes arrays back as they are (dropped beyond `keep` of their size). */
  putBack(arrays: LabelArrays): void {
    const free = this.#free.get(arrays.dense.length) ?? [];
    if (free.length < this.keep) free.push(arrays);
    this.#free.set(arrays.dense.length, free);
  }

  /** Arrays held, over every size. */
  get size(): number {
    let count = 0;
    for (const free of this.#free.values()) count += free.length;
    return count;
  }
}

/** The largest mark a stamp can hold. */
const MAX_MARK = 0xffffffff;

/** Dense label scores and their stamps: label l holds a score for the arrays' current user when `stamp[l] === mark` (never 0). */
type LabelArrays = { dense: Float64Array; stamp: Uint32Array; mark: number };

/** The label scores one question made with pooled arrays (see `LabelScorePool`), and the index scores it holds. */
export class LabelScoreLoan {
  readonly #arrays: LabelArrays[] = [];
  readonly #held: { release(): void }[] = [];

  constructor(private readonly pool: LabelScorePool) {}

  /** Arrays for a question's scores of `size` labels (the pool's, else new ones); they go back to the pool with `returnAll`. */
  arraysFor(size: number): LabelArrays {
    const arrays = this.pool.take(size) ?? { dense: new Float64Array(size), stamp: new Uint32Array(size), mark: 1 };
    this.#arrays.push(arrays);
    return arrays;
  }

  /** Scores an index holds for the question (`LexicalIndex.holdScores`), released with `returnAll`. */
  hold(scores: { release(): void }): void {
    this.#held.push(scores);
  }

  /** Returns every array taken and releases every score held: the scores must not be read after. */
  returnAll(): void {
    for (const arrays of this.#arrays) this.pool.putBack(arrays);
    this.#arrays.length = 0;
    for (const scores of this.#held) scores.release();
    this.#held.length = 0;
  }
}

/**
 * Hits, as a share of the index's size, from which LabelScores is an array (1 / DENSE_SHARE): a map
 * entry costs tens of bytes and a hash per lookup, a label of the array 12 bytes (score and stamp).
 */
const DENSE_SHARE = 64;

/** Scores by label: undefined for a label not scored. */
interface ScoresByLabel {
  scoreOf(label: number): number | undefined;
}

/** Similarities of one index search, by label (undefined = not among the hits). */
class LabelSimilarity implements SimilarityLookup {
  constructor(
    private readonly scores: ScoresByLabel,
    readonly labels: ReadonlyMap<string, number>,
    readonly ids: readonly string[],
  ) {}

  get(id: string): number | undefined {
    const label = this.labels.get(id);
    return label === undefined ? undefined : this.scores.scoreOf(label);
  }

  /** `get` by label (−1: no item). */
  ofLabel(label: number): number | undefined {
    return label < 0 ? undefined : this.scores.scoreOf(label);
  }
}

const EMPTY: SimilarityLookup = { get: () => undefined };

/**
 * BM25 of `text` against a lexical index, by item id, divided by the best hit (so the best scores
 * 1); items without a term in common are unseen. With a `loan`, scores the index holds
 * (`holdScores`) are read where it keeps them and handed back with the loan's `returnAll`; else the
 * index's unsorted scores when it has them (lent by `withScores`, else `scoreAll`: no ranking of
 * every hit) are copied, else one `search` over the whole index is read.
 */
export function lexicalLookup(
  index: LexicalIndex,
  ids: readonly string[],
  text: string,
  labelMaps?: WeakMap<readonly string[], ReadonlyMap<string, number> | null>,
  loan?: LabelScoreLoan,
): SimilarityLookup {
  const labels = labelMapOf(ids, labelMaps);
  // Read where the index keeps them (no copy of every score); back to the index with the loan.
  if (labels && loan && typeof index.holdScores === 'function') {
    const held = index.holdScores(text);
    if (held) {
      loan.hold(held);
      return new LabelSimilarity(held, labels, ids);
    }
  }
  if (labels && scoresEveryItem(index)) {
    const scores = readEveryItem(index, text, ids.length, (all) => {
      const scores = new LabelScores(all.count, ids.length, loan);
      for (let i = 0; i < all.count; i += 1) {
        const label = all.labels[i];
        if (label >= 0 && label < ids.length) scores.set(label, all.scores[i]);
      }
      return scores;
    });
    return new LabelSimilarity(scores, labels, ids);
  }
  const out = new Map<string, number>();
  const hits = index.search(text, ids.length);
  let best = 0;
  for (const hit of hits) best = Math.max(best, hit.score);
  if (!(best > 0)) return out;
  for (const hit of hits) {
    const id = ids[hit.label];
    if (id !== undefined && hit.score > 0 && !out.has(id)) out.set(id, hit.score / best);
  }
  return out;
}

/** (1 − λ)·dense + λ·lexical, where either may be missing (counts as 0); undefined when both are. */
class FusedSimilarity implements SimilarityLookup {
  constructor(
    private readonly dense: SimilarityLookup,
    private readonly lexical: SimilarityLookup,
    private readonly weight: number,
  ) {}

  get(id: string): number | undefined {
    return this.#fused(this.dense.get(id), this.lexical.get(id));
  }

  /** `get` with the dense similarity taken as 1, its largest value: the same operations, so never below `get` in floating point either. */
  upperBound(id: string): number {
    return this.#bound(this.lexical.get(id));
  }

  /** `upperBound` by label, when the lexical scores are kept by label (the same operations). */
  labelBounds(): LabelBounds | undefined {
    const lexical = this.lexical;
    if (!(lexical instanceof LabelSimilarity)) return undefined;
    return {
      labels: lexical.labels,
      ids: lexical.ids,
      ofLabel: (label) => this.#bound(lexical.ofLabel(label)),
      // `get(ids[label])`: the lexical score read by label (the same entry `get` finds by id).
      // The dense similarity read by position when the dense lookup numbers the same ids (no lookup by id).
      valueOfLabel: (label) =>
        this.#fused(this.dense.getByLabel ? this.dense.getByLabel(label, lexical.ids) : this.dense.get(lexical.ids[label]), lexical.ofLabel(label)),
    };
  }

  /** (1 − λ)·dense + λ·lexical, either missing counting as 0; undefined when both are. */
  #fused(dense: number | undefined, lexical: number | undefined): number | undefined {
    if (dense === undefined && lexical === undefined) return undefined;
    return (1 - this.weight) * (dense ?? 0) + this.weight * (lexical ?? 0);
  }

  /** The fused score with the dense similarity at 1 for this lexical score. */
  #bound(lexical: number | undefined): number {
    return (1 - this.weight) * 1 + this.weight * (lexical ?? 0);
  }
}

async function searchSimilarity(
  index: VectorIndex,
  ids: readonly string[],
  query: Float32Array,
  limit: number,
  labelMaps: WeakMap<readonly string[], ReadonlyMap<string, number> | null> | undefined,
  loan: LabelScoreLoan | undefined,
): Promise<SimilarityLookup> {
  const k = Math.min(index.size, ids.length, limit);
  if (k <= 0) return new Map<string, number>();
  const hits = await index.search(query, k);
  const labels = labelMapOf(ids, labelMaps);
  if (labels) {
    const scores = new LabelScores(hits.length, ids.length, loan);
    for (const hit of hits) {
      if (hit.label >= 0 && hit.label < ids.length && !scores.has(hit.label)) scores.set(hit.label, clamp01(hit.score));
    }
    return new LabelSimilarity(scores, labels, ids);
  }
  // Repeated ids: the first (best) hit of an id wins.
  const out = new Map<string, number>();
  for (const hit of hits) {
    const id = ids[hit.label];
    if (id !== undefined && !out.has(id)) out.set(id, clamp01(hit.score));
  }
  return out;
}

function distinctTexts(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of texts) {
    const text = raw.trim();
    if (text.length === 0 || seen.has(text.toLowerCase())) continue;
    seen.add(text.toLowerCase());
    out.push(text);
  }
  return out;
}

/**
 * Question-level signals: the question's similarity to relations and entities and — when the
 * policy names targets or facets — one batched encoder call for their texts and their similarity
 * to entities (targets) and relations (facets). Similarities come from the stored vectors of the
 * touched items when the index offers `entityVector` / `relationVector` (see
 * `IndexVectorAccessors`), else from one whole-index search per query and index.
 */
export async function buildQuestionSignals(options: BuildQuestionSignalsOptions): Promise<QuestionSignals> {
  const { index, context, abortSignal, labelMaps, labelScores: loan } = options;
  const limit = options.searchLimit ?? Number.POSITIVE_INFINITY;
  const queryVector = context.queryVector;
  if (queryVector.length !== index.relationIndex.dimension) {
    throw new DimensionMismatchError({
      expected: index.relationIndex.dimension,
      actual: queryVector.length,
      what: 'Query vector',
    });
  }
  const useVectors = options.useStoredVectors !== false && options.searchLimit === undefined;
  const relationVector = useVectors && typeof index.relationVector === 'function' ? index.relationVector.bind(index) : undefined;
  const entityVector = useVectors && typeof index.entityVector === 'function' ? index.entityVector.bind(index) : undefined;
  const relationsByLabel = typeof index.relationVectorAt === 'function' ? { ids: index.relationIds, vectorAt: index.relationVectorAt.bind(index) } : undefined;
  const entitiesByLabel = typeof index.entityVectorAt === 'function' ? { ids: index.entityIds, vectorAt: index.entityVectorAt.bind(index) } : undefined;
  let indexSearches = 0;
  const relationSimilarity = async (query: Float32Array): Promise<SimilarityLookup> => {
    if (relationVector) return new VectorSimilarity(query, relationVector, relationsByLabel);
    indexSearches += 1;
    return searchSimilarity(index.relationIndex, index.relationIds, query, limit, labelMaps, loan);
  };
  const entitySimilarity = async (query: Float32Array): Promise<SimilarityLookup> => {
    if (entityVector) return new VectorSimilarity(query, entityVector, entitiesByLabel);
    indexSearches += 1;
    return searchSimilarity(index.entityIndex, index.entityIds, query, limit, labelMaps, loan);
  };

  const targetTexts = distinctTexts(context.policy.targetEntities ?? []);
  const facetTexts = distinctTexts(context.policy.targetFacets ?? []);
  const lexicalWeight = options.lexicalWeight ?? 0;
  const fuse = (dense: SimilarityLookup, lexical: LexicalIndex | undefined, ids: readonly string[]) =>
    lexicalWeight > 0 && lexical ? new FusedSimilarity(dense, lexicalLookup(lexical, ids, context.question.text, labelMaps, loan), lexicalWeight) : dense;
  const relationScores = fuse(await relationSimilarity(queryVector), index.lexical?.relations, index.relationIds);
  const entityScores =
    options.skipUnusedEntityScores && targetTexts.length > 0 ? EMPTY : fuse(await entitySimilarity(queryVector), index.lexical?.entities, index.entityIds);
  throwIfAborted(abortSignal, 'traversal');

  const all = [...targetTexts, ...facetTexts];
  let vectors: Float32Array[] = [];
  let encoderCalls = 0;
  if (all.length > 0) {
    vectors = await index.encoder.encode(all, { abortSignal });
    encoderCalls = 1;
    throwIfAborted(abortSignal, 'traversal');
    for (let i = 0; i < all.length; i += 1) {
      const vector = vectors[i] as Float32Array | undefined;
      if (vector?.length !== queryVector.length) {
        throw new DimensionMismatchError({ expected: queryVector.length, actual: vector?.length ?? 0, what: 'Target/facet vector' });
      }
    }
  }
  const targets: QuestionAspect[] = [];
  for (let i = 0; i < targetTexts.length; i += 1) {
    targets.push({
      text: targetTexts[i],
      tokens: new Set(matchTokens(targetTexts[i])),
      dense: await entitySimilarity(vectors[i]),
    });
  }
  const facets: QuestionAspect[] = [];
  for (let i = 0; i < facetTexts.length; i += 1) {
    facets.push({
      text: facetTexts[i],
      tokens: new Set(matchTokens(facetTexts[i])),
      dense: await relationSimilarity(vectors[targetTexts.length + i]),
    });
  }
  const contextWeight = options.contextWeight ?? 0;
  const relevance = contextWeight > 0 ? passageRelevance(index, context.question.text, context.state) : undefined;
  const passage = relevance ? { weight: contextWeight, of: (relation: RelationEdge) => relevance.relation(relation), relevance } : undefined;
  return { relationScores, entityScores, targets, facets, ...(passage ? { context: passage } : {}), encoderCalls, indexSearches };
}
