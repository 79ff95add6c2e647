import { describe, expect, it } from 'vitest';
import { FIXED_POLICIES, FIXED_POLICY_NAMES, fixedPolicy, type FixedPolicyName } from './fixed-policies.js';
import { DEFAULT_POLICY } from './policy-ranges.js';
import { policySchema } from './policy-schema.js';
import { validatePolicy } from './validate-policy.js';

describe('fixed policies (report Table 6)', () => {
  it.each([
    ['narrow', { seedLimit: 3, maxDepth: 2, beamWidth: 4, evidenceCount: 3, minEvidence: 1 }],
    ['medium', { seedLimit: 5, maxDepth: 4, beamWidth: 8, evidenceCount: 8, minEvidence: 5 }],
    ['wide', { seedLimit: 10, maxDepth: 5, beamWidth: 16, evidenceCount: 15, minEvidence: 12 }],
  ] as const)('%s has the Table 6 shape and defaults elsewhere', (name, shape) => {
    const policy = fixedPolicy(name);
    expect(policy).toMatchObject(shape);
    expect(FIXED_POLICIES[name]).toEqual(policy);
    expect(policy.stopRegime).toBe('deep');
    expect(policy.fixedDepth).toBe(true);
    expect(policy.seedQueryMode).toBe(DEFAULT_POLICY.seedQueryMode);
    expect(policy.selectionMode).toBe(DEFAULT_POLICY.selectionMode);
    expect(policy.anchorStrength).toBe(DEFAULT_POLICY.anchorStrength);
    expect(policy.useConnector).toBe(false);
    expect(policy.adaptiveFinalEvidence).toBe(false);
  });

  it('bypasses the analyzer ranges (wide width 16, narrow cap 3 fail the schema)', () => {
    expect(policySchema.safeParse(fixedPolicy('wide')).success).toBe(false);
    expect(policySchema.safeParse(fixedPolicy('narrow')).success).toBe(false);
    const { fixedDepth, ...medium } = fixedPolicy('medium');
    expect(fixedDepth).toBe(true);
    expect(policySchema.safeParse(medium).success).toBe(true);
  });

  it('returns independent copies; the table is frozen', () => {
    const a = fixedPolicy('wide');
    a.beamWidth = 1;
    a.targetEntities.push('x');
    expect(fixedPolicy('wide').beamWidth).toBe(16);
    expect(fixedPolicy('wide').targetEntities).toEqual([]);
    expect(Object.isFrozen(FIXED_POLICIES.wide)).toBe(true);
    expect(FIXED_POLICY_NAMES).toEqual(['narrow', 'medium', 'wide']);
  });

  it('fixedDepth is for baselines only: validation drops it from analyzer output', () => {
    const { policy, changes } = validatePolicy({ ...fixedPolicy('medium'), beamWidth: 8 });
    expect(policy.fixedDepth).toBeUndefined();
    expect(changes).toContainEqual(expect.objectContaining({ field: 'fixedDepth', kind: 'dropped' }));
  });

  it('throws InvalidArgumentError for an unknown name', () => {
    expect(() => fixedPolicy('huge' as FixedPolicyName)).toThrow(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
  });
});
