import type { EvidenceUnit, Policy, QueryContext, RankedWindow, ScoredPath, Seed } from '@mosaic/spec';
import { scoredPath } from '@mosaic/spec';
import { FIXTURE_QUESTIONS } from './fixture-corpus.js';
import type { HandBuiltIndex } from './hand-built-index.js';
import { fixtureEntityId, fixtureRelationId, loadFixtureIndex } from './recorded-index.js';

/**
 * Inputs for every stage, over one small real index: what the conformance suites run against,
 * and what a user's own tests can use.
 */
export interface StageFixture {
  /**
   * The recorded fixture index (`loadFixtureIndex()`): the fixture corpus's three pages as
   * @mosaic/indexing's composition builds them (400-character chunks, 800/400 windows, the graph
   * `fixtureExtraction` finds merged by the real merger), BM25 indexes, a 256-d hashing encoder.
   */
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
  const index = await loadFixtureIndex();
  const asked = FIXTURE_QUESTIONS.find((question) => question.id === 'Fixture-Medical-01')!;
  const question = { id: asked.id, text: asked.question };
  const [queryVector] = await index.encoder.encode([question.text]);
  const context: QueryContext = { question, queryVector, policy: { ...STAGE_FIXTURE_POLICY } };
  const id = (name: string) => fixtureEntityId(index, name);
  const [veltrane, morrow, calditrex, quarry, liver, stiffness] = [
    'Veltrane dust',
    'Morrow syndrome',
    'Calditrex',
    'Quarry workers',
    'Liver function test',
    'Joint stiffness',
  ].map(id);
  const causes = fixtureRelationId(index, 'Veltrane dust', 'causes', 'Morrow syndrome');
  const treated = fixtureRelationId(index, 'Morrow syndrome', 'is treated with', 'Calditrex');
  const risk = fixtureRelationId(index, 'Quarry workers', 'are exposed to', 'Veltrane dust');
  const requires = fixtureRelationId(index, 'Calditrex', 'requires monthly', 'Liver function test');
  const stiff = fixtureRelationId(index, 'Morrow syndrome', 'has symptom', 'Joint stiffness');
  const seeds: Seed[] = [
    { nodeId: veltrane, name: 'Veltrane dust', entityScore: 0.82, relationScore: 0.74, score: 0.78, query: question.text },
    { nodeId: calditrex, name: 'Calditrex', entityScore: 0.61, relationScore: 0.66, score: 0.64, query: question.text },
  ];
  const paths = [
    scoredPath({ nodes: [veltrane, morrow, calditrex], edges: [causes, treated], score: 0.91 }),
    scoredPath({ nodes: [veltrane, morrow], edges: [causes], score: 0.8 }),
    scoredPath({ nodes: [calditrex, morrow], edges: [treated], score: 0.72 }),
    scoredPath({ nodes: [veltrane, quarry], edges: [risk], score: 0.5 }),
    scoredPath({ nodes: [calditrex, liver], edges: [requires], score: 0.41 }),
    scoredPath({ nodes: [veltrane, morrow, stiffness], edges: [causes, stiff], score: 0.33 }),
  ];
  const [causesEdge, treatedEdge] = await index.graph.getEdges([causes, treated]);
  const [calditrexNode] = await index.graph.getNodes([calditrex]);
  const evidence: EvidenceUnit[] = [
    {
      id: 'u-causes',
      kind: 'relation',
      refId: causesEdge.id,
      text: causesEdge.description,
      chunkIds: [...causesEdge.chunkIds],
      pathIds: [paths[0].id, paths[1].id],
      score: 1,
    },
    {
      id: 'u-treated',
      kind: 'relation',
      refId: treatedEdge.id,
      text: treatedEdge.description,
      chunkIds: [...treatedEdge.chunkIds],
      pathIds: [paths[0].id],
      score: 0.9,
    },
    {
      id: 'u-calditrex',
      kind: 'entity',
      refId: calditrexNode.id,
      text: `${calditrexNode.name}: ${calditrexNode.description}`,
      chunkIds: [...calditrexNode.chunkIds],
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
