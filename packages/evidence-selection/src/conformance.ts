import type { EvidenceSelection, EvidenceSelector, ScoredPath } from '@mosaic/spec';
import { createConformanceRun, createStageFixture, ensure, ensureAbortHonoured, ensureSame } from '@mosaic/testing/conformance';
import type { ConformanceReport, StageFixture } from '@mosaic/testing/conformance';

export { createStageFixture, type ConformanceReport, type StageFixture } from '@mosaic/testing/conformance';

export interface EvidenceSelectorConformanceOptions {
  evidenceSelector: EvidenceSelector;
  /** Index, context, seeds and paths to run on (default: `createStageFixture()` of @mosaic/testing). */
  fixture?: StageFixture;
}

const ROLES = new Set(['core', 'connector', 'uncovered-target', 'uncovered-facet', 'new-relation', 'fill']);

/**
 * Check an EvidenceSelector against the contract: a version tag and id; selected paths that are
 * input paths (same nodes and edges), each once, with a known role; at least one unit, each with a
 * unique id, text, a finite score, a `refId` naming a real graph node (entity) or edge (relation),
 * chunk ids the chunk store knows, and `pathIds` naming selected paths; no paths selected from no
 * paths; a trace listing the same paths and units; inputs untouched; an aborted signal rejected
 * with MosaicAbortedError; the same result for the same inputs. Returns a report.
 */
export async function checkEvidenceSelectorConformance(options: EvidenceSelectorConformanceOptions): Promise<ConformanceReport> {
  const { evidenceSelector } = options;
  const fixture = options.fixture ?? (await createStageFixture());
  const { index, context, seeds, paths } = fixture;
  const run = createConformanceRun(`EvidenceSelector ${String(evidenceSelector.id)}`);
  const select = (input: readonly ScoredPath[] = paths, abortSignal?: AbortSignal): Promise<EvidenceSelection> =>
    evidenceSelector.selectEvidence({ index, context, seeds, paths: input, abortSignal });
  let first: EvidenceSelection | undefined;
  const result = () => {
    ensure(first, 'selectEvidence() failed');
    return first;
  };

  await run.check('identifies itself with specificationVersion v1 and an id', () => {
    ensure(evidenceSelector.specificationVersion === 'v1', `specificationVersion is ${String(evidenceSelector.specificationVersion)}, expected 'v1'`);
    ensure(typeof evidenceSelector.id === 'string' && evidenceSelector.id.length > 0, 'id is empty');
  });
  await run.check('returns paths and units, leaving its inputs untouched', async () => {
    const before = structuredClone({ paths, seeds, policy: context.policy });
    first = await select();
    ensure(Array.isArray(first?.paths) && Array.isArray(first.units), 'paths or units is not an array');
    ensure(first.paths.length > 0 && first.units.length > 0, `${first.paths.length} paths and ${first.units.length} units from ${paths.length} paths`);
    ensureSame({ paths, seeds, policy: context.policy }, before, 'the paths, seeds or policy were modified');
  });
  await run.check('selected paths are input paths, each once, with a role', () => {
    const input = new Map(paths.map((path) => [path.id, path]));
    const seen = new Set<string>();
    for (const path of result().paths) {
      const original = input.get(path.id);
      ensure(original, `selected path ${path.id} was not among the input paths`);
      ensureSame([path.nodes, path.edges], [original.nodes, original.edges], `selected path ${path.id} differs from the input path`);
      ensure(!seen.has(path.id), `path ${path.id} selected twice`);
      seen.add(path.id);
      ensure(ROLES.has(path.role), `path ${path.id} has role ${String(path.role)}`);
      ensure(Number.isFinite(path.rank), `path ${path.id} has rank ${path.rank}`);
    }
  });
  await run.check('units are unique, point at real graph elements, known chunks and selected paths', async () => {
    const { units } = result();
    const selected = new Set(result().paths.map((path) => path.id));
    const ids = new Set<string>();
    const nodes = new Set((await index.graph.getNodes(units.filter((unit) => unit.kind === 'entity').map((unit) => unit.refId))).map((node) => node.id));
    const edges = new Set((await index.graph.getEdges(units.filter((unit) => unit.kind === 'relation').map((unit) => unit.refId))).map((edge) => edge.id));
    for (const unit of units) {
      ensure(typeof unit.id === 'string' && unit.id.length > 0 && !ids.has(unit.id), `unit id ${unit.id} is empty or repeated`);
      ids.add(unit.id);
      ensure(
        unit.kind === 'entity' ? nodes.has(unit.refId) : unit.kind === 'relation' && edges.has(unit.refId),
        `unit ${unit.id}: ${unit.kind} ${unit.refId} is not in the graph`,
      );
      ensure(typeof unit.text === 'string' && unit.text.length > 0, `unit ${unit.id} has no text`);
      ensure(Number.isFinite(unit.score), `unit ${unit.id} has score ${unit.score}`);
      ensure(Array.isArray(unit.chunkIds), `unit ${unit.id}: chunkIds is not an array`);
      for (const chunkId of unit.chunkIds) ensure(index.chunks.getChunk(chunkId), `unit ${unit.id}: chunk ${chunkId} is unknown`);
      for (const span of unit.spans ?? []) ensure(index.chunks.getChunk(span.chunkId), `unit ${unit.id}: span chunk ${span.chunkId} is unknown`);
      for (const pathId of unit.pathIds) ensure(selected.has(pathId), `unit ${unit.id}: path ${pathId} was not selected`);
    }
  });
  await run.check('the trace lists the same paths and units', () => {
    ensureSame(result().trace?.selected, result().paths, 'trace.selected differs from paths');
    ensureSame(result().trace.units, result().units, 'trace.units differs from units');
  });
  await run.check('no paths in, no paths selected', async () => {
    const empty = await select([]);
    ensure(empty.paths.length === 0, `${empty.paths.length} paths selected from none`);
  });
  await run.check('rejects with MosaicAbortedError when the signal is already aborted', () => ensureAbortHonoured((abortSignal) => select(paths, abortSignal)));
  await run.check('is deterministic for identical inputs', async () => {
    const second = await select();
    ensureSame([second.paths, second.units], [result().paths, result().units], 'a second run returned another selection');
  });
  return run.report();
}
