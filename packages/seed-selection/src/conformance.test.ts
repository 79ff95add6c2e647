import type { Policy, SeedSelector } from '@mosaic/spec';
import { createStageFixture } from '@mosaic/testing/conformance';
import { describe, expect, it } from 'vitest';
import { checkSeedSelectorConformance } from './conformance.js';
import { createSeedSelector } from './seed-selector.js';

describe('checkSeedSelectorConformance', () => {
  it('passes the seed selector in every seed query mode and selection mode', async () => {
    const fixture = await createStageFixture();
    const variants: Array<Partial<Policy>> = [
      {},
      { seedQueryMode: 'compact', selectionMode: 'relation-only' },
      { seedQueryMode: 'per-target', perTargetQueries: ['veltrane dust', 'drug treatment'], targetEntities: ['veltrane dust', 'drug'] },
    ];
    for (const variant of variants) {
      const context = { ...fixture.context, policy: { ...fixture.context.policy, ...variant } };
      const report = await checkSeedSelectorConformance({ seedSelector: createSeedSelector(), fixture: { ...fixture, context } });
      expect(report.failures).toEqual([]);
    }
  });

  it('fails a selector that invents node ids and ignores the limit', async () => {
    const real = createSeedSelector();
    const broken: SeedSelector = {
      specificationVersion: 'v1',
      id: 'broken',
      async selectSeeds(options) {
        const result = await real.selectSeeds({ ...options, context: { ...options.context, policy: { ...options.context.policy, seedLimit: 5 } } });
        const seeds = [...result.seeds, { ...result.seeds[0], nodeId: 'no-such-node', score: -1 }, { ...result.seeds[0], nodeId: 'other', score: -2 }];
        return { seeds, trace: { ...result.trace, seeds } };
      },
    };
    const report = await checkSeedSelectorConformance({ seedSelector: broken });
    const failed = report.checks.filter((check) => !check.passed).map((check) => check.name);
    expect(failed).toEqual(expect.arrayContaining(['returns between 1 and seedLimit seeds', 'seeds are real graph nodes, each once, named as in the graph']));
  });
});
