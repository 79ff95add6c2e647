import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { startOpenAIStub, writeFixtureCorpus, type FixtureCorpusFiles } from '@mosaic/testing';
import { ANSWER_JUDGE_SYSTEM_PROMPT } from './bench/answer-judge.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { locateIndexes } from './index-locator.js';
import { main } from './main.js';

async function run(argv: string[]) {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((err += String(chunk)), true));
  try {
    const code = await main(argv);
    return { code, out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe('mosaic CLI on the fixture corpus', () => {
  let dir: string;
  let files: FixtureCorpusFiles;
  let indexDir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mosaic-cli-'));
    files = await writeFixtureCorpus(join(dir, 'data'));
    indexDir = join(dir, 'indexes');
    const r = await run(['index', '--corpus', files.corpusPath, '--out', indexDir]);
    expect(r.err).not.toMatch(/Error/);
    expect(r.code).toBe(0);
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('indexes one directory per corpus_name', () => {
    const located = locateIndexes(indexDir);
    expect([...located.keys()].sort()).toEqual(['Medical', 'Novel-90001', 'Novel-90002']);
    for (const l of located.values()) expect(l.manifest.counts.windows).toBeGreaterThan(0);
  });

  it('ask prints policy, seeds, stop reason, windows and an extractive answer', async () => {
    const r = await run(['ask', '--index', indexDir, '--corpus', 'Medical', 'What drug treats the disease caused by veltrane dust?']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Policy \(/);
    expect(r.out).toMatch(/Seeds \(\d+\)/);
    expect(r.out).toMatch(/stop: (max-depth|low-gain|exhausted)/);
    expect(r.out).toMatch(/Answer \(extractive/);
  });

  it('ask --json returns the trace', async () => {
    const r = await run(['ask', '--index', indexDir, '--corpus', 'Medical', '--json', '--policy', 'wide', 'What is Morrow syndrome?']);
    expect(r.code).toBe(0);
    const parsed = JSON.parse(r.out);
    expect(parsed.analysis.analyzer).toBe('fixed:wide');
    expect(parsed.trace.traversal.depths.length).toBeGreaterThan(0);
  });

  it('retrieve writes exactly the documented line format, picking the index by source', async () => {
    const out = join(dir, 'runs', 'fixture.jsonl');
    const r = await run(['retrieve', '--index', indexDir, '--questions', files.questionsPath, '--out', out, '--windows', '5']);
    expect(r.code).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const questions = JSON.parse(readFileSync(files.questionsPath, 'utf8'));
    expect(lines.map((l) => l.id)).toEqual(questions.map((q: { id: string }) => q.id));
    for (const line of lines) {
      expect(Object.keys(line).sort()).toEqual(['contexts', 'depth_reached', 'evidence_units', 'id', 'latency_ms', 'paths_evaluated', 'policy']);
      expect(line.contexts.length).toBeLessThanOrEqual(5);
      expect(line.contexts.length).toBeGreaterThan(0);
      expect(typeof line.latency_ms).toBe('number');
    }
  });

  it('bench writes a report with every system, charts and raw runs', async () => {
    const out = join(dir, 'bench');
    const r = await run(['bench', '--index', indexDir, '--questions', files.questionsPath, '--out', out, '--systems', 'bm25,dense,fixed-wide,adaptive']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\| adaptive \|/);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.systems.map((s: { name: string }) => s.name)).toEqual(['bm25', 'dense', 'fixed-wide', 'adaptive']);
    for (const s of report.systems) expect(s.errors).toEqual([]);
    const wide = report.systems[2];
    const adaptive = report.systems[3];
    expect(wide.effort.pathsEvaluated).toBeGreaterThan(0);
    expect(adaptive.policy.count).toBe(report.questions);
    for (const f of ['report.md', 'er-by-type.svg', 'latency.svg', 'policy-distribution.svg', 'runs/bm25.jsonl']) {
      expect(existsSync(join(out, f))).toBe(true);
    }
  });

  it('--reranker: an unknown name is a usage error listing the valid names', async () => {
    for (const command of ['retrieve', 'bench']) {
      const r = await run([command, '--index', indexDir, '--questions', files.questionsPath, '--out', join(dir, `bad-${command}`), '--reranker', 'cross-encoder']);
      expect(r.code).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(/cross-encoder/);
      for (const name of ['bi-encoder', 'hybrid', 'bi-encoder+expand', 'hybrid+expand', 'fusion']) expect(r.err).toContain(name);
    }
    const graph = await run(['retrieve', '--index', indexDir, '--questions', files.questionsPath, '--out', join(dir, 'bad-graph'), '--graph', 'maybe']);
    expect(graph.code).toBe(2);
    expect(graph.err).toMatch(/--graph must be one of on, off/);
    const help = await run(['bench', '--help']);
    expect(help.out).toMatch(/--reranker NAME/);
    expect(help.out).toMatch(/--graph on\|off/);
    expect(help.out).toMatch(/-nograph/);
  });

  it('retrieve --reranker selects the reranker; --graph off keeps the line format with no graph evidence', async () => {
    const read = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const keys = ['contexts', 'depth_reached', 'evidence_units', 'id', 'latency_ms', 'paths_evaluated', 'policy'];
    const hybridOut = join(dir, 'runs', 'hybrid.jsonl');
    expect((await run(['retrieve', '--index', indexDir, '--questions', files.questionsPath, '--out', hybridOut, '--reranker', 'hybrid'])).code).toBe(0);
    // The same contexts as the bench system that names the hybrid reranker itself.
    const bench = join(dir, 'bench-adaptive-hybrid');
    expect((await run(['bench', '--index', indexDir, '--questions', files.questionsPath, '--out', bench, '--systems', 'adaptive+hybrid'])).code).toBe(0);
    const hybrid = read(hybridOut);
    expect(hybrid.map((l) => l.contexts)).toEqual(read(join(bench, 'runs', 'adaptive+hybrid.jsonl')).map((l) => l.contexts));
    // ... which the default (fusion) reranker does not give: the comparison above can fail.
    const fusionOut = join(dir, 'runs', 'fusion.jsonl');
    expect((await run(['retrieve', '--index', indexDir, '--questions', files.questionsPath, '--out', fusionOut])).code).toBe(0);
    expect(hybrid.map((l) => l.contexts)).not.toEqual(read(fusionOut).map((l) => l.contexts));

    // Graph off, default (fusion) reranker: windows still come from the whole-corpus searches.
    const offOut = join(dir, 'runs', 'nograph.jsonl');
    expect((await run(['retrieve', '--index', indexDir, '--questions', files.questionsPath, '--out', offOut, '--graph', 'off'])).code).toBe(0);
    const off = read(offOut);
    for (const line of off) {
      expect(Object.keys(line).sort()).toEqual(keys);
      expect([line.paths_evaluated, line.depth_reached, line.evidence_units]).toEqual([0, 0, 0]);
      expect(line.contexts.length).toBeGreaterThan(0);
      expect(line.policy.maxDepth).toEqual(expect.any(Number));
    }
    // Graph off with an evidence-only reranker: nothing to rank.
    const biOut = join(dir, 'runs', 'nograph-bi.jsonl');
    expect((await run(['retrieve', '--index', indexDir, '--questions', files.questionsPath, '--out', biOut, '--graph', 'off', '--reranker', 'bi-encoder'])).code).toBe(0);
    for (const line of read(biOut)) expect(line.contexts).toEqual([]);
  });

  it('bench --reranker hybrid: fixed and adaptive systems use it, the report gives the graph reach', async () => {
    const out = join(dir, 'bench-hybrid');
    const r = await run(['bench', '--index', indexDir, '--questions', files.questionsPath, '--out', out, '--reranker', 'hybrid', '--systems', 'bm25,fixed-wide,adaptive,adaptive+hybrid']);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.reranker).toBe('hybrid');
    expect(report.graph).toBe(true);
    const byName = Object.fromEntries(report.systems.map((s: { name: string }) => [s.name, s]));
    expect(Object.keys(byName)).toEqual(['bm25', 'fixed-wide', 'adaptive', 'adaptive+hybrid']);
    for (const s of report.systems) expect(s.errors).toEqual([]);
    const lines = (name: string) => readFileSync(join(out, 'runs', `${name}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines('adaptive').map((l) => l.contexts)).toEqual(lines('adaptive+hybrid').map((l) => l.contexts));
    expect(byName.bm25.reach).toBeUndefined();
    for (const name of ['fixed-wide', 'adaptive']) {
      const { reach, metrics } = byName[name];
      expect(reach.windowsPerQuestion).toBeGreaterThan(0);
      // hybrid ranks only evidence windows: the returned windows are among the reached ones.
      const returned = lines(name).map((l) => l.contexts.length);
      expect(reach.windowsPerQuestion).toBeGreaterThanOrEqual(returned.reduce((a, b) => a + b, 0) / returned.length);
      expect(reach.er).toBeGreaterThanOrEqual(metrics['15'].overall.er);
      expect(reach.er).toBeGreaterThan(0);
      expect(Object.keys(reach.byType).sort()).toEqual(Object.keys(metrics['15'].byType).sort());
    }
    const header = r.out.split('\n').find((l) => l.startsWith('| system'))!;
    expect(header).toMatch(/\| reach windows \| reach er \|$/);
    const row = (name: string) => r.out.split('\n').find((l) => l.startsWith(`| ${name} |`))!.split('|').map((c) => c.trim()).slice(1, -1);
    expect(row('bm25').slice(-2)).toEqual(['–', '–']);
    const adaptive = row('adaptive');
    expect(adaptive.slice(-2)).toEqual([byName.adaptive.reach.windowsPerQuestion.toFixed(1), (byName.adaptive.reach.er * 100).toFixed(1)]);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/## Graph reach by question type/);
  });

  it('bench --graph off: Mosaic systems are named -nograph, reach nothing, and still return windows', async () => {
    const out = join(dir, 'bench-nograph');
    const r = await run(['bench', '--index', indexDir, '--questions', files.questionsPath, '--out', out, '--graph', 'off', '--systems', 'bm25,fixed-wide,adaptive']);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.graph).toBe(false);
    expect(report.systems.map((s: { name: string }) => s.name)).toEqual(['bm25', 'fixed-wide-nograph', 'adaptive-nograph']);
    for (const s of report.systems.slice(1)) {
      expect(s.errors).toEqual([]);
      expect(s.reach.windowsPerQuestion).toBe(0);
      expect(s.reach.er).toBe(0);
      expect(s.effort).toEqual({ pathsEvaluated: 0, depthReached: 0, selectedPaths: 0, retainedEvidence: 0 });
      expect(s.policy.count).toBe(report.questions);
      // The default fusion reranker still ranks whole-corpus candidates.
      expect(s.metrics['15'].overall.chars).toBeGreaterThan(0);
    }
    expect(existsSync(join(out, 'runs', 'adaptive-nograph.jsonl'))).toBe(true);
    expect(r.out).toMatch(/\| adaptive-nograph \|/);
  });

  it('retrieve --policy-log writes one line per analysis and policies summarises it', async () => {
    const log = join(dir, 'policy-log.jsonl');
    const out = join(dir, 'runs', 'logged.jsonl');
    expect((await run(['retrieve', '--index', indexDir, '--questions', files.questionsPath, '--out', out, '--policy-log', log])).code).toBe(0);
    const records = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const questions = JSON.parse(readFileSync(files.questionsPath, 'utf8'));
    expect(records.map((r) => r.questionId)).toEqual(questions.map((q: { id: string }) => q.id));
    for (const r of records) expect(r).toMatchObject({ analyzer: 'offline', policy: expect.objectContaining({ maxDepth: expect.any(Number) }) });
    const summary = await run(['policies', '--log', log, '--json']);
    expect(summary.code).toBe(0);
    const parsed = JSON.parse(summary.out);
    expect(parsed.count).toBe(questions.length);
    expect(parsed.uniquePolicies).toBeGreaterThan(1);
    const fromQuestions = await run(['policies', '--questions', files.questionsPath, '--index', indexDir, '--json']);
    expect(fromQuestions.code).toBe(0);
    expect(JSON.parse(fromQuestions.out).count).toBe(questions.length);
  });

  it('bench --judge generates and judges answers through an OpenAI-compatible server', async () => {
    const stub = await startOpenAIStub({
      respond: (request) => {
        const system = String(request.messages?.[0]?.content ?? '');
        if (system === ANSWER_JUDGE_SYSTEM_PROMPT) {
          const data = String(request.messages?.[1]?.content ?? '');
          // The judge sees the generated answer as data; score 1 when it quotes the stub generator's text.
          return { json: { rationale: 'stub', verdict: data.includes('GENERATED') ? 'correct' : 'incorrect', score: data.includes('GENERATED') ? 1 : 0 } };
        }
        return { content: 'GENERATED answer [1]' };
      },
    });
    const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
    process.env.OPENAI_API_KEY = 'test-key';
    process.env.OPENAI_BASE_URL = stub.url;
    try {
      const out = join(dir, 'bench-judged');
      const r = await run(['bench', '--index', indexDir, '--questions', files.questionsPath, '--out', out, '--systems', 'bm25,adaptive', '--judge']);
      expect(r.code, r.err).toBe(0);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
      const questions = JSON.parse(readFileSync(files.questionsPath, 'utf8'));
      for (const system of ['adaptive', 'bm25']) {
        expect(report.answerCorrectness[system].overall).toMatchObject({ judged: questions.length, failed: 0, correctness: 1 });
      }
      const chat = stub.requests.filter((q) => q.kind === 'chat');
      expect(chat).toHaveLength(questions.length * 2 * 2); // generate + judge, two systems
      expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/correctness/i);
    } finally {
      process.env.OPENAI_API_KEY = saved.key;
      process.env.OPENAI_BASE_URL = saved.url;
      if (saved.key === undefined) delete process.env.OPENAI_API_KEY;
      if (saved.url === undefined) delete process.env.OPENAI_BASE_URL;
      await stub.close();
    }
  });

  it('migrate copies an index into SurrealDB and ask answers from there (separate processes, on-disk engine)', () => {
    const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
    const url = `surrealkv://${join(dir, 'surreal')}`;
    const migrate = spawnSync(process.execPath, [cli, 'migrate', '--index', indexDir, '--corpus', 'Medical', '--surreal', url, '--database', 'medical'], { encoding: 'utf8' });
    expect(migrate.status, migrate.stderr).toBe(0);
    expect(migrate.stdout).toMatch(/migrated Medical/);
    const ask = spawnSync(process.execPath, [cli, 'ask', '--surreal', url, '--database', 'medical', '--json', 'What drug treats Morrow syndrome?'], { encoding: 'utf8' });
    expect(ask.status, ask.stderr).toBe(0);
    const result = JSON.parse(ask.stdout);
    expect(result.windows.length).toBeGreaterThan(0);
    expect(result.windows.map((w: { text: string }) => w.text).join(' ')).toMatch(/calditrex/);
    const wrong = spawnSync(process.execPath, [cli, 'ask', '--surreal', url, '--database', 'nothing_here', 'x?'], { encoding: 'utf8' });
    expect(wrong.status).not.toBe(0);
    expect(wrong.stderr).toMatch(/MosaicIndexMismatchError/);
  });

  it('writes all of a large --json result to a pipe before it exits (it was cut at 64 KiB)', () => {
    const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
    // Through a shell pipe, as in `mosaic ask --json | jq`: a real pipe holds 64 KiB, so a
    // process.exit() before stdout drains loses the tail. (A child's stdout straight to node is a
    // socket with a larger buffer, which hid the bug.)
    const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
    const command = [process.execPath, cli, 'ask', '--index', join(indexDir, 'medical'), '--json', 'What drug treats Morrow syndrome?'].map(quote).join(' ');
    // Whether the tail was lost depended on when the reader drained the pipe (3 of 8 runs here cut at
    // 64 KiB, 2 at 80 KiB), so several runs must all come through whole.
    for (let run = 0; run < 6; run += 1) {
      const piped = spawnSync('sh', ['-c', `${command} | cat`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      expect(piped.status, piped.stderr).toBe(0);
      // The fixture's full result is about 100 KB, more than the pipe holds.
      expect(piped.stdout.length).toBeGreaterThan(64 * 1024);
      const result = JSON.parse(piped.stdout);
      expect(result.windows.length).toBeGreaterThan(0);
      expect(result.trace.question).toBe('What drug treats Morrow syndrome?');
    }
  }, 60_000);

  it('usage errors are one clear line and exit code 2', async () => {
    const unknownFlag = await run(['ask', '--index', indexDir, '--bogus', 'x']);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.err.trim().split('\n')).toHaveLength(1);
    expect(unknownFlag.err).toMatch(/bogus/);
    const missing = await run(['retrieve', '--index', indexDir, '--questions', join(dir, 'nope.json'), '--out', join(dir, 'x.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/nope\.json/);
    const badJson = join(dir, 'bad.json');
    writeFileSync(badJson, '{not json');
    const bad = await run(['bench', '--index', indexDir, '--questions', badJson, '--out', join(dir, 'b')]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/invalid JSON/);
    expect((await run(['frobnicate'])).code).toBe(2);
    const help = await run(['retrieve', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/latency_ms/);
  });

  it('refuses an index built with another encoder with one line', async () => {
    const r = await run(['ask', '--index', indexDir, '--corpus', 'Medical', '--encoder', 'onnx:/nonexistent-model', 'What?']);
    expect(r.code).not.toBe(0);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });
});
