import type { CorpusIndex, EvidenceUnit, Policy, QueryContext } from '@mosaic/spec';
import { loadFixtureIndex } from '@mosaic/testing/conformance';

/** What a reranker conformance run needs: an index, a query context and evidence pointing into it. */
export interface RerankerFixture {
  index: CorpusIndex;
  context: QueryContext;
  /** Evidence whose chunks reach more windows than the suite's small topN. */
  evidence: EvidenceUnit[];
}

const POLICY: Policy = {
  seedLimit: 7,
  seedQueryMode: 'full',
  selectionMode: 'relation-only',
  maxDepth: 3,
  beamWidth: 8,
  anchorStrength: 0,
  useConnector: false,
  stopRegime: 'shallow',
  evidenceCount: 8,
  minEvidence: 3,
  adaptiveFinalEvidence: false,
  targetEntities: ['Mara Thorn'],
  targetFacets: ['voyage'],
  retrievalRisk: '',
  rationale: 'conformance fixture',
  compactQuery: '',
  perTargetQueries: [],
};

/**
 * The recorded fixture index of @mosaic/testing (`loadFixtureIndex`: the three fixture pages as
 * @mosaic/indexing composes them, 400-character chunks, 800/400 windows, the 256-d hashing encoder)
 * with a question on the first novel and four evidence units: three on that novel (what Mara packed,
 * the schooner, her brother) and one on the second novel, so that the evidence reaches several
 * windows of two documents. `windowVectors: false` leaves out `index.windowVector` so that a reranker
 * must go through `index.windowIndex`; `lexical: true` keeps the BM25 indexes (`index.lexical`).
 */
export async function createRerankerFixture(options: { windowVectors?: boolean; lexical?: boolean } = {}): Promise<RerankerFixture> {
  const loaded = await loadFixtureIndex({ lexical: options.lexical === true });
  const { windowVector, ...rest } = loaded;
  const index: CorpusIndex = options.windowVectors === false ? rest : { ...rest, windowVector };
  const question = { id: 'q1', text: 'What did Mara pack before the voyage?' };
  const [queryVector] = await loaded.encoder.encode([question.text]);
  const chunksMentioning = (phrase: string) => loaded.chunkList.filter((chunk) => chunk.text.includes(phrase)).map((chunk) => chunk.id);
  const evidence: EvidenceUnit[] = [
    unit('e1', 'relation', 'Mara Thorn packed a brass compass', chunksMentioning('Mara packed'), 1),
    unit('e2', 'entity', "Gull's Wing, a two-masted schooner", chunksMentioning('two-masted schooner'), 0.8),
    unit('e3', 'entity', "Tobin, Mara's brother", chunksMentioning('Her brother Tobin'), 0.6),
    unit('e4', 'relation', 'Master Pell designed the great clock of Vell Cathedral', chunksMentioning('Master Pell designed'), 0.4),
  ];
  for (const item of evidence) if (item.chunkIds.length === 0) throw new Error(`reranker fixture: no chunk for evidence ${item.id}`);
  return { index, context: { question, queryVector, policy: POLICY }, evidence };
}

function unit(id: string, kind: EvidenceUnit['kind'], text: string, chunkIds: string[], score: number): EvidenceUnit {
  return { id, kind, refId: `ref-${id}`, text, chunkIds, pathIds: [`path-${id}`], score };
}
