import { DimensionMismatchError, InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type {
  LexicalIndex,
  RelationEdge,
  Seed,
  SeedQueryMode,
  SeedSelection,
  SeedSelector,
  SeedTrace,
  SelectionMode,
  StageOptions,
  VectorIndex,
} from '@mosaic/spec';
import { matchTokens, passageRelevance, tokenContainment, type PassageRelevance } from '@mosaic/stage-utils';

export interface SeedSelectorOptions {
  /**
   * λ of the dense–lexical fusion score = (1 − λ)·dense + λ·bm25 (BM25 normalised so that the
   * query's best hit scores 1). Applied to entity and relation scores when `index.lexical` has
   * the matching index; 0 turns fusion off. Default 0.8 (tuned on the Medical development
   * questions: 0.3, 0.7, 0.8, 1.0 tried).
   */
  lexicalWeight?: number;
  /** Entity-index hits per query (default max(20, 4·K)). */
  entityCandidates?: number;
  /** Relation-index hits per query (default max(30, 6·K)). */
  relationCandidates?: number;
  /** Entity weight of hybrid selection; the relation weight is 1 minus it (default 0.3). */
  hybridEntityWeight?: number;
  /** Candidates kept per target before deduplication in per-target mode (default 2). */
  perTargetReserve?: number;
  /** Candidates recorded in the trace (default 50). */
  traceCandidates?: number;
  /**
   * μ of the mention factor: every candidate's s_seed is multiplied by (1 − μ) + μ·m(v), where
   * m(v) is the share of the content tokens of v's name (best of name and aliases) that the
   * question (and, in per-target mode, the target's query) contains. A node that the question
   * names keeps its score; a node that is merely an endpoint of a matching relation ("information"
   * in "information is available at the initial evaluation") is discounted. Default 0.5; 0 = off.
   */
  mentionWeight?: number;
  /**
   * κ of the passage term of a relation hit: its score becomes (1 − κ)·score + κ·p(e), where p(e) is
   * the BM25 of the query over the best window overlapping a chunk of one of e's sentences, divided
   * by the query's best window (needs `index.lexical.windows`). Default 0.5 (tuned on the Medical
   * development questions); 0 = off.
   */
  contextWeight?: number;
  /** Selector id (default 'mosaic-seeds'). */
  id?: string;
}

/** The score components behind one candidate of one query. */
export interface SeedComponents {
  nodeId: string;
  query: string;
  /** Dense entity-index similarity (clamped to [0,1]; 0 when not among the hits). */
  entityDense: number;
  /** Normalised BM25 entity score (0 without a lexical index or hit). */
  entityLexical: number;
  /** Dense similarity of the relation that gave s_rel. */
  relationDense: number;
  /** Normalised BM25 score of that relation. */
  relationLexical: number;
  /** Passage term of that relation (0 when off). */
  relationPassage: number;
  /** The incident relation hit with the best fused score (s_rel = its score). */
  viaRelation?: string;
  /** m(v): share of the node name's content tokens found in the query (1 when the mention factor is off). */
  mention: number;
}

/** SeedTrace plus how the queries were formed and the fusion components. */
export interface SeedSelectionTrace extends SeedTrace {
  /** The policy's seed query mode. */
  mode: SeedQueryMode;
  /** The mode actually used after fallbacks (per-target/compact fall back to full when empty). */
  effectiveMode: SeedQueryMode;
  selectionMode: SelectionMode;
  /** λ used for entity and relation scores (0 when the index has no lexical index). */
  lexicalWeight: { entities: number; relations: number };
  /** μ of the mention factor and κ of the passage term (0 when the index has no lexical window index). */
  mentionWeight: number;
  contextWeight: number;
  /** Components of the traced candidates, in the same order. */
  components: SeedComponents[];
  /** Entries kept per target before deduplication (per-target mode), as "targetIndex:nodeId". */
  reserved: string[];
}

interface SeedQuery {
  text: string;
  vector?: Float32Array;
  targetIndex?: number;
}

interface Candidate {
  seed: Seed;
  components: SeedComponents;
}

function clamp01(value: number): number {
  if (!Number.isFinite(value) || value <= 0) return 0;
  return value >= 1 ? 1 : value;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Best first: score, then node id, then target index. */
function compareCandidates(a: Candidate, b: Candidate): number {
  return (
    b.seed.score - a.seed.score ||
    compareStrings(a.seed.nodeId, b.seed.nodeId) ||
    (a.seed.targetIndex ?? -1) - (b.seed.targetIndex ?? -1)
  );
}

function checkRange(value: number | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new InvalidArgumentError({ argument: name, message: `must lie in [${min}, ${max}]` });
  }
  return value;
}

async function denseHits(index: VectorIndex, ids: readonly string[], vector: Float32Array, k: number): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const limit = Math.min(k, index.size, ids.length);
  if (limit <= 0) return out;
  for (const hit of await index.search(vector, limit)) {
    const id = ids[hit.label];
    if (id !== undefined && !out.has(id)) out.set(id, clamp01(hit.score));
  }
  return out;
}

/** BM25 hits normalised by the query's best hit (so the best scores 1). */
function lexicalHits(index: LexicalIndex | undefined, ids: readonly string[], text: string, k: number): Map<string, number> {
  const out = new Map<string, number>();
  if (!index || k <= 0) return out;
  const hits = index.search(text, k);
  let best = 0;
  for (const hit of hits) best = Math.max(best, hit.score);
  if (best <= 0) return out;
  for (const hit of hits) {
    const id = ids[hit.label];
    if (id !== undefined && !out.has(id) && hit.score > 0) out.set(id, hit.score / best);
  }
  return out;
}

function formQueries(options: StageOptions): { queries: SeedQuery[]; effectiveMode: SeedQueryMode } {
  const { context } = options;
  const policy = context.policy;
  const full: SeedQuery = { text: context.question.text, vector: context.queryVector };
  const clean = (texts: readonly string[] | undefined) => (texts ?? []).map((text) => text.trim()).filter((text) => text.length > 0);
  if (policy.seedQueryMode === 'compact') {
    const compact = (policy.compactQuery ?? '').trim();
    return compact.length > 0 ? { queries: [{ text: compact }], effectiveMode: 'compact' } : { queries: [full], effectiveMode: 'full' };
  }
  if (policy.seedQueryMode === 'per-target') {
    let texts = clean(policy.perTargetQueries);
    if (texts.length === 0) texts = clean(policy.targetEntities);
    if (texts.length === 0) return { queries: [full], effectiveMode: 'full' };
    return { queries: texts.map((text, targetIndex) => ({ text, targetIndex })), effectiveMode: 'per-target' };
  }
  return { queries: [full], effectiveMode: 'full' };
}

/** The selector's options, checked once, with their defaults. */
interface SeedSettings {
  lexicalWeight: number;
  mentionWeight: number;
  contextWeight: number;
  hybridEntityWeight: number;
  perTargetReserve: number;
  traceCandidates: number;
  entityCandidates?: number;
  relationCandidates?: number;
}

/** One selection: the stage input and what the policy and the index decide for it. */
interface SeedRun extends StageOptions {
  settings: SeedSettings;
  seedLimit: number;
  selectionMode: SelectionMode;
  /** Index hits fetched per query. */
  entityK: number;
  relationK: number;
  lexicalEntities?: LexicalIndex;
  lexicalRelations?: LexicalIndex;
  /** λ actually applied (0 without the lexical index). */
  lambdaEntities: number;
  lambdaRelations: number;
}

/** The index hits of one query. */
interface QueryHits {
  query: SeedQuery;
  entityDense: Map<string, number>;
  entityLexical: Map<string, number>;
  relationDense: Map<string, number>;
  relationLexical: Map<string, number>;
}

/** The best relation hit incident to a node, for one query (its score is s_rel). */
interface RelationBest {
  score: number;
  relation: string;
  dense: number;
  lexical: number;
  passage: number;
}

function resolveSettings(options: SeedSelectorOptions): SeedSettings {
  const count = (value: number | undefined, name: string, fallback: number, min: number) => Math.floor(checkRange(value, name, fallback, min, Number.MAX_SAFE_INTEGER));
  return {
    lexicalWeight: checkRange(options.lexicalWeight, 'lexicalWeight', 0.8, 0, 1),
    mentionWeight: checkRange(options.mentionWeight, 'mentionWeight', 0.5, 0, 1),
    contextWeight: checkRange(options.contextWeight, 'contextWeight', 0.5, 0, 1),
    hybridEntityWeight: checkRange(options.hybridEntityWeight, 'hybridEntityWeight', 0.3, 0, 1),
    perTargetReserve: count(options.perTargetReserve, 'perTargetReserve', 2, 0),
    traceCandidates: count(options.traceCandidates, 'traceCandidates', 50, 0),
    entityCandidates: options.entityCandidates === undefined ? undefined : count(options.entityCandidates, 'entityCandidates', 1, 1),
    relationCandidates: options.relationCandidates === undefined ? undefined : count(options.relationCandidates, 'relationCandidates', 1, 1),
  };
}

/** Check the policy and the query vector; decide K, the selection mode, the candidate counts and λ. */
function startRun(stageOptions: StageOptions, settings: SeedSettings): SeedRun {
  const { context, index } = stageOptions;
  const policy = context.policy;
  if (!Number.isFinite(policy.seedLimit) || policy.seedLimit < 1) {
    throw new InvalidArgumentError({ argument: 'policy.seedLimit', message: 'must be a number ≥ 1' });
  }
  const seedLimit = Math.floor(policy.seedLimit);
  if (context.queryVector.length !== index.entityIndex.dimension) {
    throw new DimensionMismatchError({ expected: index.entityIndex.dimension, actual: context.queryVector.length, what: 'Query vector' });
  }
  const lexicalEntities = settings.lexicalWeight > 0 ? index.lexical?.entities : undefined;
  const lexicalRelations = settings.lexicalWeight > 0 ? index.lexical?.relations : undefined;
  return {
    ...stageOptions,
    settings,
    seedLimit,
    selectionMode: policy.selectionMode === 'hybrid' ? 'hybrid' : 'relation-only',
    entityK: settings.entityCandidates ?? Math.max(20, 4 * seedLimit),
    relationK: settings.relationCandidates ?? Math.max(30, 6 * seedLimit),
    lexicalEntities,
    lexicalRelations,
    lambdaEntities: lexicalEntities ? settings.lexicalWeight : 0,
    lambdaRelations: lexicalRelations ? settings.lexicalWeight : 0,
  };
}

/** Encode the queries without a vector (the full question reuses the context vector) in one batch. */
async function encodeQueries(run: SeedRun, queries: SeedQuery[]): Promise<void> {
  const toEncode = queries.filter((query) => !query.vector);
  if (toEncode.length === 0) return;
  const vectors = await run.index.encoder.encode(
    toEncode.map((query) => query.text),
    { abortSignal: run.abortSignal },
  );
  toEncode.forEach((query, i) => {
    query.vector = vectors[i];
  });
  throwIfAborted(run.abortSignal, 'seed selection');
}

/** Dense and lexical entity and relation hits of every query. */
async function queryHits(run: SeedRun, queries: readonly SeedQuery[]): Promise<QueryHits[]> {
  const { index } = run;
  const perQuery: QueryHits[] = [];
  for (const query of queries) {
    const entityDense = await denseHits(index.entityIndex, index.entityIds, query.vector!, run.entityK);
    const relationDense = await denseHits(index.relationIndex, index.relationIds, query.vector!, run.relationK);
    const entityLexical = lexicalHits(run.lexicalEntities, index.entityIds, query.text, run.entityK);
    const relationLexical = lexicalHits(run.lexicalRelations, index.relationIds, query.text, run.relationK);
    perQuery.push({ query, entityDense, entityLexical, relationDense, relationLexical });
    throwIfAborted(run.abortSignal, 'seed selection');
  }
  return perQuery;
}

/** Every relation hit of any query, read from the graph in one call. */
async function relationsHit(run: SeedRun, perQuery: readonly QueryHits[]): Promise<Map<string, RelationEdge>> {
  const ids = new Set<string>();
  for (const entry of perQuery) {
    for (const id of entry.relationDense.keys()) ids.add(id);
    for (const id of entry.relationLexical.keys()) ids.add(id);
  }
  const edges = new Map<string, RelationEdge>();
  if (ids.size > 0) for (const edge of await run.index.graph.getEdges([...ids].sort(compareStrings))) edges.set(edge.id, edge);
  return edges;
}

/**
 * Per query, the best relation hit incident to each node: (1 − λ)·dense + λ·bm25, with the passage
 * term (1 − κ)·score + κ·p(e) when the index has a lexical window index (one passage relevance per
 * distinct query).
 */
function bestRelations(run: SeedRun, perQuery: readonly QueryHits[], edges: ReadonlyMap<string, RelationEdge>): Map<string, RelationBest>[] {
  const { contextWeight } = run.settings;
  const passages = new Map<string, PassageRelevance | undefined>();
  const passageOf = (query: string): PassageRelevance | undefined => {
    if (contextWeight === 0) return undefined;
    if (!passages.has(query)) passages.set(query, passageRelevance(run.index, query));
    return passages.get(query);
  };
  return perQuery.map((entry) => {
    const best = new Map<string, RelationBest>();
    const relationIds = new Set([...entry.relationDense.keys(), ...entry.relationLexical.keys()]);
    for (const relation of [...relationIds].sort(compareStrings)) {
      const edge = edges.get(relation);
      if (!edge) continue;
      const dense = entry.relationDense.get(relation) ?? 0;
      const lexical = entry.relationLexical.get(relation) ?? 0;
      const own = (1 - run.lambdaRelations) * dense + run.lambdaRelations * lexical;
      const passage = passageOf(entry.query.text);
      const passageScore = passage ? passage.relation(edge) : 0;
      const score = passage ? (1 - contextWeight) * own + contextWeight * passageScore : own;
      for (const node of [edge.source, edge.target]) {
        const current = best.get(node);
        if (!current || score > current.score) best.set(node, { score, relation, dense, lexical, passage: passageScore });
      }
    }
    return best;
  });
}

/**
 * The names of every candidate node (one graph call) and the mention factor m(v): the share of the
 * content tokens of v's name (best of name and aliases) that the question and the query contain.
 */
async function nodeNames(
  run: SeedRun,
  perQuery: readonly QueryHits[],
  relationBest: readonly Map<string, RelationBest>[],
): Promise<{ names: Map<string, string>; mentionOf: (nodeId: string, query: SeedQuery) => number }> {
  const { mentionWeight } = run.settings;
  const question = run.context.question.text;
  const nodeIds = new Set<string>();
  perQuery.forEach((entry, i) => {
    for (const id of entry.entityDense.keys()) nodeIds.add(id);
    for (const id of entry.entityLexical.keys()) nodeIds.add(id);
    for (const id of relationBest[i].keys()) nodeIds.add(id);
  });
  const names = new Map<string, string>();
  const nameTokens = new Map<string, Set<string>[]>();
  if (nodeIds.size > 0) {
    for (const node of await run.index.graph.getNodes([...nodeIds].sort(compareStrings))) {
      names.set(node.id, node.name);
      if (mentionWeight > 0) nameTokens.set(node.id, [node.name, ...(node.aliases ?? [])].map((name) => new Set(matchTokens(name))));
    }
  }
  const questionTokens = matchTokens(question);
  const queryTokenSets = new Map<string, Set<string>>();
  const mentionOf = (nodeId: string, query: SeedQuery): number => {
    if (mentionWeight === 0) return 1;
    let queryTokens = queryTokenSets.get(query.text);
    if (!queryTokens) {
      queryTokens = new Set([...questionTokens, ...(query.text === question ? [] : matchTokens(query.text))]);
      queryTokenSets.set(query.text, queryTokens);
    }
    let best = 0;
    for (const tokens of nameTokens.get(nodeId) ?? []) if (tokens.size > 0) best = Math.max(best, tokenContainment(tokens, queryTokens));
    return best;
  };
  return { names, mentionOf };
}

/** The candidates of one query, best first: s_seed = s_rel (relation-only) or 0.3·s_ent + 0.7·s_rel (hybrid), times the mention factor. */
function rankQuery(
  run: SeedRun,
  entry: QueryHits,
  relationBest: ReadonlyMap<string, RelationBest>,
  names: ReadonlyMap<string, string>,
  mentionOf: (nodeId: string, query: SeedQuery) => number,
): Candidate[] {
  const { mentionWeight, hybridEntityWeight } = run.settings;
  const ids = new Set([...entry.entityDense.keys(), ...entry.entityLexical.keys(), ...relationBest.keys()]);
  const list: Candidate[] = [];
  for (const nodeId of ids) {
    const name = names.get(nodeId);
    if (name === undefined) continue;
    const entityDense = entry.entityDense.get(nodeId) ?? 0;
    const entityLexical = entry.entityLexical.get(nodeId) ?? 0;
    const entityScore = (1 - run.lambdaEntities) * entityDense + run.lambdaEntities * entityLexical;
    const relation = relationBest.get(nodeId);
    const relationScore = relation?.score ?? 0;
    const mention = mentionOf(nodeId, entry.query);
    const score =
      (run.selectionMode === 'hybrid' ? hybridEntityWeight * entityScore + (1 - hybridEntityWeight) * relationScore : relationScore) *
      (1 - mentionWeight + mentionWeight * mention);
    if (!(score > 0)) continue;
    list.push({
      seed: {
        nodeId,
        name,
        entityScore,
        relationScore,
        score,
        query: entry.query.text,
        ...(entry.query.targetIndex !== undefined ? { targetIndex: entry.query.targetIndex } : {}),
      },
      components: {
        nodeId,
        query: entry.query.text,
        entityDense,
        entityLexical,
        relationDense: relation?.dense ?? 0,
        relationLexical: relation?.lexical ?? 0,
        relationPassage: relation?.passage ?? 0,
        ...(relation ? { viaRelation: relation.relation } : {}),
        mention,
      },
    });
  }
  return list.sort(compareCandidates);
}

/**
 * The seeds: per-target reservations first (round-robin over the targets' ranked lists), then
 * every candidate by score; the first `seedLimit` distinct nodes.
 */
function chooseSeeds(run: SeedRun, ranked: readonly Candidate[][], effectiveMode: SeedQueryMode) {
  const reserved: Candidate[] = [];
  if (effectiveMode === 'per-target') {
    for (let rank = 0; rank < run.settings.perTargetReserve; rank += 1) {
      for (const list of ranked) if (list[rank]) reserved.push(list[rank]);
    }
  }
  const reservedSet = new Set(reserved);
  const merged = ranked.flat().sort(compareCandidates);
  const ordered = [...reserved, ...merged.filter((candidate) => !reservedSet.has(candidate))];
  const seeds: Seed[] = [];
  const chosen = new Set<string>();
  let deduplicated = 0;
  for (const candidate of ordered) {
    if (seeds.length >= run.seedLimit) break;
    if (chosen.has(candidate.seed.nodeId)) {
      deduplicated += 1;
      continue;
    }
    chosen.add(candidate.seed.nodeId);
    seeds.push(candidate.seed);
  }
  return { seeds, deduplicated, reserved, merged };
}

/**
 * Seed selection (report §5.3). Per query: s_ent(v) from the entity index, s_rel(v) = the best
 * score among the relation-index hits incident to v; both optionally fused with BM25.
 * relation-only: s_seed = s_rel; hybrid: s_seed = 0.3·s_ent + 0.7·s_rel. Seeds are the top-K
 * distinct nodes; in per-target mode the two best candidates of every target are kept first.
 */
export function createSeedSelector(options: SeedSelectorOptions = {}): SeedSelector {
  const settings = resolveSettings(options);

  async function selectSeeds(stageOptions: StageOptions): Promise<SeedSelection> {
    throwIfAborted(stageOptions.abortSignal, 'seed selection');
    const run = startRun(stageOptions, settings);
    const { queries, effectiveMode } = formQueries(stageOptions);
    await encodeQueries(run, queries);
    const perQuery = await queryHits(run, queries);
    const relationBest = bestRelations(run, perQuery, await relationsHit(run, perQuery));
    const { names, mentionOf } = await nodeNames(run, perQuery, relationBest);
    throwIfAborted(run.abortSignal, 'seed selection');
    const ranked = perQuery.map((entry, i) => rankQuery(run, entry, relationBest[i], names, mentionOf));
    const { seeds, deduplicated, reserved, merged } = chooseSeeds(run, ranked, effectiveMode);
    const traced = merged.slice(0, settings.traceCandidates);
    const trace: SeedSelectionTrace = {
      queries: queries.map((query) => query.text),
      candidates: traced.map((candidate) => candidate.seed),
      seeds,
      deduplicated,
      mode: run.context.policy.seedQueryMode,
      effectiveMode,
      selectionMode: run.selectionMode,
      lexicalWeight: { entities: run.lambdaEntities, relations: run.lambdaRelations },
      mentionWeight: settings.mentionWeight,
      contextWeight: run.index.lexical?.windows ? settings.contextWeight : 0,
      components: traced.map((candidate) => candidate.components),
      reserved: reserved.map((candidate) => `${candidate.seed.targetIndex}:${candidate.seed.nodeId}`),
    };
    return { seeds, trace };
  }

  return { specificationVersion: 'v1', id: options.id ?? 'mosaic-seeds', selectSeeds };
}
