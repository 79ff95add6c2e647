import type { EvidenceSelector } from '@mosaic/spec';
import { describe, expect, it } from 'vitest';
import { checkEvidenceSelectorConformance } from './conformance.js';
import { createEvidenceSelector } from './evidence-selector.js';

describe('checkEvidenceSelectorConformance', () => {
  it('passes the evidence selector', async () => {
    const report = await checkEvidenceSelectorConformance({ evidenceSelector: createEvidenceSelector() });
    expect(report.failures).toEqual([]);
    expect(report.checks).toHaveLength(8);
  });

  it('fails a selector whose units name unknown chunks and unselected paths', async () => {
    const real = createEvidenceSelector();
    const broken: EvidenceSelector = {
      specificationVersion: 'v1',
      id: 'broken',
      async selectEvidence(options) {
        const result = await real.selectEvidence(options);
        const units = result.units.map((unit) => ({ ...unit, chunkIds: [...unit.chunkIds, 'no-such-chunk'], pathIds: ['not-selected'] }));
        return { ...result, units, trace: { ...result.trace, units } };
      },
    };
    const report = await checkEvidenceSelectorConformance({ evidenceSelector: broken });
    expect(report.checks.filter((check) => !check.passed).map((check) => check.name)).toEqual([
      'units are unique, point at real graph elements, known chunks and selected paths',
    ]);
  });
});
