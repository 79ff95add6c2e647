// The rerankers on real components: a hand-built index over the shared fixture corpus (graphology
// graph, BM25 lexical indexes from @mosaic/vector-index) whose window index is a real faiss index.
import { describe, expect, it } from 'vitest';
import type { Chunk, CorpusIndex, EvidenceUnit, QueryContext } from '@mosaic/spec';
import { FIXTURE_DOCUMENTS, FIXTURE_QUESTIONS } from '@mosaic/testing';
import { buildHandIndex, createHashingEncoder } from '@mosaic/testing/hand-built-index';
import { createFaissVectorIndex } from '@mosaic/vector-index';
import { createBiEncoderReranker } from './bi-encoder-reranker.js';
import { checkWindowRerankerConformance } from './conformance.js';
import { createRerankerFixture } from './conformance-fixture.js';
import { createFusionReranker, type FusionRerankTrace } from './fusion-reranker.js';
import { createHybridReranker } from './hybrid-reranker.js';

const question = FIXTURE_QUESTIONS.find((q) => q.id === 'Fixture-Medical-01')!;
const [causeStatement, treatmentStatement] = question.evidence.split('; ').map((s) => s.replace(/\.$/, ''));

async function fixture(): Promise<{ index: CorpusIndex; context: QueryContext; evidence: EvidenceUnit[] }> {
  const medical = FIXTURE_DOCUMENTS.find((d) => d.corpus_name === 'Medical')!;
  // One chunk per sentence-group of ~400 characters, so that windows overlap several chunks.
  const text = medical.context;
  const chunks: Chunk[] = [];
  for (let start = 0, n = 0; start < text.length; n += 1) {
    const end = Math.min(text.length, start + 400);
    chunks.push({ id: `medical#${n}`, documentId: 'medical', start, end, text: text.slice(start, end) });
    start = end;
  }
  const hand = await buildHandIndex({
    corpus: 'Medical',
    chunks,
    documents: [{ id: 'medical', text }],
    entities: [
      { id: 'veltrane', name: 'veltrane dust' },
      { id: 'morrow', name: 'Morrow syndrome' },
      { id: 'calditrex', name: 'calditrex' },
    ],
    relations: [
      { id: 'causes', source: 'veltrane', target: 'morrow', label: 'causes' },
      { id: 'treats', source: 'calditrex', target: 'morrow', label: 'treats' },
    ],
    lexical: true,
  });
  const faiss = createFaissVectorIndex({ dimension: hand.encoder.dimension });
  await faiss.add(await hand.encoder.encode(hand.windowList.map((w) => w.text)));
  // Real faiss window index; no windowVector(), so dense scores come from faiss.
  const { windowVector: _unused, ...rest } = hand;
  const index: CorpusIndex = { ...rest, windowIndex: faiss };
  const chunksWith = (phrase: string) => chunks.filter((c) => c.text.toLowerCase().includes(phrase.toLowerCase())).map((c) => c.id);
  const evidence: EvidenceUnit[] = [
    {
      id: 'u1',
      kind: 'relation',
      refId: 'causes',
      text: 'veltrane dust causes Morrow syndrome',
      chunkIds: chunksWith('veltrane dust causes'),
      pathIds: ['p1'],
      score: 1,
    },
    {
      id: 'u2',
      kind: 'relation',
      refId: 'treats',
      text: 'calditrex treats Morrow syndrome',
      chunkIds: chunksWith('treated with calditrex'),
      pathIds: ['p1'],
      score: 0.9,
    },
    { id: 'u3', kind: 'entity', refId: 'morrow', text: 'Morrow syndrome', chunkIds: chunksWith('Morrow syndrome is a rare'), pathIds: ['p1'], score: 0.8 },
  ];
  const [queryVector] = await createHashingEncoder().encode([question.question]);
  const { policy } = (await createRerankerFixture()).context;
  return { index, context: { question: { id: question.id, text: question.question }, queryVector, policy }, evidence };
}

describe('rerankers over a faiss window index and BM25 from @mosaic/vector-index', () => {
  it('the bi-encoder returns windows holding both hops of the multi-hop question', async () => {
    const f = await fixture();
    expect(f.evidence.every((u) => u.chunkIds.length > 0)).toBe(true);
    const { windows, trace } = await createBiEncoderReranker().rerank({ ...f, topN: 15 });
    expect(trace.dense).toBe('window-index');
    const texts = windows.map((w) => w.text);
    expect(texts.some((t) => t.includes(causeStatement))).toBe(true);
    expect(texts.some((t) => t.includes(treatmentStatement))).toBe(true);
    // Scores are faiss inner products of normalised vectors: cosines.
    for (const w of windows) expect(w.score).toBeLessThanOrEqual(1 + 1e-6);
  });

  it('the hybrid reranker reads BM25 from the index lexical window index', async () => {
    const f = await fixture();
    const { windows, trace } = await createHybridReranker().rerank({ ...f, topN: 15 });
    expect(trace.lexical).toBe('index');
    expect(windows.some((w) => (w.scores?.bm25 ?? 0) > 0)).toBe(true);
    expect(windows.some((w) => w.text.includes(treatmentStatement))).toBe(true);
  });

  it('the fusion reranker finds the second hop in the whole corpus and keeps provenance of the first', async () => {
    const f = await fixture();
    const thin = f.evidence.slice(0, 1);
    const reached = new Set(thin[0].chunkIds.flatMap((c) => f.index.chunks.windowsOfChunk(c).map((w) => w.id)));
    const { windows, trace } = await createFusionReranker({ pool: 5 }).rerank({ ...f, evidence: thin, topN: 5 });
    const fusion = trace as FusionRerankTrace;
    expect(fusion.lexical).toBe('index');
    expect(fusion.dense).toBe('window-index');
    const second = windows.find((w) => w.text.includes(treatmentStatement));
    expect(second).toBeDefined();
    expect(reached.has(second!.id)).toBe(false);
    expect(second!.evidenceIds).toEqual([]);
    expect(fusion.origins[second!.id].some((source) => source === 'lexical' || source === 'dense')).toBe(true);
    expect(fusion.expanded).toContain(second!.id);
    const first = windows.filter((w) => w.text.includes(causeStatement));
    expect(first.length).toBeGreaterThan(0);
    for (const window of windows) expect(window.evidenceIds.length > 0).toBe(reached.has(window.id));
    expect(first.some((w) => w.evidenceIds.includes('u1'))).toBe(true);
  });
});

describe('checkWindowRerankerConformance on faiss + BM25', () => {
  it.each([
    ['bi-encoder on faiss', () => createBiEncoderReranker(), false],
    ['hybrid on faiss + BM25', () => createHybridReranker(), false],
    ['fusion on faiss + BM25', () => createFusionReranker(), true],
  ] as const)('%s passes', async (_name, create, allowWindowsWithoutEvidence) => {
    const report = await checkWindowRerankerConformance({ reranker: create(), fixture: await fixture(), allowWindowsWithoutEvidence });
    expect(report.failures).toEqual([]);
  });
});
