import { describe, expect, it } from 'vitest';
import { createBeamTraverser } from '@mosaic/traversal';
import { createSeedSelector } from '@mosaic/seed-selection';
import { createOfflineAnalyzer } from '@mosaic/analyzer';
import { createExtractiveGenerator } from '@mosaic/generation';
import { StageResultError } from '@mosaic/spec';
import type { Analyzer, Generator, SeedSelector, Traverser } from '@mosaic/spec';
import { createMosaic } from './create-mosaic.js';
import { buildMedicalIndex, MULTI_HOP } from './__fixtures__/medical-index.js';

async function failure(run: () => Promise<unknown>): Promise<StageResultError> {
  try {
    await run();
  } catch (error) {
    if (StageResultError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a StageResultError');
}

describe('createMosaic checks each stage result at the boundary', () => {
  it('names the stage and the field of a path edge the graph does not hold', async () => {
    const index = await buildMedicalIndex();
    const beam = createBeamTraverser();
    const traverser: Traverser = {
      specificationVersion: 'v1',
      id: 'bogus-edges',
      async traverse(options) {
        const result = await beam.traverse(options);
        const [head, ...rest] = result.paths;
        return { ...result, paths: [{ ...head, edges: ['no-such-edge', ...head.edges.slice(1)] }, ...rest] };
      },
    };
    const error = await failure(() => createMosaic({ index, traverser }).retrieve({ question: MULTI_HOP.question }));
    expect(error.name).toBe('MosaicStageResultError');
    expect({ stage: error.stage, field: error.field, implementation: error.implementation }).toEqual({
      stage: 'traverse',
      field: 'paths[0].edges[0]',
      implementation: 'bogus-edges',
    });
  });

  it('names a seed node id the graph does not hold, and a result that is not an array', async () => {
    const index = await buildMedicalIndex();
    const real = createSeedSelector();
    const invented: SeedSelector = {
      specificationVersion: 'v1',
      id: 'invented',
      async selectSeeds(options) {
        const result = await real.selectSeeds(options);
        return { ...result, seeds: [...result.seeds, { ...result.seeds[0], nodeId: 'made-up' }] };
      },
    };
    const seedError = await failure(() => createMosaic({ index, seedSelector: invented }).retrieve({ question: MULTI_HOP.question }));
    expect(seedError.stage).toBe('seeds');
    expect(seedError.field).toMatch(/^seeds\[\d+\]\.nodeId$/);

    const scalar = { specificationVersion: 'v1', id: 'scalar', selectSeeds: async () => ({ seeds: 'veltrane', trace: {} }) } as unknown as SeedSelector;
    const scalarError = await failure(() => createMosaic({ index, seedSelector: scalar }).retrieve({ question: MULTI_HOP.question }));
    expect([scalarError.stage, scalarError.field]).toEqual(['seeds', 'seeds']);
  });

  it('names an analyzer policy field out of range, and a citation outside the windows', async () => {
    const index = await buildMedicalIndex();
    const offline = createOfflineAnalyzer();
    const greedy: Analyzer = {
      specificationVersion: 'v1',
      id: 'greedy',
      analyze: async (options) => {
        const analysis = await offline.analyze(options);
        return { ...analysis, policy: { ...analysis.policy, maxDepth: 40 } };
      },
    };
    const analyzerError = await failure(() => createMosaic({ index, analyzer: greedy }).retrieve({ question: MULTI_HOP.question }));
    expect([analyzerError.stage, analyzerError.field]).toEqual(['analyze', 'policy.maxDepth']);

    const extractive = createExtractiveGenerator();
    const generator: Generator = {
      specificationVersion: 'v1',
      id: 'over-citing',
      generate: async (options) => ({ ...(await extractive.generate(options)), citations: [{ window: 99, windowId: 'w' }] }),
    };
    const generatorError = await failure(() => createMosaic({ index, generator }).ask({ question: MULTI_HOP.question }));
    expect([generatorError.stage, generatorError.field]).toEqual(['generate', 'citations[0].window']);
  });

  it('checkResults: false lets a result through unchecked', async () => {
    const index = await buildMedicalIndex();
    const beam = createBeamTraverser();
    const traverser: Traverser = {
      specificationVersion: 'v1',
      id: 'bogus-edges',
      async traverse(options) {
        const result = await beam.traverse(options);
        return { ...result, paths: result.paths.map((path) => ({ ...path, edges: path.edges.map(() => 'no-such-edge') })) };
      },
    };
    const result = await createMosaic({ index, traverser, checkResults: false }).retrieve({ question: MULTI_HOP.question });
    expect(result.windows.length).toBeGreaterThan(0);
  });
});
