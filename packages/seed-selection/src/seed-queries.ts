import { throwIfAborted, type Encoder, type QueryContext, type SeedQueryMode } from '@mosaic/spec';

/** One seed query: its text, its vector once encoded, and the target it stands for (per-target mode). */
export interface SeedQuery {
  text: string;
  vector?: Float32Array;
  targetIndex?: number;
}

/**
 * The queries of the policy's seed query mode: the full question (its vector is the context's), the
 * compact query, or one query per target (the per-target queries, else the target names). Compact
 * and per-target fall back to the full question when they have no text.
 */
export function formQueries(context: QueryContext): { queries: SeedQuery[]; effectiveMode: SeedQueryMode } {
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

/** Encodes the queries that have no vector yet, in one batch. */
export async function encodeQueries(encoder: Encoder, queries: SeedQuery[], abortSignal: AbortSignal | undefined): Promise<void> {
  const toEncode = queries.filter((query) => !query.vector);
  if (toEncode.length === 0) return;
  const vectors = await encoder.encode(
    toEncode.map((query) => query.text),
    { abortSignal },
  );
  toEncode.forEach((query, i) => {
    query.vector = vectors[i];
  });
  throwIfAborted(abortSignal, 'seed selection');
}
