// End to end through the real index build: the fixture corpus (@mosaic/testing) is written to disk,
// indexed by buildIndex (offline extractor, real faiss, BM25) and loaded back by loadIndex; the
// pipeline with its offline defaults must then find the windows holding every hop of the
// multi-hop questions. Encoder: the embedded ONNX model when it has been built, else the hashing one.
// The fixture pages are short (2–6k characters), so windows are 400 characters (stride 200) and only
// the top 8 are kept: retrieval has to pick the right few of 9–21 windows instead of returning all.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedEncoder } from '@mosaic/encoders';
import { buildIndex, createOfflineExtractor, loadIndex, type LoadedCorpusIndex } from '@mosaic/indexing';
import type { Encoder } from '@mosaic/spec';
import { FIXTURE_MULTI_HOP_IDS, FIXTURE_QUESTIONS, writeFixtureCorpus } from '@mosaic/testing';
import { createHashingEncoder } from '@mosaic/testing/hand-built-index';
import { createBiEncoderReranker, createHybridReranker, isFusionRerankTrace } from '@mosaic/window-reranker';
import { createMosaic } from './create-mosaic.js';

/** Content tokens (lower-case words of 3+ characters). */
const tokens = (text: string) =>
  new Set(
    text
      .toLowerCase()
      .match(/[a-z0-9]+/g)
      ?.filter((t) => t.length > 2) ?? [],
  );

/** Share of a statement's tokens found in one text. */
function coverage(statement: string, text: string): number {
  const wanted = tokens(statement);
  const have = tokens(text);
  let hit = 0;
  for (const token of wanted) if (have.has(token)) hit += 1;
  return wanted.size === 0 ? 1 : hit / wanted.size;
}

/** Evidence statements of a fixture question not covered (≥ 0.8 of their tokens) by any single window. */
function missingEvidence(evidence: string, windows: readonly { text: string }[]): string[] {
  return evidence
    .split('; ')
    .map((statement) => statement.trim())
    .filter((statement) => !windows.some((window) => coverage(statement, window.text) >= 0.8));
}

async function pickEncoder(): Promise<Encoder> {
  try {
    return await createEmbeddedEncoder();
  } catch (error) {
    if ((error as Error).name !== 'MosaicInputError') throw error;
    return createHashingEncoder();
  }
}

const WINDOW = { size: 400, stride: 200 };
const TOP = 8;

describe('end to end: buildIndex → loadIndex → createMosaic', () => {
  let dir: string;
  let encoder: Encoder;
  const indexes = new Map<string, LoadedCorpusIndex>();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mosaic-pipeline-e2e-'));
    const files = await writeFixtureCorpus(join(dir, 'corpus'));
    encoder = await pickEncoder();
    const extractor = createOfflineExtractor();
    const corpora = [...new Set(FIXTURE_MULTI_HOP_IDS.map((id) => FIXTURE_QUESTIONS.find((q) => q.id === id)!.source))];
    for (const corpus of corpora) {
      const outDir = join(dir, 'index', corpus);
      await buildIndex({
        corpusPath: corpus === 'Medical' ? files.medicalPath : files.novelPath,
        corpus,
        encoder,
        extractor,
        outDir,
        window: WINDOW,
        chunkSize: 300,
      });
      indexes.set(corpus, await loadIndex({ dir: outDir, encoder }));
    }
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('loads indexes with faiss window indexes, BM25 and a graph', () => {
    for (const index of indexes.values()) {
      expect(index.manifest.encoder.id).toBe(encoder.id);
      expect(index.windowIds.length).toBeGreaterThan(1);
      expect(index.graph.nodeCount).toBeGreaterThan(0);
      expect(index.lexical?.windows).toBeDefined();
      expect(index.manifest.window).toEqual(WINDOW);
    }
  });

  for (const id of FIXTURE_MULTI_HOP_IDS) {
    const question = FIXTURE_QUESTIONS.find((q) => q.id === id)!;
    it(`finds every evidence window of multi-hop question ${id}`, async () => {
      const index = indexes.get(question.source)!;
      const result = await createMosaic({ index, windows: TOP }).retrieve({ question: { id, text: question.question } });
      expect(result.windows.length).toBeGreaterThan(0);
      expect(result.windows.length).toBeLessThanOrEqual(TOP);
      expect(result.windows.length).toBeLessThan(index.windowIds.length);
      expect(result.evidence.length).toBeGreaterThan(0);
      expect(missingEvidence(question.evidence, result.windows)).toEqual([]);
      // Provenance (default fusion reranker): a window either was reached from retained evidence, or
      // was proposed by the whole-corpus lexical/dense search and is listed as expanded in the trace.
      const evidenceIds = new Set(result.evidence.map((unit) => unit.id));
      const trace = result.trace.rerank;
      if (!isFusionRerankTrace(trace)) expect.unreachable('the default reranker is fusion');
      expect(trace.reranker).toBe('fusion');
      for (const window of result.windows) {
        for (const evidenceId of window.evidenceIds) expect(evidenceIds.has(evidenceId)).toBe(true);
        if (window.evidenceIds.length === 0) {
          expect(trace.expanded).toContain(window.id);
          expect(trace.origins[window.id]).not.toContain('graph');
        } else {
          expect(trace.origins[window.id]).toContain('graph');
        }
      }
      expect(result.windows.some((window) => window.evidenceIds.length > 0)).toBe(true);
    });

    it(`with the report's bi-encoder reranker, every window of ${id} comes from graph evidence`, async () => {
      const index = indexes.get(question.source)!;
      const result = await createMosaic({ index, windows: TOP, reranker: createBiEncoderReranker() }).retrieve({ question: { id, text: question.question } });
      const evidenceIds = new Set(result.evidence.map((unit) => unit.id));
      expect(result.windows.length).toBeGreaterThan(0);
      for (const window of result.windows) {
        expect(window.evidenceIds.length).toBeGreaterThan(0);
        for (const evidenceId of window.evidenceIds) expect(evidenceIds.has(evidenceId)).toBe(true);
      }
    });
  }

  it('answers with the extractive generator and the hybrid reranker over the loaded BM25 index', async () => {
    const question = FIXTURE_QUESTIONS.find((q) => q.id === 'Fixture-Medical-01')!;
    const mosaic = createMosaic({ index: indexes.get('Medical')!, reranker: createHybridReranker(), windows: TOP });
    const result = await mosaic.ask({ question: question.question });
    expect((result.trace.rerank as { lexical?: string }).lexical).toBe('index');
    expect(missingEvidence(question.evidence, result.windows)).toEqual([]);
    expect(result.answer.text.toLowerCase()).toContain('calditrex');
  });

  it('runs a fixed wide policy with more search effort than the analyzer-chosen one on the same question', async () => {
    const question = FIXTURE_QUESTIONS.find((q) => q.id === 'Fixture-Medical-01')!;
    const mosaic = createMosaic({ index: indexes.get('Medical')!, windows: TOP });
    const adaptive = await mosaic.retrieve({ question: question.question });
    const wide = await mosaic.retrieve({ question: question.question, policy: 'wide' });
    expect(wide.analysis.analyzer).toBe('fixed:wide');
    expect(wide.policy.beamWidth).toBe(16);
    expect(wide.effort.pathsEvaluated).toBeGreaterThanOrEqual(adaptive.effort.pathsEvaluated);
    expect(wide.effort.retainedEvidence).toBeGreaterThanOrEqual(adaptive.effort.retainedEvidence);
  });
});
