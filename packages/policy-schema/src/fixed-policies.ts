import type { Policy } from '@mosaic/spec';
import { InvalidArgumentError } from '@mosaic/spec';
import { DEFAULT_POLICY } from './policy-ranges.js';

/** Names of the canonical fixed baselines of report Table 6. */
export type FixedPolicyName = 'narrow' | 'medium' | 'wide';

const FIXED_SHAPES: Record<FixedPolicyName, Pick<Policy, 'seedLimit' | 'maxDepth' | 'beamWidth' | 'evidenceCount' | 'minEvidence'>> = {
  // Table 6: evidence "1–3" → floor L = 1, cap B = 3.
  narrow: { seedLimit: 3, maxDepth: 2, beamWidth: 4, evidenceCount: 3, minEvidence: 1 },
  // Table 6: evidence "5–8" → L = 5, B = 8.
  medium: { seedLimit: 5, maxDepth: 4, beamWidth: 8, evidenceCount: 8, minEvidence: 5 },
  // Table 6: evidence "12–15" → L = 12, B = 15; width 16 is beyond the analyzer's 4–12 range.
  wide: { seedLimit: 10, maxDepth: 5, beamWidth: 16, evidenceCount: 15, minEvidence: 12 },
};

function build(name: FixedPolicyName): Policy {
  return {
    ...DEFAULT_POLICY,
    ...FIXED_SHAPES[name],
    // Fixed baselines traverse to their depth (the report's Fixed Wide reaches depth 5.00 on every
    // question): `fixedDepth` turns the low-gain stop off; 'deep' is recorded as the nominal regime.
    stopRegime: 'deep',
    fixedDepth: true,
    targetEntities: [],
    targetFacets: [],
    retrievalRisk: '',
    rationale: `fixed:${name} baseline (report Table 6); not question-aware`,
    compactQuery: '',
    perTargetQueries: [],
  };
}

/** The canonical fixed policies (report Table 6). Frozen; use `fixedPolicy(name)` for a mutable copy. */
export const FIXED_POLICIES: Readonly<Record<FixedPolicyName, Readonly<Policy>>> = Object.freeze({
  narrow: Object.freeze(build('narrow')),
  medium: Object.freeze(build('medium')),
  wide: Object.freeze(build('wide')),
});

/** Names accepted by `fixedPolicy`. */
export const FIXED_POLICY_NAMES: readonly FixedPolicyName[] = Object.freeze(['narrow', 'medium', 'wide']);

/**
 * A fresh copy of a fixed baseline policy. Bypasses validation on purpose: Table 6 sets values outside
 * the analyzer's ranges (width 16, evidence cap 3). Throws InvalidArgumentError for an unknown name.
 */
export function fixedPolicy(name: FixedPolicyName): Policy {
  if (!(FIXED_POLICY_NAMES as readonly string[]).includes(name)) {
    throw new InvalidArgumentError({ argument: 'name', message: `unknown fixed policy '${String(name)}' (narrow, medium, wide)` });
  }
  return build(name);
}
