import { DimensionMismatchError, throwIfAborted } from '@mosaic/spec';
import type {
  Chunk,
  ChunkStore,
  CorpusIndex,
  Encoder,
  EvidenceUnit,
  GraphStore,
  LexicalIndex,
  Policy,
  QueryContext,
  SourceWindow,
  VectorHit,
  VectorIndex,
} from '@mosaic/spec';
import bm25 from 'wink-bm25-text-search';
import { cutWindows } from '@mosaic/stage-utils';
import { metricTokens } from '@mosaic/stage-utils';

/** What a reranker conformance run needs: an index, a query context and evidence pointing into it. */
export interface RerankerFixture {
  index: CorpusIndex;
  context: QueryContext;
  /** Evidence whose chunks reach more windows than the suite's small topN. */
  evidence: EvidenceUnit[];
}

const DOCUMENTS: ReadonlyArray<{ id: string; text: string }> = [
  {
    id: 'harbour',
    text:
      'Aldo Brenner sailed from the harbour of Port Kessel aboard the schooner Marigold in the spring of 1911. ' +
      'Port Kessel is a small harbour town on the northern coast. Fishing boats leave Port Kessel before dawn. ' +
      'The harbour master of Port Kessel is Ilse Varga, who keeps the tide tables. ' +
      'The Marigold carried salt, rope and lamp oil for the lighthouse on Skarv Island. ' +
      'Storms closed the harbour for eleven days that winter, and the boats stayed moored along the quay. ' +
      'Merchants in Port Kessel traded herring, timber and wool with the southern towns. ' +
      'A stone chapel stands above the quay, and its bell rings when the fleet returns. ',
  },
  {
    id: 'lighthouse',
    text:
      'The lighthouse on Skarv Island was built in 1868 from granite quarried nearby. ' +
      'Aldo Brenner became the lighthouse keeper of Skarv Island after his voyage on the Marigold. ' +
      'The keeper trimmed the wicks every evening and logged passing ships in a leather logbook. ' +
      'Brenner married Ilse Varga in 1915; she moved to the island with her charts. ' +
      'The lamp used lamp oil until 1931, when an electric lamp replaced it. ' +
      'Seabirds nest on the cliffs below the tower, and seals rest on the rocks at low tide. ' +
      'Supply boats from Port Kessel reached the island once a month in calm weather. ',
  },
  {
    id: 'orchard',
    text:
      'The orchard valley lies far inland, behind the hills. Farmers grow apples, pears and plums. ' +
      'The valley holds a harvest fair each autumn with cider pressing and a cattle show. ' +
      'Beekeepers place hives between the rows, and the honey is sold at the fair. ' +
      'A narrow railway carries fruit crates to the city markets twice a week. ' +
      'Frost in late spring is the orchard growers most feared hazard. ',
  },
];

/** Characters per chunk and the window geometry of the fixture (small, so a few documents give many windows). */
const CHUNK_SIZE = 240;
const WINDOW = { size: 200, stride: 100 };
const DIMENSION = 256;

function hash(token: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < token.length; i += 1) {
    h ^= token.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A deterministic token-hashing encoder (bag of content tokens, L2-normalised). For tests only. */
export function createFixtureEncoder(dimension = DIMENSION): Encoder {
  return {
    specificationVersion: 'v1',
    id: `fixture-hashing-${dimension}`,
    dimension,
    async encode(texts, options) {
      throwIfAborted(options?.abortSignal, 'encode');
      return texts.map((text) => {
        const vector = new Float32Array(dimension);
        for (const token of metricTokens(text)) {
          const h = hash(token);
          vector[h % dimension] += h & 0x80000000 ? -1 : 1;
        }
        let norm = 0;
        for (const v of vector) norm += v * v;
        if (norm > 0) for (let i = 0; i < dimension; i += 1) vector[i] /= Math.sqrt(norm);
        return vector;
      });
    },
  };
}

/** An exhaustive inner-product index (labels in insertion order). For tests only. */
export function createFixtureVectorIndex(dimension: number): VectorIndex {
  const vectors: Float32Array[] = [];
  return {
    specificationVersion: 'v1',
    dimension,
    get size() {
      return vectors.length;
    },
    async add(added) {
      for (const vector of added) {
        if (vector.length !== dimension) throw new DimensionMismatchError({ expected: dimension, actual: vector.length });
        vectors.push(vector);
      }
    },
    async search(query, k) {
      const hits: VectorHit[] = vectors.map((vector, label) => {
        let score = 0;
        for (let i = 0; i < dimension; i += 1) score += vector[i] * query[i];
        return { label, score };
      });
      hits.sort((a, b) => b.score - a.score || a.label - b.label);
      return hits.slice(0, k);
    },
    async save() {
      /* in memory only */
    },
  };
}

/**
 * A BM25 index (wink-bm25-text-search) over the given texts, label i ↔ texts[i], scores divided by the
 * best hit's as @mosaic/vector-index's Bm25Index does. For tests only.
 */
export function createFixtureLexicalIndex(texts: readonly string[]): LexicalIndex {
  const engine = bm25();
  engine.defineConfig({ fldWeights: { text: 1 } });
  engine.definePrepTasks([metricTokens]);
  texts.forEach((text, label) => {
    engine.addDoc({ text }, String(label));
  });
  engine.consolidate();
  return {
    search(query, k) {
      const hits = engine.search(query, k).map(([label, score]) => ({ label: Number(label), score }));
      const best = hits[0]?.score ?? 0;
      return best > 0 ? hits.map((hit) => ({ label: hit.label, score: hit.score / best })) : [];
    },
  };
}

const EMPTY_GRAPH: GraphStore = {
  specificationVersion: 'v1',
  nodeCount: 0,
  edgeCount: 0,
  hubDegree: 3,
  maxDegree: 0,
  async getNodes() {
    return [];
  },
  async getEdges() {
    return [];
  },
  async neighbors(ids) {
    return new Map(ids.map((id) => [id, []]));
  },
};

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
  targetEntities: ['Aldo Brenner'],
  targetFacets: ['harbour'],
  retrievalRisk: '',
  rationale: 'conformance fixture',
  compactQuery: '',
  perTargetQueries: [],
};

/**
 * A tiny in-memory corpus index (three documents, 240-character chunks, 200-character windows with
 * stride 100, a hashing encoder, exhaustive vector search, no graph) with a question and evidence
 * units that reach several windows. `windowVectors: false` leaves out `index.windowVector` so that a
 * reranker must go through `index.windowIndex`; `lexical: true` adds a BM25 window index
 * (`index.lexical.windows`, see createFixtureLexicalIndex).
 */
export async function createRerankerFixture(options: { windowVectors?: boolean; lexical?: boolean } = {}): Promise<RerankerFixture> {
  const encoder = createFixtureEncoder();
  const chunks: Chunk[] = [];
  const windows: SourceWindow[] = [];
  for (const document of DOCUMENTS) {
    const documentChunks: Chunk[] = [];
    for (let start = 0, n = 0; start < document.text.length; start += CHUNK_SIZE, n += 1) {
      const end = Math.min(document.text.length, start + CHUNK_SIZE);
      documentChunks.push({ id: `${document.id}#c${n}`, documentId: document.id, start, end, text: document.text.slice(start, end) });
    }
    chunks.push(...documentChunks);
    cutWindows(document.text, WINDOW).forEach((window, n) => {
      const chunkIds = documentChunks.filter((chunk) => chunk.start < window.end && window.start < chunk.end).map((chunk) => chunk.id);
      windows.push({ id: `${document.id}#w${n}`, documentId: document.id, chunkIds, ...window });
    });
  }
  const chunkById = new Map(chunks.map((chunk) => [chunk.id, chunk]));
  const windowById = new Map(windows.map((window) => [window.id, window]));
  const store: ChunkStore = {
    getChunk: (id) => chunkById.get(id),
    getWindow: (id) => windowById.get(id),
    windowsOfChunk: (chunkId) => windows.filter((window) => window.chunkIds.includes(chunkId)),
    chunkCount: chunks.length,
    windowCount: windows.length,
  };
  const windowVectors = await encoder.encode(windows.map((window) => window.text));
  const windowIndex = createFixtureVectorIndex(encoder.dimension);
  await windowIndex.add(windowVectors);
  const vectorById = new Map(windows.map((window, i) => [window.id, windowVectors[i]]));
  const index: CorpusIndex = {
    manifest: {
      formatVersion: 1,
      corpus: 'reranker-fixture',
      encoder: { id: encoder.id, dimension: encoder.dimension },
      extractor: 'none',
      corpusChecksum: '',
      counts: { documents: DOCUMENTS.length, chunks: chunks.length, windows: windows.length, entities: 0, relations: 0 },
      window: WINDOW,
      vectorIndex: { factory: 'Flat' },
      buildTimeMs: 0,
      createdAt: '1970-01-01T00:00:00.000Z',
    },
    graph: EMPTY_GRAPH,
    chunks: store,
    encoder,
    entityIndex: createFixtureVectorIndex(encoder.dimension),
    entityIds: [],
    relationIndex: createFixtureVectorIndex(encoder.dimension),
    relationIds: [],
    windowIndex,
    windowIds: windows.map((window) => window.id),
    ...(options.windowVectors === false ? {} : { windowVector: (id: string) => vectorById.get(id) }),
    ...(options.lexical ? { lexical: { windows: createFixtureLexicalIndex(windows.map((window) => window.text)) } } : {}),
  };
  const question = { id: 'q1', text: 'From which harbour did Aldo Brenner sail aboard the schooner Marigold?' };
  const [queryVector] = await encoder.encode([question.text]);
  const chunksMentioning = (phrase: string) => chunks.filter((chunk) => chunk.text.includes(phrase)).map((chunk) => chunk.id);
  const evidence: EvidenceUnit[] = [
    unit('e1', 'relation', 'Aldo Brenner sailed from Port Kessel', chunksMentioning('sailed from'), 1),
    unit('e2', 'entity', 'Aldo Brenner, lighthouse keeper of Skarv Island', chunksMentioning('lighthouse keeper'), 0.8),
    unit('e3', 'entity', 'Port Kessel, a harbour town', chunksMentioning('small harbour town'), 0.6),
    unit('e4', 'relation', 'Brenner married Ilse Varga', chunksMentioning('married'), 0.4),
  ];
  return { index, context: { question, queryVector, policy: POLICY }, evidence };
}

function unit(id: string, kind: EvidenceUnit['kind'], text: string, chunkIds: string[], score: number): EvidenceUnit {
  return { id, kind, refId: `ref-${id}`, text, chunkIds, pathIds: [`path-${id}`], score };
}
