import type { EvidenceUnit, Policy, QueryContext, RankedWindow, ScoredPath, Seed } from '@mosaic/spec';
import { scoredPath } from '@mosaic/spec';
import { FIXTURE_QUESTIONS } from './fixture-corpus.js';
import { buildHandIndex, medicalFixtureIndexOptions, type HandBuiltIndex } from './hand-built-index.js';

/**
 * Inputs for every stage, over one small real index: what the conformance suites run against,
 * and what a user's own tests can use.
 */
export interface StageFixture {
  /** The fixture corpus's Medical page, sentence-aligned ~500-character chunks, 1,600/800 windows, a 10-node graph, BM25 indexes, a 256-d hashing encoder. */
  index: HandBuiltIndex;
  /** The two-hop question "Which drug treats the condition caused by … veltrane dust?", its vector and a medium-sized policy. */
  context: QueryContext;
  /** Two seeds: veltrane dust and calditrex. */
  seeds: Seed[];
  /** Six real paths from the seeds, best first (as a traverser would hand them on). */
  paths: ScoredPath[];
  /** Evidence units on the two facts of the answer and on calditrex (as an evidence selector would). */
  evidence: EvidenceUnit[];
  /** Three windows of the page (as a reranker would hand them to a generator). */
  windows: RankedWindow[];
}

/** The policy of the fixture context: the Table 3 defaults with seeds 5, depth 3, width 8, evidence 8, floor 3. */
export const STAGE_FIXTURE_POLICY: Readonly<Policy> = Object.freeze({
  seedLimit: 5,
  seedQueryMode: 'full',
  selectionMode: 'hybrid',
  maxDepth: 3,
  beamWidth: 8,
  anchorStrength: 0.3,
  useConnector: true,
  stopRegime: 'medium',
  evidenceCount: 8,
  minEvidence: 3,
  adaptiveFinalEvidence: true,
  targetEntities: ['veltrane dust'],
  targetFacets: ['treatment'],
  retrievalRisk: 'two-hop: condition, then its treatment',
  rationale: 'stage fixture',
  compactQuery: 'drug treats condition veltrane dust',
  perTargetQueries: [],
});

/** Build the stage fixture (deterministic; about 50 ms). */
export async function createStageFixture(): Promise<StageFixture> {
  const index = await buildHandIndex(medicalFixtureIndexOptions({ lexical: true }));
  const asked = FIXTURE_QUESTIONS.find((question) => question.id === 'Fixture-Medical-01')!;
  const question = { id: asked.id, text: asked.question };
  const [queryVector] = await index.encoder.encode([question.text]);
  const context: QueryContext = { question, queryVector, policy: { ...STAGE_FIXTURE_POLICY } };
  const seeds: Seed[] = [
    { nodeId: 'veltrane', name: 'veltrane dust', entityScore: 0.82, relationScore: 0.74, score: 0.78, query: question.text },
    { nodeId: 'calditrex', name: 'calditrex', entityScore: 0.61, relationScore: 0.66, score: 0.64, query: question.text },
  ];
  const paths = [
    scoredPath({ nodes: ['veltrane', 'morrow', 'calditrex'], edges: ['r-causes', 'r-treated'], score: 0.91 }),
    scoredPath({ nodes: ['veltrane', 'morrow'], edges: ['r-causes'], score: 0.8 }),
    scoredPath({ nodes: ['calditrex', 'morrow'], edges: ['r-treated'], score: 0.72 }),
    scoredPath({ nodes: ['veltrane', 'quarry'], edges: ['r-risk'], score: 0.5 }),
    scoredPath({ nodes: ['calditrex', 'liver'], edges: ['r-liver'], score: 0.41 }),
    scoredPath({ nodes: ['veltrane', 'morrow', 'stiffness'], edges: ['r-causes', 'r-stiff'], score: 0.33 }),
  ];
  const [causes, treated] = await index.graph.getEdges(['r-causes', 'r-treated']);
  const [calditrex] = await index.graph.getNodes(['calditrex']);
  const evidence: EvidenceUnit[] = [
    {
      id: 'u-causes',
      kind: 'relation',
      refId: causes.id,
      text: causes.description,
      chunkIds: [...causes.chunkIds],
      pathIds: [paths[0].id, paths[1].id],
      score: 1,
    },
    { id: 'u-treated', kind: 'relation', refId: treated.id, text: treated.description, chunkIds: [...treated.chunkIds], pathIds: [paths[0].id], score: 0.9 },
    {
      id: 'u-calditrex',
      kind: 'entity',
      refId: calditrex.id,
      text: `${calditrex.name}: ${calditrex.description}`,
      chunkIds: [...calditrex.chunkIds],
      pathIds: [paths[2].id],
      score: 0.6,
    },
  ];
  const windows: RankedWindow[] = index.windowList.slice(0, 3).map((window, rank) => ({
    id: window.id,
    text: window.text,
    score: 1 - rank * 0.25,
    documentId: window.documentId,
    start: window.start,
    end: window.end,
    evidenceIds: [],
  }));
  return { index, context, seeds, paths, evidence, windows };
}
