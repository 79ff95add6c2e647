// Test oracle: this file as it was before the performance work (commit d6aeda6), unchanged.
// The optimised implementation must return deep-equal results; see performance-equivalence.test.ts.

import { DimensionMismatchError, throwIfAborted } from '@mosaic/spec';
import type { CorpusIndex, QueryContext, VectorIndex } from '@mosaic/spec';
import { contentTokens } from './text-tokens.js';

/** One target entity or facet of the policy, with its dense scores against an index. */
export interface QuestionAspect {
  text: string;
  /** Distinct content tokens of the text. */
  tokens: ReadonlySet<string>;
  /** Dense similarity (clamped to [0,1]) of indexed items (node ids for targets, relation ids for facets). */
  dense: ReadonlyMap<string, number>;
}

/** Everything the traversal needs to know about the question, computed once. */
export interface QuestionSignals {
  /** Cosine of each relation to the question, clamped to [0,1]; unseen relations score 0. */
  relationScores: ReadonlyMap<string, number>;
  /** Cosine of each entity to the question, clamped to [0,1]; unseen entities score 0. */
  entityScores: ReadonlyMap<string, number>;
  targets: QuestionAspect[];
  facets: QuestionAspect[];
  /** Encoder calls made (0 or 1). */
  encoderCalls: number;
}

export interface BuildQuestionSignalsOptions {
  index: CorpusIndex;
  context: QueryContext;
  /** Cap on k for the per-question index searches (default: the whole index). */
  searchLimit?: number;
  abortSignal?: AbortSignal;
}

function clamp01(value: number): number {
  if (!Number.isFinite(value) || value <= 0) return 0;
  return value >= 1 ? 1 : value;
}

async function scoreAll(
  index: VectorIndex,
  ids: readonly string[],
  query: Float32Array,
  limit: number,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const k = Math.min(index.size, ids.length, limit);
  if (k <= 0) return out;
  for (const hit of await index.search(query, k)) {
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
 * Question-level signals: one relation-index and one entity-index search with the question
 * vector, and — when the policy names targets or facets — one batched encoder call for their
 * texts plus one entity-index search per target and one relation-index search per facet.
 */
export async function buildQuestionSignals(options: BuildQuestionSignalsOptions): Promise<QuestionSignals> {
  const { index, context, abortSignal } = options;
  const limit = options.searchLimit ?? Number.POSITIVE_INFINITY;
  const queryVector = context.queryVector;
  if (queryVector.length !== index.relationIndex.dimension) {
    throw new DimensionMismatchError({
      expected: index.relationIndex.dimension,
      actual: queryVector.length,
      what: 'Query vector',
    });
  }
  const relationScores = await scoreAll(index.relationIndex, index.relationIds, queryVector, limit);
  const entityScores = await scoreAll(index.entityIndex, index.entityIds, queryVector, limit);
  throwIfAborted(abortSignal, 'traversal');

  const targetTexts = distinctTexts(context.policy.targetEntities ?? []);
  const facetTexts = distinctTexts(context.policy.targetFacets ?? []);
  const all = [...targetTexts, ...facetTexts];
  let vectors: Float32Array[] = [];
  let encoderCalls = 0;
  if (all.length > 0) {
    vectors = await index.encoder.encode(all, { abortSignal });
    encoderCalls = 1;
    throwIfAborted(abortSignal, 'traversal');
  }
  const targets: QuestionAspect[] = [];
  for (let i = 0; i < targetTexts.length; i += 1) {
    targets.push({
      text: targetTexts[i],
      tokens: new Set(contentTokens(targetTexts[i])),
      dense: await scoreAll(index.entityIndex, index.entityIds, vectors[i], limit),
    });
  }
  const facets: QuestionAspect[] = [];
  for (let i = 0; i < facetTexts.length; i += 1) {
    facets.push({
      text: facetTexts[i],
      tokens: new Set(contentTokens(facetTexts[i])),
      dense: await scoreAll(index.relationIndex, index.relationIds, vectors[targetTexts.length + i], limit),
    });
  }
  return { relationScores, entityScores, targets, facets, encoderCalls };
}
