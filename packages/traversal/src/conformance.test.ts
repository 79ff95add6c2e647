import { createStageFixture } from '@mosaic/testing/conformance';
import { describe, expect, it } from 'vitest';
import { createBeamTraverser } from './beam-traverser.js';
import { checkTraverserConformance } from './conformance.js';
import type { Traverser } from '@mosaic/spec';

describe('checkTraverserConformance', () => {
  it('passes the beam traverser (default options and fixed depth)', async () => {
    const fixture = await createStageFixture();
    const report = await checkTraverserConformance({ traverser: createBeamTraverser(), fixture });
    expect(report.failures).toEqual([]);
    expect(report.checks.length).toBeGreaterThanOrEqual(11);
    const fixed = await checkTraverserConformance({
      traverser: createBeamTraverser(),
      fixture: { ...fixture, context: { ...fixture.context, policy: { ...fixture.context.policy, fixedDepth: true, useConnector: false } } },
    });
    expect(fixed.failures).toEqual([]);
  });

  it('fails a traverser that returns a bogus edge id, a repeated node and an unsorted list', async () => {
    const beam = createBeamTraverser();
    const broken: Traverser = {
      specificationVersion: 'v1',
      id: 'broken',
      async traverse(options) {
        const result = await beam.traverse(options);
        const [head, ...rest] = result.paths;
        const bogus = { ...head, id: `${head.id}|x`, edges: [...head.edges.slice(0, -1), 'no-such-edge'] };
        const loop = { ...head, id: `${head.id}|loop`, nodes: [head.nodes[0], head.nodes[0]], edges: [head.edges[0]], depth: 1 };
        return { ...result, paths: [...rest, bogus, loop, head] };
      },
    };
    const report = await checkTraverserConformance({ traverser: broken });
    expect(report.passed).toBe(false);
    const failed = report.checks.filter((check) => !check.passed).map((check) => check.name);
    expect(failed).toEqual(
      expect.arrayContaining([
        'paths are simple: no node repeated',
        'only real node and edge ids; each edge joins its two nodes',
        'best first: scores never increase',
      ]),
    );
  });

  it('fails a traverser that ignores the abort signal and maxDepth', async () => {
    const beam = createBeamTraverser();
    const careless: Traverser = {
      specificationVersion: 'v1',
      id: 'careless',
      traverse: (options) =>
        beam.traverse({
          ...options,
          abortSignal: undefined,
          context: { ...options.context, policy: { ...options.context.policy, maxDepth: 3, fixedDepth: true } },
        }),
    };
    const report = await checkTraverserConformance({ traverser: careless });
    const failed = report.checks.filter((check) => !check.passed).map((check) => check.name);
    expect(failed).toEqual(expect.arrayContaining(['rejects with MosaicAbortedError when the signal is already aborted', 'depth is between 1 and maxDepth']));
  });
});
