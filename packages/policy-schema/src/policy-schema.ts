import { z } from 'zod';
import type { Policy, PolicyControls, PolicyDiagnostics } from '@mosaic/spec';
import { DIAGNOSTIC_LIMITS, POLICY_RANGES } from './policy-ranges.js';

const R = POLICY_RANGES;
const L = DIAGNOSTIC_LIMITS;

function integer(range: { min: number; max: number; default: number }, description: string) {
  return z.number().int().min(range.min).max(range.max).describe(`${description} Integer ${range.min}–${range.max}, default ${range.default}.`);
}

/** The executable controls of report Table 3 (strict: unknown keys fail). */
export const policyControlsSchema = z.strictObject({
  seedLimit: integer(R.seedLimit, 'Deduplicated seed budget K: how many start nodes the graph search uses.'),
  seedQueryMode: z
    .enum(R.seedQueryMode.values as ['full', 'compact', 'per-target'])
    .describe(
      "How the seed query is formed: 'full' (the whole question), 'compact' (compactQuery keywords), " +
        "'per-target' (one query per target, from perTargetQueries). Default 'full'.",
    ),
  selectionMode: z
    .enum(R.selectionMode.values as ['relation-only', 'hybrid'])
    .describe(
      "Seed scoring: 'relation-only' (relation semantics) or 'hybrid' (0.3·entity + 0.7·relation; use when exact " +
        "entity identity matters). Default 'relation-only'.",
    ),
  maxDepth: integer(R.maxDepth, 'Hard traversal cap D in hops.'),
  beamWidth: integer(R.beamWidth, 'Partial paths kept per depth W.'),
  anchorStrength: z
    .number()
    .min(R.anchorStrength.min)
    .max(R.anchorStrength.max)
    .describe('Target focus and hub suppression a; >= 0.4 keeps exploration on an exact entity or subtype. Real 0–1, default 0.'),
  useConnector: z.boolean().describe('Cross-seed connector exploration: look for paths joining the regions of different targets. Default false.'),
  stopRegime: z
    .enum(R.stopRegime.values as ['shallow', 'medium', 'deep'])
    .describe(
      "Low-gain stopping sensitivity: 'shallow' stops at the first depth >= 2 where evidence looks complete, " +
        "'medium' and 'deep' keep exploring while new nodes/edges keep arriving. Default 'shallow'.",
    ),
  evidenceCount: integer(R.evidenceCount, 'Final evidence cap B (evidence units handed on).'),
  minEvidence: integer(R.minEvidence, 'Evidence preservation floor L (restored up to L when fewer remain).'),
  adaptiveFinalEvidence: z
    .boolean()
    .describe('Role-aware path reservation: reserve slots for connector, uncovered-target and uncovered-facet paths. Default false.'),
});

function stringList(limit: { maxLength: number; maxItems?: number }, description: string) {
  return z
    .array(z.string().max(limit.maxLength))
    .max(limit.maxItems ?? 8)
    .describe(`${description} At most ${limit.maxItems ?? 8} items of ${limit.maxLength} characters.`);
}

function text(limit: { maxLength: number }, description: string) {
  return z.string().max(limit.maxLength).describe(`${description} At most ${limit.maxLength} characters.`);
}

/** Diagnostics returned beside the controls (they never bypass validation). */
export const policyDiagnosticsSchema = z.strictObject({
  targetEntities: stringList(L.targetEntities, 'The entities the question is about, as they appear in it.'),
  targetFacets: stringList(L.targetFacets, 'The aspects asked about (e.g. symptoms, causes, treatment, risk).'),
  retrievalRisk: text(L.retrievalRisk, 'What could make retrieval miss the answer.'),
  rationale: text(L.rationale, 'Why these controls were chosen.'),
  compactQuery: text(L.compactQuery, "Compact keyword seed query (used in 'compact' mode)."),
  perTargetQueries: stringList(L.perTargetQueries, "One keyword query per target (used in 'per-target' mode)."),
});

/** A complete policy: controls plus diagnostics. */
export const policySchema = z.strictObject({
  ...policyControlsSchema.shape,
  ...policyDiagnosticsSchema.shape,
});

export type PolicySchemaOutput = z.infer<typeof policySchema>;

// Compile-time proof that the schema and the @mosaic/spec contract agree, both ways.
type AssertAssignable<A extends B, B> = A extends B ? true : never;
type Assertions = [
  AssertAssignable<z.infer<typeof policySchema>, Policy>,
  AssertAssignable<Policy, z.infer<typeof policySchema>>,
  AssertAssignable<z.infer<typeof policyControlsSchema>, PolicyControls>,
  AssertAssignable<PolicyControls, z.infer<typeof policyControlsSchema>>,
  AssertAssignable<z.infer<typeof policyDiagnosticsSchema>, PolicyDiagnostics>,
  AssertAssignable<PolicyDiagnostics, z.infer<typeof policyDiagnosticsSchema>>,
];
/** @internal exported only so that the assertions are type-checked, never used. */
export type PolicySchemaAssertions = Assertions;
