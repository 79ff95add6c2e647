import type { QueryContext, SeedSelection, SeedSelector } from '@mosaic/spec';
import { createConformanceRun, createStageFixture, ensure, ensureAbortHonoured, ensureSame } from '@mosaic/testing/conformance';
import type { ConformanceReport, StageFixture } from '@mosaic/testing/conformance';

export { createStageFixture, type ConformanceReport, type StageFixture } from '@mosaic/testing/conformance';

export interface SeedSelectorConformanceOptions {
  seedSelector: SeedSelector;
  /** Index and context to run on (default: `createStageFixture()` of @mosaic/testing). */
  fixture?: StageFixture;
}

/**
 * Check a SeedSelector against the contract: a version tag and id; at least one and at most
 * `policy.seedLimit` seeds (also under a limit of 1), each a real graph node named as in the
 * graph, no node twice, finite scores (in any order: per-target selection reserves seeds per target); a trace listing the same seeds and the queries
 * used; inputs untouched; an aborted signal rejected with MosaicAbortedError; the same seeds for
 * the same inputs. Returns a report.
 */
export async function checkSeedSelectorConformance(options: SeedSelectorConformanceOptions): Promise<ConformanceReport> {
  const { seedSelector } = options;
  const fixture = options.fixture ?? (await createStageFixture());
  const { index, context } = fixture;
  const run = createConformanceRun(`SeedSelector ${String(seedSelector.id)}`);
  const select = (seedLimit?: number, abortSignal?: AbortSignal): Promise<SeedSelection> => {
    const used: QueryContext = seedLimit === undefined ? context : { ...context, policy: { ...context.policy, seedLimit } };
    return seedSelector.selectSeeds({ index, context: used, abortSignal });
  };
  let first: SeedSelection | undefined;
  const seeds = () => {
    ensure(first, 'selectSeeds() failed');
    return first.seeds;
  };

  await run.check('identifies itself with specificationVersion v1 and an id', () => {
    ensure(seedSelector.specificationVersion === 'v1', `specificationVersion is ${String(seedSelector.specificationVersion)}, expected 'v1'`);
    ensure(typeof seedSelector.id === 'string' && seedSelector.id.length > 0, 'id is empty');
  });
  await run.check('returns between 1 and seedLimit seeds', async () => {
    const before = structuredClone({ policy: context.policy, vector: Array.from(context.queryVector) });
    first = await select();
    ensure(Array.isArray(first?.seeds), 'seeds is not an array');
    ensure(first.seeds.length >= 1 && first.seeds.length <= context.policy.seedLimit, `${first.seeds.length} seeds for seedLimit ${context.policy.seedLimit}`);
    ensureSame({ policy: context.policy, vector: Array.from(context.queryVector) }, before, 'the policy or query vector was modified');
    const one = await select(1);
    ensure(one.seeds.length === 1, `${one.seeds.length} seeds for seedLimit 1`);
  });
  await run.check('seeds are real graph nodes, each once, named as in the graph', async () => {
    const ids = seeds().map((seed) => seed.nodeId);
    ensure(new Set(ids).size === ids.length, `a node is seeded twice: ${ids.join(', ')}`);
    const nodes = new Map((await index.graph.getNodes(ids)).map((node) => [node.id, node]));
    for (const seed of seeds()) {
      const node = nodes.get(seed.nodeId);
      ensure(node, `seed ${seed.nodeId} is not in the graph`);
      ensure(seed.name === node.name, `seed ${seed.nodeId} is named ${JSON.stringify(seed.name)}, the graph says ${JSON.stringify(node.name)}`);
      ensure(typeof seed.query === 'string', `seed ${seed.nodeId} has no query`);
    }
  });
  // Order is not part of the contract: per-target selection reserves seeds per target.
  await run.check('scores are finite', () => {
    for (const seed of seeds()) {
      ensure([seed.score, seed.entityScore, seed.relationScore].every(Number.isFinite), `seed ${seed.nodeId} has a non-finite score`);
    }
  });
  await run.check('the trace lists the same seeds and the queries used', () => {
    ensure(first, 'selectSeeds() failed');
    ensureSame(first.trace?.seeds, first.seeds, 'trace.seeds differs from seeds');
    ensure(Array.isArray(first.trace.queries) && first.trace.queries.length > 0, 'trace.queries is empty');
    ensure(Array.isArray(first.trace.candidates), 'trace.candidates is not an array');
  });
  await run.check('rejects with MosaicAbortedError when the signal is already aborted', () =>
    ensureAbortHonoured((abortSignal) => select(undefined, abortSignal)),
  );
  await run.check('is deterministic for identical inputs', async () => {
    const second = await select();
    ensureSame(second.seeds, seeds(), 'a second run returned other seeds');
  });
  return run.report();
}
