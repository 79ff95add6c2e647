import { substantiveChanges, validatePolicy } from '@mosaic/policy-schema';
import { StageResultError } from '@mosaic/spec';
import type { Analysis, Answer, CorpusIndex, EvidenceSelection, Reranking, SeedSelection, Traversal } from '@mosaic/spec';

// The boundary between createMosaic and a stage: every result is checked before the next stage
// sees it, so a malformed result fails here, naming the stage and the field, instead of later
// as a raw TypeError — and ids a stage made up do not pass silently.

type Fail = (field: string, message: string) => never;

function failer(stage: string, implementation: string | undefined): Fail {
  return (field, message) => {
    throw new StageResultError({ stage, field, message, implementation });
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function requireArray(value: unknown, field: string, fail: Fail): unknown[] {
  if (!Array.isArray(value)) fail(field, `expected an array, got ${describe(value)}`);
  return value as unknown[];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string ${JSON.stringify(value.slice(0, 40))}` : typeof value;
}

/** An analyzer's Analysis: a policy that validation leaves unchanged, `analyzer` and `changes`. */
export function checkAnalysis(analysis: Analysis, implementation?: string): void {
  const fail: Fail = failer('analyze', implementation);
  if (!isObject(analysis)) fail('$', `expected an Analysis object, got ${describe(analysis)}`);
  if (!isObject(analysis.policy)) fail('policy', `expected a Policy object, got ${describe(analysis.policy)}`);
  const changes = substantiveChanges(validatePolicy(analysis.policy).changes);
  if (changes.length > 0) fail(`policy.${changes[0].field}`, changes[0].reason);
  if (!isString(analysis.analyzer)) fail('analyzer', `expected a string, got ${describe(analysis.analyzer)}`);
  requireArray(analysis.changes, 'changes', fail);
}

/** Seeds: real graph nodes with finite scores, and a trace. */
export async function checkSeedSelection(selection: SeedSelection, index: CorpusIndex, implementation?: string): Promise<void> {
  const fail: Fail = failer('seeds', implementation);
  if (!isObject(selection)) fail('$', `expected a SeedSelection object, got ${describe(selection)}`);
  const seeds = requireArray(selection.seeds, 'seeds', fail);
  seeds.forEach((seed, i) => {
    if (!isObject(seed)) fail(`seeds[${i}]`, `expected a Seed object, got ${describe(seed)}`);
    if (!isString(seed.nodeId)) fail(`seeds[${i}].nodeId`, `expected a string, got ${describe(seed.nodeId)}`);
    if (!isFiniteNumber(seed.score)) fail(`seeds[${i}].score`, `expected a finite number, got ${String(seed.score)}`);
  });
  const ids = (seeds as Array<{ nodeId: string }>).map((seed) => seed.nodeId);
  const known = new Set((await index.graph.getNodes([...new Set(ids)])).map((node) => node.id));
  ids.forEach((id, i) => {
    if (!known.has(id)) fail(`seeds[${i}].nodeId`, `node ${JSON.stringify(id)} is not in the graph`);
  });
  if (!isObject(selection.trace)) fail('trace', `expected a SeedTrace object, got ${describe(selection.trace)}`);
}

/** Paths: node and edge id lists that fit together, real ids, each edge joining its two nodes, finite scores; a trace with the effort counts. */
export async function checkTraversal(traversal: Traversal, index: CorpusIndex, implementation?: string): Promise<void> {
  const fail: Fail = failer('traverse', implementation);
  if (!isObject(traversal)) fail('$', `expected a Traversal object, got ${describe(traversal)}`);
  const paths = requireArray(traversal.paths, 'paths', fail);
  const nodeIds = new Set<string>();
  const edgeIds = new Set<string>();
  paths.forEach((path, i) => {
    if (!isObject(path)) fail(`paths[${i}]`, `expected a ScoredPath object, got ${describe(path)}`);
    if (!isString(path.id)) fail(`paths[${i}].id`, `expected a string, got ${describe(path.id)}`);
    const nodes = requireArray(path.nodes, `paths[${i}].nodes`, fail);
    const edges = requireArray(path.edges, `paths[${i}].edges`, fail);
    if (nodes.length !== edges.length + 1) fail(`paths[${i}].nodes`, `${nodes.length} nodes for ${edges.length} edges`);
    nodes.forEach((node, j) => {
      isString(node) ? nodeIds.add(node) : fail(`paths[${i}].nodes[${j}]`, `expected a string, got ${describe(node)}`);
    });
    edges.forEach((edge, j) => {
      isString(edge) ? edgeIds.add(edge) : fail(`paths[${i}].edges[${j}]`, `expected a string, got ${describe(edge)}`);
    });
    if (!isFiniteNumber(path.score)) fail(`paths[${i}].score`, `expected a finite number, got ${String(path.score)}`);
  });
  const knownNodes = new Set((await index.graph.getNodes([...nodeIds])).map((node) => node.id));
  const knownEdges = new Map((await index.graph.getEdges([...edgeIds])).map((edge) => [edge.id, edge]));
  (paths as Array<{ nodes: string[]; edges: string[] }>).forEach((path, i) => {
    path.nodes.forEach((node, j) => {
      if (!knownNodes.has(node)) fail(`paths[${i}].nodes[${j}]`, `node ${JSON.stringify(node)} is not in the graph`);
    });
    path.edges.forEach((edgeId, j) => {
      const edge = knownEdges.get(edgeId);
      if (!edge) fail(`paths[${i}].edges[${j}]`, `edge ${JSON.stringify(edgeId)} is not in the graph`);
      const [a, b] = [path.nodes[j], path.nodes[j + 1]];
      if (!((edge.source === a && edge.target === b) || (edge.source === b && edge.target === a))) {
        fail(`paths[${i}].edges[${j}]`, `edge ${JSON.stringify(edgeId)} does not join ${JSON.stringify(a)} and ${JSON.stringify(b)}`);
      }
    });
  });
  const trace = traversal.trace as unknown;
  if (!isObject(trace)) fail('trace', `expected a TraversalTrace object, got ${describe(trace)}`);
  if (!isFiniteNumber(trace.pathsEvaluated)) fail('trace.pathsEvaluated', `expected a finite number, got ${String(trace.pathsEvaluated)}`);
  if (!isFiniteNumber(trace.depthReached)) fail('trace.depthReached', `expected a finite number, got ${String(trace.depthReached)}`);
  requireArray(trace.depths, 'trace.depths', fail);
}

/** Selected paths and evidence units with ids, text, chunk ids and path ids; a trace. */
export function checkEvidenceSelection(selection: EvidenceSelection, implementation?: string): void {
  const fail: Fail = failer('evidence', implementation);
  if (!isObject(selection)) fail('$', `expected an EvidenceSelection object, got ${describe(selection)}`);
  requireArray(selection.paths, 'paths', fail);
  requireArray(selection.units, 'units', fail).forEach((unit, i) => {
    if (!isObject(unit)) fail(`units[${i}]`, `expected an EvidenceUnit object, got ${describe(unit)}`);
    if (!isString(unit.id)) fail(`units[${i}].id`, `expected a string, got ${describe(unit.id)}`);
    if (unit.kind !== 'entity' && unit.kind !== 'relation') fail(`units[${i}].kind`, `expected 'entity' or 'relation', got ${describe(unit.kind)}`);
    if (!isString(unit.text)) fail(`units[${i}].text`, `expected a string, got ${describe(unit.text)}`);
    requireArray(unit.chunkIds, `units[${i}].chunkIds`, fail);
    requireArray(unit.pathIds, `units[${i}].pathIds`, fail);
    if (!isFiniteNumber(unit.score)) fail(`units[${i}].score`, `expected a finite number, got ${String(unit.score)}`);
  });
  if (!isObject(selection.trace)) fail('trace', `expected an EvidenceTrace object, got ${describe(selection.trace)}`);
}

/** At most topN windows with ids, text, finite scores and evidence ids; a trace. */
export function checkReranking(reranking: Reranking, topN: number, implementation?: string): void {
  const fail: Fail = failer('rerank', implementation);
  if (!isObject(reranking)) fail('$', `expected a Reranking object, got ${describe(reranking)}`);
  const windows = requireArray(reranking.windows, 'windows', fail);
  if (windows.length > topN) fail('windows', `${windows.length} windows for topN ${topN}`);
  windows.forEach((window, i) => {
    if (!isObject(window)) fail(`windows[${i}]`, `expected a RankedWindow object, got ${describe(window)}`);
    if (!isString(window.id)) fail(`windows[${i}].id`, `expected a string, got ${describe(window.id)}`);
    if (!isString(window.text)) fail(`windows[${i}].text`, `expected a string, got ${describe(window.text)}`);
    if (!isFiniteNumber(window.score)) fail(`windows[${i}].score`, `expected a finite number, got ${String(window.score)}`);
    requireArray(window.evidenceIds, `windows[${i}].evidenceIds`, fail);
  });
  if (!isObject(reranking.trace)) fail('trace', `expected a RerankTrace object, got ${describe(reranking.trace)}`);
}

/** Text, citations pointing into the windows handed over, and the generator's name. */
export function checkAnswer(answer: Answer, windowCount: number, implementation?: string): void {
  const fail: Fail = failer('generate', implementation);
  if (!isObject(answer)) fail('$', `expected an Answer object, got ${describe(answer)}`);
  if (!isString(answer.text)) fail('text', `expected a string, got ${describe(answer.text)}`);
  if (!isString(answer.generator)) fail('generator', `expected a string, got ${describe(answer.generator)}`);
  requireArray(answer.citations, 'citations', fail).forEach((citation, i) => {
    if (!isObject(citation) || !Number.isInteger(citation.window) || (citation.window as number) < 1 || (citation.window as number) > windowCount) {
      fail(`citations[${i}].window`, `expected a window number in 1..${windowCount}`);
    }
  });
}
