import { DimensionMismatchError, InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type { SeedQueryMode, SeedSelection, SeedSelector, SeedTrace, SelectionMode, StageOptions } from '@mosaic/spec';
import { queryHits, hitRecords } from './index-hits.js';
import { mentionFactor } from './mention-factor.js';
import { relationScores } from './relation-scores.js';
import { encodeQueries, formQueries } from './seed-queries.js';
import { chooseSeeds, rankCandidates } from './seed-ranking.js';
import type { SeedComponents } from './seed-ranking.js';
import { checkTuning } from '@mosaic/stage-utils/internal';

export type { SeedComponents } from './seed-ranking.js';

/**
 * The options of `createSeedSelector` whose defaults were tuned for the offline stack (embedded
 * encoder, offline extractor) on the GraphRAG-Bench development split (docs/experiments.md). Another
 * encoder or extractor may want other values.
 */
export interface SeedSelectorTuning {
  /**
   * λ of the dense–lexical fusion score = (1 − λ)·dense + λ·bm25 (BM25 normalised so that the
   * query's best hit scores 1). Applied to entity and relation scores when `index.lexical` has
   * the matching index; 0 turns fusion off. Default 0.8.
   *
   * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
   */
  lexicalWeight?: number;
  /**
   * μ of the mention factor: every candidate's s_seed is multiplied by (1 − μ) + μ·m(v), where
   * m(v) is the share of the content tokens of v's name (best of name and aliases) that the
   * question (and, in per-target mode, the target's query) contains. A node that the question
   * names keeps its score; a node that is merely an endpoint of a matching relation ("information"
   * in "information is available at the initial evaluation") is discounted. Default 0.5; 0 = off.
   *
   * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
   */
  mentionWeight?: number;
  /**
   * κ of the passage term of a relation hit: its score becomes (1 − κ)·score + κ·p(e), where p(e) is
   * the BM25 of the query over the best window overlapping a chunk of one of e's sentences, divided
   * by the query's best window (needs `index.lexical.windows`). Default 0.5; 0 = off.
   *
   * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
   */
  contextWeight?: number;
}

const SEED_SELECTOR_TUNING_KEYS: (keyof SeedSelectorTuning)[] = ['lexicalWeight', 'mentionWeight', 'contextWeight'];

export interface SeedSelectorOptions {
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
  /** Selector id (default 'mosaic-seeds'). */
  id?: string;
  /** The options tuned for the offline stack (see `SeedSelectorTuning`); unknown keys are rejected. */
  tuning?: SeedSelectorTuning;
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

function checkRange(value: number | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new InvalidArgumentError({ argument: name, message: `must lie in [${min}, ${max}]` });
  }
  return value;
}

/**
 * Seed selection (report §5.3). Per query: s_ent(v) from the entity index, s_rel(v) = the best
 * score among the relation-index hits incident to v; both optionally fused with BM25.
 * relation-only: s_seed = s_rel; hybrid: s_seed = 0.3·s_ent + 0.7·s_rel. Seeds are the top-K
 * distinct nodes; in per-target mode the two best candidates of every target are kept first.
 * The phases live in their own modules: seed-queries (form and encode the queries), index-hits
 * (dense and BM25 hits), relation-scores (s_rel with the passage term), mention-factor, and
 * seed-ranking (s_seed, reservations, top-K).
 */
export function createSeedSelector(options: SeedSelectorOptions = {}): SeedSelector<SeedSelectionTrace> {
  const tuning = checkTuning<SeedSelectorTuning>(options, SEED_SELECTOR_TUNING_KEYS);
  const lexicalWeight = checkRange(tuning.lexicalWeight, 'tuning.lexicalWeight', 0.8, 0, 1);
  const mentionWeight = checkRange(tuning.mentionWeight, 'tuning.mentionWeight', 0.5, 0, 1);
  const contextWeight = checkRange(tuning.contextWeight, 'tuning.contextWeight', 0.5, 0, 1);
  const hybridEntityWeight = checkRange(options.hybridEntityWeight, 'hybridEntityWeight', 0.3, 0, 1);
  const perTargetReserve = Math.floor(checkRange(options.perTargetReserve, 'perTargetReserve', 2, 0, Number.MAX_SAFE_INTEGER));
  const traceCandidates = Math.floor(checkRange(options.traceCandidates, 'traceCandidates', 50, 0, Number.MAX_SAFE_INTEGER));
  const entityCandidatesOption =
    options.entityCandidates === undefined ? undefined : Math.floor(checkRange(options.entityCandidates, 'entityCandidates', 1, 1, Number.MAX_SAFE_INTEGER));
  const relationCandidatesOption =
    options.relationCandidates === undefined
      ? undefined
      : Math.floor(checkRange(options.relationCandidates, 'relationCandidates', 1, 1, Number.MAX_SAFE_INTEGER));

  async function selectSeeds(stageOptions: StageOptions): Promise<SeedSelection<SeedSelectionTrace>> {
    const { context, index, abortSignal } = stageOptions;
    throwIfAborted(abortSignal, 'seed selection');
    const policy = context.policy;
    if (!Number.isFinite(policy.seedLimit) || policy.seedLimit < 1) {
      throw new InvalidArgumentError({ argument: 'policy.seedLimit', message: 'must be a number ≥ 1' });
    }
    const seedLimit = Math.floor(policy.seedLimit);
    const selectionMode: SelectionMode = policy.selectionMode === 'hybrid' ? 'hybrid' : 'relation-only';
    if (context.queryVector.length !== index.entityIndex.dimension) {
      throw new DimensionMismatchError({ expected: index.entityIndex.dimension, actual: context.queryVector.length, what: 'Query vector' });
    }
    const lexical = {
      entities: lexicalWeight > 0 ? index.lexical?.entities : undefined,
      relations: lexicalWeight > 0 ? index.lexical?.relations : undefined,
    };
    const lambda = { entities: lexical.entities ? lexicalWeight : 0, relations: lexical.relations ? lexicalWeight : 0 };

    const { queries, effectiveMode } = formQueries(context);
    await encodeQueries(index.encoder, queries, abortSignal);
    const k = {
      entities: entityCandidatesOption ?? Math.max(20, 4 * seedLimit),
      relations: relationCandidatesOption ?? Math.max(30, 6 * seedLimit),
    };
    const hits = await queryHits({ index, queries, question: context.question.text, lexical, k, abortSignal });
    const { relations, nodes } = await hitRecords(index.graph, hits);
    const scored = relationScores({ index, hits, relations, lambda: lambda.relations, contextWeight, state: context.state, question: context.question.text });
    const mention = await mentionFactor({ graph: index.graph, known: nodes, scored, question: context.question.text, mentionWeight });
    throwIfAborted(abortSignal, 'seed selection');

    const ranked = rankCandidates({ scored, mention, lambda: lambda.entities, selectionMode, hybridEntityWeight, mentionWeight });
    const choice = chooseSeeds({ ranked, seedLimit, perTargetReserve: effectiveMode === 'per-target' ? perTargetReserve : 0 });
    const traced = choice.merged.slice(0, traceCandidates);
    const trace: SeedSelectionTrace = {
      queries: queries.map((query) => query.text),
      candidates: traced.map((candidate) => candidate.seed),
      seeds: choice.seeds,
      deduplicated: choice.deduplicated,
      mode: policy.seedQueryMode,
      effectiveMode,
      selectionMode,
      lexicalWeight: lambda,
      mentionWeight,
      contextWeight: index.lexical?.windows ? contextWeight : 0,
      components: traced.map((candidate) => candidate.components),
      reserved: choice.reserved.map((candidate) => `${candidate.seed.targetIndex}:${candidate.seed.nodeId}`),
    };
    return { seeds: choice.seeds, trace };
  }

  return { specificationVersion: 'v1', id: options.id ?? 'mosaic-seeds', selectSeeds };
}
