import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, FIXED_POLICIES } from '@mosaic/policy-schema';
import { forcedAnalysis } from './forced-policy.js';

describe('forcedAnalysis', () => {
  it('names a fixed baseline and returns its policy unchanged, outside the analyzer ranges included', () => {
    for (const name of ['narrow', 'medium', 'wide'] as const) {
      const analysis = forcedAnalysis(name);
      expect(analysis.analyzer).toBe(`fixed:${name}`);
      expect(analysis.policy).toEqual(FIXED_POLICIES[name]);
      expect(analysis.changes).toEqual([]);
    }
    expect(forcedAnalysis('wide').policy.beamWidth).toBe(16);
  });

  it('fills a partial policy from the defaults and records what it filled', () => {
    const analysis = forcedAnalysis({ seedLimit: 12, beamWidth: 20, useConnector: true });
    expect(analysis.analyzer).toBe('fixed:custom');
    expect(analysis.policy).toEqual({ ...DEFAULT_POLICY, seedLimit: 12, beamWidth: 20, useConnector: true });
    const defaulted = analysis.changes.map((change) => change.field);
    expect(defaulted).toContain('maxDepth');
    expect(defaulted).not.toContain('seedLimit');
    expect(analysis.changes.every((change) => change.kind === 'defaulted')).toBe(true);
  });

  it('rejects names and values that cannot execute', () => {
    const bad = [
      'huge',
      { seedLimit: 0 },
      { maxDepth: 2.5 },
      { minEvidence: -1 },
      { anchorStrength: 2 },
      { seedQueryMode: 'keywords' },
      { useConnector: 'yes' },
    ];
    for (const choice of bad) {
      expect(() => forcedAnalysis(choice as never)).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
    }
  });
});
