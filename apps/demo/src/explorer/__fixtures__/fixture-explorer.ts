import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAIAnalyzer } from '@mosaic/analyzer';
import { createEmbeddedEncoder } from '@mosaic/encoders';
import { createOpenAIGenerator } from '@mosaic/generation';
import { buildCorpusIndexes, createOfflineExtractor, loadIndex, type LoadedCorpusIndex } from '@mosaic/indexing';
import { corpusDirectoryName } from '@mosaic/indexing/internal';
import { createMosaic } from '@mosaic/pipeline';
import { FIXTURE_QUESTIONS, startOpenAIStub, writeFixtureCorpus, type OpenAIStub } from '@mosaic/testing';
import { startExplorerServer, type ExplorerCorpus, type ExplorerServer } from '../explorer-server.js';

/** What the stub's 'policy-model' answers: out-of-range controls that validation must clamp or fix. */
export const STUB_POLICY = {
  seedLimit: 40,
  beamWidth: 2,
  maxDepth: 4,
  stopRegime: 'Medium',
  useConnector: true,
  targetEntities: ['veltrane dust', 'anti-inflammatory drug'],
  targetFacets: ['treatment'],
  rationale: 'two hops: what the dust causes, then what treats it',
};

export interface FixtureExplorer {
  server: ExplorerServer;
  /** OpenAI-compatible stub: model 'policy-model' answers STUB_POLICY, every other call fails with HTTP 500. */
  stub: OpenAIStub;
  index: LoadedCorpusIndex;
  close(): Promise<void>;
}

/**
 * The explorer over a real index of the fixture corpus's Medical page (built offline with the
 * embedded encoder), served as five corpora: 'Medical' (offline analyzer, extractive generator),
 * 'analyzer-openai' (a real OpenAI analyzer whose stub answers STUB_POLICY, which validation repairs),
 * 'analyzer-down' and 'generator-down' (a real OpenAI analyzer / generator whose endpoint fails with
 * HTTP 500, no fallback) and 'generator-fallback' (the same failing generator, falling back to extractive).
 */
export async function startFixtureExplorer(options: { assetsDir?: string; maxBodyBytes?: number } = {}): Promise<FixtureExplorer> {
  const dir = mkdtempSync(join(tmpdir(), 'mosaic-explorer-'));
  let stub: OpenAIStub | undefined;
  try {
    const files = await writeFixtureCorpus(join(dir, 'data'));
    const encoder = await createEmbeddedEncoder();
    const outDir = join(dir, 'indexes');
    await buildCorpusIndexes({ corpusPath: files.corpusPath, outDir, encoder, extractor: createOfflineExtractor(), corpora: ['Medical'] });
    const index = await loadIndex({ dir: join(outDir, corpusDirectoryName('Medical')), encoder });
    stub = await startOpenAIStub({ respond: (request) => (request.model === 'policy-model' ? { json: STUB_POLICY } : { status: 500 }) });
    const connection = { apiKey: 'test-key', baseURL: stub.url, maxRetries: 0, timeoutMs: 5000 };
    const corpora: Record<string, ExplorerCorpus> = {
      Medical: { index, mosaic: createMosaic({ index }) },
      'analyzer-openai': { index, mosaic: createMosaic({ index, analyzer: createOpenAIAnalyzer({ ...connection, model: 'policy-model', fallback: false }) }) },
      'analyzer-down': { index, mosaic: createMosaic({ index, analyzer: createOpenAIAnalyzer({ ...connection, fallback: false }) }) },
      'generator-down': { index, mosaic: createMosaic({ index, generator: createOpenAIGenerator({ ...connection, onFailure: 'throw' }) }) },
      'generator-fallback': { index, mosaic: createMosaic({ index, generator: createOpenAIGenerator({ ...connection, onFailure: 'extractive' }) }) },
    };
    const server = await startExplorerServer({
      mosaicFor: async (corpus) => corpora[corpus]!,
      corpora: Object.keys(corpora),
      examples: { Medical: FIXTURE_QUESTIONS.filter((q) => q.source === 'Medical').map((q) => q.question).slice(0, 3) },
      assetsDir: options.assetsDir,
      maxBodyBytes: options.maxBodyBytes,
    });
    const running = stub;
    return {
      server,
      stub: running,
      index,
      async close() {
        await server.close();
        await running.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stub?.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
