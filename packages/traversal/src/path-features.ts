import type { Neighbor, NodeSummary, NumberedEdgeView, RelationEdge } from '@mosaic/spec';
import type { LabelBounds, QuestionSignals } from './question-signals.js';
import { TextFeaturesCache } from './text-features-cache.js';
import { tokenContainment } from '@mosaic/stage-utils';
import { chunkScoresByNumber, clamp01, incidentPassageChunkNumbers, passageChunkNumbers, type ChunkScoresByNumber } from '@mosaic/stage-utils/internal';
import { BOUND_TABLE_MIN, type NeighborBoundTables } from './neighbor-bounds.js';

/** Per-node quantities the path terms are built from; every number is in [0,1]. */
export interface NodeFeatures {
  id: string;
  /** t(v): best affinity to a policy target, or the entity-index score of v for the question when there are no targets. */
  target: number;
  /** Affinity to each target: max(name/alias token containment, dense entity similarity). */
  targetAffinity: number[];
  /** Whether v matches each target (lexical containment ≥ lexicalMatch or dense ≥ denseMatch). */
  targetMatch: boolean[];
  /** Whether v's name/description covers each facet (lexical containment ≥ lexicalMatch). */
  facetMatch: boolean[];
  /** s(v) = 1 − log(1+deg)/log(1+maxDegree). */
  specificity: number;
  /** degree ≥ graph.hubDegree. */
  hub: boolean;
  /** A seed, or a node matching a target. */
  anchor: boolean;
  /** The node's flag, or a name ending in '?'. */
  questionLike: boolean;
  /** Normalised name, for repetition checks. */
  nameKey: string;
}

/** Per-edge quantities; every number is in [0,1]. */
export interface EdgeFeatures {
  id: string;
  /** r(e): cosine of the relation to the question (clamped, 0 when unseen). */
  relation: number;
  /** Fit to the question's facets: max over facets of max(token containment, dense similarity); r(e) without facets. */
  fit: number;
  /** Whether e covers each facet (lexical containment ≥ lexicalMatch or dense ≥ denseMatch). */
  facetMatch: boolean[];
  /** Normalised label, for repetition checks. */
  labelKey: string;
  /** Content tokens of label + keywords, for coherence. */
  tokens: ReadonlySet<string>;
  chunkIds: ReadonlySet<string>;
}

export interface MatchThresholds {
  /** Token containment at or above which a target/facet counts as matched (default 0.5). */
  lexical: number;
  /** Dense similarity at or above which a target/facet counts as matched (default 0.8). */
  dense: number;
}

export const DEFAULT_MATCH_THRESHOLDS: Readonly<MatchThresholds> = Object.freeze({ lexical: 0.5, dense: 0.8 });

/** The best of `scores` over the chunk numbers `chunks[from … to)` (0 for −1, a chunk not numbered, and for none): a relation's passage relevance read from its chunk numbers. */
function bestChunkScore(chunks: Int32Array, from: number, to: number, scores: Float64Array): number {
  let of = 0;
  for (let at = from; at < to; at += 1) {
    const chunk = chunks[at];
    of = Math.max(of, chunk < 0 ? 0 : scores[chunk]);
  }
  return of;
}

/** Specificity of a node: 1 for leaves of a star, 0 for the highest-degree node. */
export function specificityOf(degree: number, maxDegree: number): number {
  if (maxDegree <= 0) return 1;
  return clamp01(1 - Math.log1p(Math.max(0, degree)) / Math.log1p(maxDegree));
}

/**
 * Builds and caches node/edge features for one question. The question-independent text
 * features (token sets) come from `textCache`, which may be shared across questions.
 */
export class FeatureCache {
  private readonly nodes = new Map<string, NodeFeatures>();
  private readonly edges = new Map<string, EdgeFeatures>();
  private readonly relationScores = new Map<string, number>();
  /**
   * `relationScores` by edge number of one numbered view, for bounding by number: filled from
   * `relationScores` when the view is first asked about, then kept up by `relationScore`.
   */
  private knownEdges?: { view: NumberedEdgeView; scores: Map<number, number> };
  /** The passage chunks `edgePassages` read last, for the edges array they are of. */
  private lastPassages?: { edges: Uint32Array; numbering: ReadonlyMap<string, number>; passages: { start: ArrayLike<number>; chunks: Int32Array } };
  /** The label bounds of the question's relation scores and its chunk scores by number (see `labelBoundInputs`), made once. */
  private labelInputs?: { bounds: LabelBounds; numbered?: ChunkScoresByNumber } | null;

  constructor(
    private readonly signals: QuestionSignals,
    private readonly graphInfo: { hubDegree: number; maxDegree: number },
    private readonly seeds: ReadonlySet<string>,
    private readonly thresholds: MatchThresholds = DEFAULT_MATCH_THRESHOLDS,
    private readonly textCache: TextFeaturesCache = new TextFeaturesCache(),
    private readonly boundTables?: NeighborBoundTables,
  ) {}

  node(entity: NodeSummary): NodeFeatures {
    const cached = this.nodes.get(entity.id);
    if (cached) return cached;
    const { targets, facets, entityScores } = this.signals;
    const text = this.textCache.node(entity);
    const nameTokenSets = text.nameTokenSets;
    const targetAffinity: number[] = [];
    const targetMatch: boolean[] = [];
    for (const target of targets) {
      let lexical = 0;
      for (const names of nameTokenSets) lexical = Math.max(lexical, tokenContainment(target.tokens, names));
      const dense = target.dense.get(entity.id) ?? 0;
      targetAffinity.push(clamp01(Math.max(lexical, dense)));
      targetMatch.push(lexical >= this.thresholds.lexical || dense >= this.thresholds.dense);
    }
    // The description's tokens are read (and made) only for a question with facets.
    const facetMatch = facets.map((facet) => tokenContainment(facet.tokens, text.descriptive) >= this.thresholds.lexical);
    let target: number;
    if (targets.length > 0) {
      target = -Infinity;
      for (const affinity of targetAffinity) target = Math.max(target, affinity);
    } else {
      target = clamp01(entityScores.get(entity.id) ?? 0);
    }
    const features: NodeFeatures = {
      id: entity.id,
      target,
      targetAffinity,
      targetMatch,
      facetMatch,
      specificity: specificityOf(entity.degree, this.graphInfo.maxDegree),
      hub: entity.degree >= this.graphInfo.hubDegree,
      anchor: this.seeds.has(entity.id) || targetMatch.some(Boolean),
      questionLike: entity.questionLike === true || text.questionMark,
      nameKey: text.nameKey,
    };
    this.nodes.set(entity.id, features);
    return features;
  }

  edge(relation: RelationEdge): EdgeFeatures {
    const cached = this.edges.get(relation.id);
    if (cached) return cached;
    const { facets } = this.signals;
    const relationScore = this.relationScore(relation);
    const text = this.textCache.edge(relation);
    const facetMatch: boolean[] = [];
    let fit = facets.length > 0 ? 0 : relationScore;
    // The relation's whole text is read (and its tokens made) only for a question with facets.
    for (const facet of facets) {
      const lexical = tokenContainment(facet.tokens, text.textTokens);
      const dense = facet.dense.get(relation.id) ?? 0;
      fit = Math.max(fit, clamp01(Math.max(lexical, dense)));
      facetMatch.push(lexical >= this.thresholds.lexical || dense >= this.thresholds.dense);
    }
    const features: EdgeFeatures = {
      id: relation.id,
      relation: relationScore,
      fit,
      facetMatch,
      labelKey: text.labelKey,
      tokens: text.tokens,
      chunkIds: text.chunkIds,
    };
    this.edges.set(relation.id, features);
    return features;
  }

  /**
   * r(e): the relation's own similarity to the question, blended with the relevance of the
   * passage it is stated in when the signals carry a context term; the same value as
   * `edge(relation).relation`, without building the other features.
   */
  relationScore(relation: RelationEdge): number {
    const id = relation.id;
    // One lookup: `edge` builds its features through this method, so every relation with edge
    // features has its score here too (the traversal asks this thousands of times per question).
    const known = this.relationScores.get(id);
    if (known !== undefined) return known;
    return this.keepScore(id, this.withContext(clamp01(this.signals.relationScores.get(id) ?? 0), relation));
  }

  /** Keeps r(e) of relation `id` (numbered `edge` in `view`, when the caller knows it) for `relationScore` and the bounds by number. */
  private keepScore(id: string, score: number, view?: NumberedEdgeView, edge?: number): number {
    this.relationScores.set(id, score);
    if (this.knownEdges) {
      const number = this.knownEdges.view === view ? edge : this.knownEdges.view.edgeNumber(id);
      if (number !== undefined) this.knownEdges.scores.set(number, score);
    }
    return score;
  }

  /**
   * r(e) from the relation's own score: blended with its passage's relevance when the signals carry
   * a context term (`passage`: that relevance when the caller has it, else `context.of(relation)`).
   */
  private withContext(own: number, relation: RelationEdge | undefined, passage?: () => number): number {
    const context = this.signals.context;
    return context && context.weight > 0 ? clamp01((1 - context.weight) * own + context.weight * (passage ? passage() : context.of(relation!))) : own;
  }

  /**
   * At least `relationScore(relation)`, computed without the dense similarity when the signals'
   * relation lookup offers an `upperBound` (r(e) is the same formula with the upper bound in place of
   * the fused score; every step is monotone). The score itself when it is already known or no bound
   * is offered.
   */
  relationScoreBound(relation: RelationEdge): number {
    const known = this.relationScores.get(relation.id);
    if (known !== undefined) return known;
    const lookup = this.signals.relationScores;
    if (typeof lookup.upperBound !== 'function') return this.relationScore(relation);
    return this.withContext(clamp01(lookup.upperBound(relation.id)), relation);
  }

  /**
   * `relationScoreBound` of every relation of `list`, into `out`: the same numbers. For a list of at
   * least `BOUND_TABLE_MIN` relations, when the signals' relation lookup offers label bounds and
   * there are bound tables, they are read from the list's table (label numbers, and the chunk
   * numbers of its passages in the question's relevance): no lookup by relation or chunk id but the
   * question's own scores.
   */
  relationScoreBounds(list: readonly Neighbor[], out: Float64Array): void {
    const inputs = list.length >= BOUND_TABLE_MIN ? this.labelBoundInputs() : undefined;
    if (!this.boundTables || !inputs) {
      for (let i = 0; i < list.length; i += 1) out[i] = this.relationScoreBound(list[i].edge);
      return;
    }
    const { bounds, numbered } = inputs;
    const labelOf = this.boundTables.labelsOf(list, bounds.labels);
    const passages = numbered ? this.boundTables.chunksOf(list, numbered.chunkNumber) : undefined;
    let i = 0;
    // Relation i's passage relevance from its chunk numbers: `context.of` without a lookup by id.
    const passage = passages ? () => bestChunkScore(passages.chunks, passages.chunkStart[i], passages.chunkStart[i + 1], numbered!.scores) : undefined;
    for (; i < list.length; i += 1) {
      const relation = list[i].edge;
      out[i] = this.relationScores.get(relation.id) ?? this.withContext(clamp01(bounds.ofLabel(labelOf[i])), relation, passage);
    }
  }

  /**
   * What bounding relations from tables needs (made once: the signals are the question's): bound
   * tables and the signals' label bounds, with the passage relevance by chunk number when the
   * signals carry a context term and number it. Undefined when there are no tables or label bounds.
   */
  private labelBoundInputs(): { bounds: LabelBounds; numbered?: ChunkScoresByNumber } | undefined {
    if (this.labelInputs === undefined) {
      const bounds = this.boundTables ? this.signals.relationScores.labelBounds?.() : undefined;
      const context = this.signals.context;
      const numbered = bounds && context && context.weight > 0 && context.relevance ? chunkScoresByNumber(context.relevance) : undefined;
      this.labelInputs = bounds ? { bounds, numbered } : null;
    }
    return this.labelInputs ?? undefined;
  }

  /**
   * `labelBoundInputs` when they bound a relation without building it: with a context term, its
   * passage relevance must be read by chunk number (there is no relation to ask `context.of`).
   */
  private edgeBoundInputs(): { bounds: LabelBounds; numbered?: ChunkScoresByNumber } | undefined {
    const inputs = this.labelBoundInputs();
    const context = this.signals.context;
    return inputs && (!(context && context.weight > 0) || inputs.numbered) ? inputs : undefined;
  }

  /** Whether `relationScoreBoundsOfEdges` can bound relations for this question. */
  canBoundEdges(): boolean {
    return this.edgeBoundInputs() !== undefined;
  }

  /**
   * `relationScoreBound` of the relations numbered `edges` in `view` (a graph of `edgeCount` edges),
   * into `out`: the same numbers, read from the edge's label number (kept across questions, see
   * `NeighborBoundTables.edgeLabels`) and its passage chunks' numbers (kept across questions for
   * `node`, the relations' node, when given: `NeighborBoundTables.edgeChunksOf`), without building the
   * relation. False, with nothing written, when `canBoundEdges` is false.
   */
  relationScoreBoundsOfEdges(view: NumberedEdgeView, edgeCount: number, edges: Uint32Array, out: Float64Array, node?: string): boolean {
    const inputs = this.edgeBoundInputs();
    if (!inputs) return false;
    const { bounds, numbered } = inputs;
    const labels = this.boundTables!.edgeLabels(view, bounds, edgeCount);
    const known = this.knownScoresOf(view);
    const someKnown = known.size > 0;
    // `withContext` written out (a hub has tens of thousands of relations): the same operations in
    // the same order, the passage relevance read from the relations' chunk numbers (`context.of`
    // without building them; edgeBoundInputs gives the numbers whenever there is a context term).
    // Through a closure per relation, `mosaic retrieve` at 100 MB had a p50 of 40.4 ms against 35.4
    // (medians of 5 alternated runs; docs/results/issue-31.md, review of sessions 23 and 24).
    const context = this.signals.context;
    const weight = context && context.weight > 0 ? context.weight : 0;
    const passages = weight > 0 ? this.edgePassageChunks(view, edges, numbered!, node) : undefined;
    const scores = numbered?.scores;
    for (let i = 0; i < edges.length; i += 1) {
      const edge = edges[i];
      if (someKnown) {
        const score = known.get(edge);
        if (score !== undefined) {
          out[i] = score;
          continue;
        }
      }
      const own = clamp01(bounds.ofLabel(labels.of(edge)));
      out[i] = passages ? clamp01((1 - weight) * own + weight * bestChunkScore(passages.chunks, passages.start[i], passages.start[i + 1], scores!)) : own;
    }
    return true;
  }

  /**
   * r(e) of the relations numbered `edges` in `view`, by position, from numbers: for position i,
   * `relationScore` of that relation (the same number, kept the same way), computed from its label's
   * fused value (`LabelBounds.valueOfLabel`) and its passage chunks' numbers, without building the
   * relation. A position gives undefined when its relation's id is not in the label map: build it
   * and ask `relationScore`. Undefined when the features cannot bound by number (`canBoundEdges`)
   * or the relation lookup has no values by label. `node`: the relations' node, as for
   * `relationScoreBoundsOfEdges`.
   */
  relationScoresOfEdges(view: NumberedEdgeView, edgeCount: number, edges: Uint32Array, node?: string): ((position: number) => number | undefined) | undefined {
    const inputs = this.edgeBoundInputs();
    if (!inputs?.bounds.valueOfLabel) return undefined;
    const { bounds, numbered } = inputs;
    const valueOfLabel = bounds.valueOfLabel!.bind(bounds);
    const labels = this.boundTables!.edgeLabels(view, bounds, edgeCount);
    const passageOf = numbered ? this.edgePassages(view, edges, numbered, node) : undefined;
    return (position) => {
      const edge = edges[position];
      const label = labels.of(edge);
      if (label < 0) return undefined;
      const id = bounds.ids[label];
      const known = this.relationScores.get(id);
      if (known !== undefined) return known;
      const passage = passageOf ? () => passageOf(position) : undefined;
      return this.keepScore(id, this.withContext(clamp01(valueOfLabel(label) ?? 0), undefined, passage), view, edge);
    };
  }

  /**
   * The passage relevance of the relations numbered `edges`, by position, from their passage chunks'
   * numbers: `context.of` without building them. The chunks are read once, on first use, and kept
   * for the same `edges` array (bounding a hub's relations and scoring them read the same); across
   * questions for `node`, the relations' node, when given (a hub's relations name the same chunks
   * for every question that reaches it: from the store's table of every node's relations when it
   * keeps one, `NumberedEdgeView.incidentPassageChunks`, else `NeighborBoundTables.edgeChunksOf`).
   */
  private edgePassages(view: NumberedEdgeView, edges: Uint32Array, numbered: ChunkScoresByNumber, node: string | undefined): (position: number) => number {
    let passages: { start: ArrayLike<number>; chunks: Int32Array } | undefined;
    return (position) => {
      passages ??= this.edgePassageChunks(view, edges, numbered, node);
      return bestChunkScore(passages.chunks, passages.start[position], passages.start[position + 1], numbered.scores);
    };
  }

  /** The passage chunk numbers `edgePassages` reads (made now, or the ones it read last for the same `edges` array). */
  private edgePassageChunks(
    view: NumberedEdgeView,
    edges: Uint32Array,
    numbered: ChunkScoresByNumber,
    node: string | undefined,
  ): { start: ArrayLike<number>; chunks: Int32Array } {
    const last = this.lastPassages;
    if (last?.edges === edges && last.numbering === numbered.chunkNumber) return last.passages;
    const passages =
      node !== undefined
        ? (incidentPassageChunkNumbers(view, node, edges, numbered.chunkNumber) ?? this.boundTables!.edgeChunksOf(view, node, edges, numbered.chunkNumber))
        : passageChunkNumbers(view, edges, numbered.chunkNumber);
    this.lastPassages = { edges, numbering: numbered.chunkNumber, passages };
    return passages;
  }

  /** `relationScores` by edge number in `view` (relations it does not number left out). */
  private knownScoresOf(view: NumberedEdgeView): Map<number, number> {
    if (this.knownEdges?.view !== view) {
      const scores = new Map<number, number>();
      for (const [id, score] of this.relationScores) {
        const edge = view.edgeNumber(id);
        if (edge !== undefined) scores.set(edge, score);
      }
      this.knownEdges = { view, scores };
    }
    return this.knownEdges.scores;
  }

  cachedNode(id: string): NodeFeatures | undefined {
    return this.nodes.get(id);
  }

  cachedEdge(id: string): EdgeFeatures | undefined {
    return this.edges.get(id);
  }
}
