import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedEncoder } from '@mosaic/encoders';
import { buildCorpusIndexes, createOfflineExtractor } from '@mosaic/indexing';
import { writeFixtureCorpus } from '@mosaic/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ExplorerServer } from '../explorer/explorer-server.js';
import type { CorporaResponse, ExplorerAskResponse } from '../explorer/explorer-types.js';
import { EXPLORE_HELP, exploreCommand } from './explore-command.js';

async function capture<T>(run: () => Promise<T>): Promise<{ value?: T; error?: Error; out: string }> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  try {
    return { value: await run(), out };
  } catch (error) {
    return { error: error as Error, out };
  } finally {
    spy.mockRestore();
  }
}

describe('mosaic explore', () => {
  let dir: string;
  let indexDir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mosaic-explore-cmd-'));
    const files = await writeFixtureCorpus(join(dir, 'data'));
    indexDir = join(dir, 'indexes');
    await buildCorpusIndexes({ corpusPath: files.corpusPath, outDir: indexDir, encoder: await createEmbeddedEncoder(), extractor: createOfflineExtractor() });
    writeFileSync(
      join(dir, 'questions.json'),
      JSON.stringify([
        { id: 'q1', source: 'Novel-90001', question: 'Who commanded the Gull’s Wing?', question_type: 'Fact Retrieval' },
        { id: 'q2', source: 'Medical', question: 'What is Morrow syndrome?', question_type: 'Fact Retrieval' },
      ]),
    );
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the indexes on 127.0.0.1, prints the URL and stops on abort', async () => {
    const controller = new AbortController();
    let server: ExplorerServer | undefined;
    let listening!: () => void;
    const ready = new Promise<void>((resolve) => (listening = resolve));
    const running = capture(() =>
      exploreCommand(['--index', indexDir, '--corpus', 'Novel-90001', '--questions', join(dir, 'questions.json')], {
        abortSignal: controller.signal,
        onListening: (s) => {
          server = s;
          listening();
        },
      }),
    );
    await ready;
    expect(server!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const corpora = (await (await fetch(new URL('/api/corpora', server!.url))).json()) as CorporaResponse;
    expect(corpora.corpora.map((c) => c.name).sort()).toEqual(['Medical', 'Novel-90001', 'Novel-90002']);
    expect(corpora.defaultCorpus).toBe('Novel-90001');
    expect(corpora.corpora.find((c) => c.name === 'Medical')!.examples).toEqual(['What is Morrow syndrome?']);
    const answer = await fetch(new URL('/api/ask', server!.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'What is Morrow syndrome?', corpus: 'Medical', policy: 'medium' }),
    });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as ExplorerAskResponse;
    expect(body.corpus).toBe('Medical');
    expect(body.analysis.analyzer).toBe('fixed:medium');
    expect(body.windows.length).toBeGreaterThan(0);

    controller.abort();
    const { error, out } = await running;
    expect(error).toBeUndefined();
    expect(out).toContain(`Mosaic explorer: ${server!.url}`);
    await expect(fetch(new URL('/api/corpora', server!.url))).rejects.toThrow();
  });

  it.each([
    [['--index', 'x', '--port', '70000']],
    [['--index', 'x', '--port', 'abc']],
    [['--index', 'x', 'stray question']],
    [['--index', 'x', '--policy', 'wide']],
  ])('refuses %j as a usage error', async (argv) => {
    const { error } = await capture(() => exploreCommand(argv));
    expect(error?.name).toBe('MosaicCliError');
  });

  it('refuses an unknown corpus and a missing index directory', async () => {
    expect((await capture(() => exploreCommand(['--index', indexDir, '--corpus', 'Nope']))).error?.name).toBe('MosaicCliError');
    expect((await capture(() => exploreCommand(['--index', join(dir, 'missing')]))).error?.name).toBe('MosaicCliError');
  });

  it('prints its help', async () => {
    const { out, error } = await capture(() => exploreCommand(['--help']));
    expect(error).toBeUndefined();
    expect(out).toBe(EXPLORE_HELP);
    expect(out).toMatch(/--port/);
  });
});
