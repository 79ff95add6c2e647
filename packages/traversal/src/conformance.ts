import type { Seed, Traversal, Traverser } from '@mosaic/spec';
import { createConformanceRun, createStageFixture, ensure, ensureAbortHonoured, ensureSame } from '@mosaic/testing/conformance';
import type { ConformanceReport, StageFixture } from '@mosaic/testing/conformance';

export { createStageFixture, type ConformanceReport, type StageFixture } from '@mosaic/testing/conformance';

export interface TraverserConformanceOptions {
  traverser: Traverser;
  /** Index, context and seeds to run on (default: `createStageFixture()` of @mosaic/testing). */
  fixture?: StageFixture;
}

const STOP_REASONS = new Set(['max-depth', 'low-gain', 'exhausted', 'no-seeds']);

/**
 * Check a Traverser against the contract: a version tag and id; paths that are simple (no node
 * twice), of depth 1..maxDepth (also under a smaller maxDepth), made of real node and edge ids
 * where each edge joins its two nodes, grown from a given seed, with unique ids and finite scores,
 * best first; no paths without seeds; a trace consistent with the paths; inputs untouched; an
 * aborted signal rejected with MosaicAbortedError; the same paths for the same inputs. Returns
 * a report instead of throwing, so any test runner (or none) can use it.
 */
export async function checkTraverserConformance(options: TraverserConformanceOptions): Promise<ConformanceReport> {
  const { traverser } = options;
  const fixture = options.fixture ?? (await createStageFixture());
  const { index, context, seeds } = fixture;
  const run = createConformanceRun(`Traverser ${String(traverser.id)}`);
  const traverse = (overrides: { maxDepth?: number; seeds?: readonly Seed[]; abortSignal?: AbortSignal } = {}): Promise<Traversal> =>
    traverser.traverse({
      index,
      context: overrides.maxDepth === undefined ? context : { ...context, policy: { ...context.policy, maxDepth: overrides.maxDepth } },
      seeds: overrides.seeds ?? seeds,
      abortSignal: overrides.abortSignal,
    });
  let first: Traversal | undefined;

  await run.check('identifies itself with specificationVersion v1 and an id', () => {
    ensure(traverser.specificationVersion === 'v1', `specificationVersion is ${String(traverser.specificationVersion)}, expected 'v1'`);
    ensure(typeof traverser.id === 'string' && traverser.id.length > 0, 'id is empty');
  });
  await run.check('returns paths from the fixture seeds', async () => {
    const before = structuredClone({ seeds, policy: context.policy, vector: Array.from(context.queryVector) });
    first = await traverse();
    ensure(Array.isArray(first?.paths), 'paths is not an array');
    ensure(first.paths.length > 0, 'no paths from two connected seeds');
    ensureSame({ seeds, policy: context.policy, vector: Array.from(context.queryVector) }, before, 'the seeds, policy or query vector were modified');
  });
  const paths = () => {
    ensure(first, 'traverse() failed');
    return first.paths;
  };

  await checkPaths(run, { paths, traverse, index, maxDepth: context.policy.maxDepth, seeds });
  await run.check('the trace agrees with the paths', () => {
    ensure(first, 'traverse() failed');
    const { trace } = first;
    ensure(trace && Array.isArray(trace.depths), 'trace.depths is not an array');
    ensure(STOP_REASONS.has(trace.stopReason), `stopReason ${String(trace.stopReason)}`);
    const deepest = Math.max(0, ...paths().map((path) => path.depth));
    ensure(
      trace.depthReached >= deepest && trace.depthReached <= context.policy.maxDepth,
      `depthReached ${trace.depthReached}, deepest path ${deepest}, maxDepth ${context.policy.maxDepth}`,
    );
    ensure(
      Number.isInteger(trace.pathsEvaluated) && trace.pathsEvaluated >= paths().length,
      `pathsEvaluated ${trace.pathsEvaluated} < ${paths().length} paths`,
    );
    ensure(Number.isFinite(trace.roundTrips) && typeof trace.weights === 'object', 'roundTrips or weights missing');
  });
  await run.check('no seeds, no paths', async () => {
    const empty = await traverse({ seeds: [] });
    ensure(empty.paths.length === 0, `${empty.paths.length} paths without seeds`);
  });
  await run.check('rejects with MosaicAbortedError when the signal is already aborted', () => ensureAbortHonoured((abortSignal) => traverse({ abortSignal })));
  await run.check('is deterministic for identical inputs', async () => {
    ensure(first, 'traverse() failed');
    const second = await traverse();
    ensureSame(second.paths, first.paths, 'a second run returned other paths');
  });
  return run.report();
}

/** The checks of the paths themselves: shape, simplicity, depth, real ids, seeds, order. */
async function checkPaths(
  run: ReturnType<typeof createConformanceRun>,
  options: {
    paths: () => Traversal['paths'];
    traverse: (overrides: { maxDepth?: number }) => Promise<Traversal>;
    index: StageFixture['index'];
    maxDepth: number;
    seeds: readonly Seed[];
  },
): Promise<void> {
  const { paths, traverse, index, seeds } = options;
  const context = { policy: { maxDepth: options.maxDepth } };
  await run.check('paths are well formed: nodes = edges + 1, depth = edges, unique non-empty ids, finite scores', () => {
    const ids = new Set<string>();
    for (const path of paths()) {
      ensure(typeof path.id === 'string' && path.id.length > 0, 'a path has no id');
      ensure(!ids.has(path.id), `path id ${path.id} appears twice`);
      ids.add(path.id);
      ensure(Array.isArray(path.nodes) && Array.isArray(path.edges), `${path.id}: nodes or edges is not an array`);
      ensure(path.nodes.length === path.edges.length + 1, `${path.id}: ${path.nodes.length} nodes for ${path.edges.length} edges`);
      ensure(path.depth === path.edges.length, `${path.id}: depth ${path.depth} but ${path.edges.length} edges`);
      ensure(Number.isFinite(path.score), `${path.id}: score ${path.score} is not finite`);
      ensure(path.origin === 'beam' || path.origin === 'connector', `${path.id}: origin ${String(path.origin)}`);
      ensure(typeof path.terms === 'object' && path.terms !== null, `${path.id}: terms missing`);
    }
  });
  await run.check('paths are simple: no node repeated', () => {
    for (const path of paths()) ensure(new Set(path.nodes).size === path.nodes.length, `${path.id} repeats a node`);
  });
  await run.check('depth is between 1 and maxDepth', async () => {
    for (const path of paths())
      ensure(path.depth >= 1 && path.depth <= context.policy.maxDepth, `${path.id}: depth ${path.depth} outside 1..${context.policy.maxDepth}`);
    const shallow = await traverse({ maxDepth: 1 });
    for (const path of shallow.paths) ensure(path.depth <= 1, `with maxDepth 1, ${path.id} has depth ${path.depth}`);
  });
  await run.check('only real node and edge ids; each edge joins its two nodes', async () => {
    const nodeIds = [...new Set(paths().flatMap((path) => path.nodes))];
    const edgeIds = [...new Set(paths().flatMap((path) => path.edges))];
    const nodes = new Set((await index.graph.getNodes(nodeIds)).map((node) => node.id));
    const edges = new Map((await index.graph.getEdges(edgeIds)).map((edge) => [edge.id, edge]));
    for (const id of nodeIds) ensure(nodes.has(id), `node ${id} is not in the graph`);
    for (const path of paths()) {
      path.edges.forEach((edgeId, i) => {
        const edge = edges.get(edgeId);
        ensure(edge, `${path.id}: edge ${edgeId} is not in the graph`);
        const [a, b] = [path.nodes[i], path.nodes[i + 1]];
        ensure((edge.source === a && edge.target === b) || (edge.source === b && edge.target === a), `${path.id}: edge ${edgeId} does not join ${a} and ${b}`);
      });
    }
  });
  await run.check('every path grows from a given seed', () => {
    const seedIds = new Set(seeds.map((seed) => seed.nodeId));
    for (const path of paths()) {
      ensure(seedIds.has(path.seed), `${path.id}: seed ${path.seed} is not one of the seeds`);
      if (path.origin === 'beam') ensure(path.nodes[0] === path.seed, `${path.id}: a beam path must start at its seed ${path.seed}`);
    }
  });
  await run.check('best first: scores never increase', () => {
    const list = paths();
    for (let i = 1; i < list.length; i += 1)
      ensure(list[i - 1].score >= list[i].score, `${list[i].id} (${list[i].score}) ranks below ${list[i - 1].id} (${list[i - 1].score})`);
  });
}
