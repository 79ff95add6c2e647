import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { scoreQuestion } from '@mosaic/evaluation';
import { startOpenAIStub, writeFixtureCorpus, type FixtureCorpusFiles } from '@mosaic/testing';
import { ANSWER_JUDGE_SYSTEM_PROMPT } from './bench/answer-judge.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { locateIndexes } from './index-locator.js';
import { main, MAX_COMMAND_LINE_CHARS } from './main.js';
import { MAX_QUESTION_CHARS } from './question-input.js';

/**
 * A child process run to its end without blocking this test worker: spawnSync would block its
 * event loop for the whole run, and vitest 3's worker answers the runner over an RPC that times
 * out after 60 s (a CLI build on a loaded machine can take longer). Output is read as UTF-8, whole;
 * the result has spawnSync's fields.
 */
/** The `contexts` of each line of a `mosaic retrieve` output file. */
function contextsOf(path: string): unknown[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line).contexts);
}

function runChild(
  command: string,
  args: readonly string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {},
): Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (data: string) => {
      stdout += data;
    });
    child.stderr.setEncoding('utf8').on('data', (data: string) => {
      stderr += data;
    });
    const timer = options.timeout ? setTimeout(() => child.kill('SIGTERM'), options.timeout) : undefined;
    child.on('error', reject);
    child.on('close', (status, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
    child.stdin.on('error', () => undefined); // a child that exits without reading its input
    child.stdin.end(options.input ?? '');
  });
}

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

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
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('indexes one directory per corpus_name', () => {
    const located = locateIndexes(indexDir);
    expect([...located.keys()].sort()).toEqual(['Medical', 'Novel-90001', 'Novel-90002']);
    for (const l of located.values()) expect(l.manifest.counts.windows).toBeGreaterThan(0);
  });

  it('ask --verbose prints policy, seeds, stop reason, windows and an extractive answer', async () => {
    const r = await run(['ask', '--index', indexDir, '--corpus', 'Medical', '--verbose', 'What drug treats the disease caused by veltrane dust?']);
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
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const questions = JSON.parse(readFileSync(files.questionsPath, 'utf8'));
    expect(lines.map((l) => l.id)).toEqual(questions.map((q: { id: string }) => q.id));
    for (const line of lines) {
      expect(Object.keys(line).sort()).toEqual(['contexts', 'depth_reached', 'evidence_units', 'id', 'latency_ms', 'paths_evaluated', 'policy']);
      expect(line.contexts.length).toBeLessThanOrEqual(5);
      expect(line.contexts.length).toBeGreaterThan(0);
      expect(typeof line.latency_ms).toBe('number');
    }
  });

  it('MOSAIC_LOAD_STALL: load workers silent that long are given up on with a warning, and ask answers the same; a bad value is refused', async () => {
    const ask = (stall?: string) =>
      runChild(process.execPath, [cli, 'ask', '--index', indexDir, '--corpus', 'Medical', '--json', 'What drug treats the disease caused by veltrane dust?'], {
        env: { ...process.env, ...(stall === undefined ? {} : { MOSAIC_LOAD_STALL: stall }) },
      });
    const normal = await ask();
    expect(normal.status, normal.stderr).toBe(0);
    expect(normal.stderr).not.toMatch(/warning/);
    // A worker takes tens of milliseconds to start: silent for 1 ms, each of the three is given up on.
    const alone = await ask('0.001');
    expect(alone.status, alone.stderr).toBe(0);
    const warnings = alone.stderr.split('\n').filter((line) => line.startsWith('warning: '));
    expect(warnings.sort()).toEqual([
      expect.stringMatching(/^warning: the index digest worker was given up on: it was silent for 1 ms; reading its \d+ files on the main thread instead$/),
      'warning: the index load worker was given up on: it was silent for 1 ms; reading its 3 files on the main thread instead',
      expect.stringMatching(/^warning: the index load worker was given up on: it was silent for 1 ms; reading its [45] files on the main thread instead$/),
    ]);
    const windows = (out: string) => JSON.parse(out).windows.map((window: { id: string; score: number }) => [window.id, window.score]);
    expect(windows(alone.stdout)).toEqual(windows(normal.stdout));
    expect(JSON.parse(alone.stdout).answer.text).toBe(JSON.parse(normal.stdout).answer.text);
    const bad = await ask('soon');
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toBe("mosaic ask: MOSAIC_LOAD_STALL must be a positive number of seconds, got 'soon'");
  });

  it('retrieve --timings adds stage_ms: the milliseconds of each stage, which add up to the retrieval', async () => {
    const out = join(dir, 'runs', 'timings.jsonl');
    const r = await run(['retrieve', '--index', indexDir, '--questions', files.questionsPath, '--out', out, '--timings']);
    expect(r.code).toBe(0);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const ms = line.stage_ms;
      expect(Object.keys(ms)).toEqual(['analyze', 'encode', 'seeds', 'traverse', 'evidence', 'rerank', 'ground', 'retrieval', 'total']);
      for (const value of Object.values(ms)) expect(value).toBeGreaterThanOrEqual(0);
      // Retrieval is encode + seeds + traverse + evidence + rerank + ground (each rounded to 0.01 ms).
      const parts = ms.encode + ms.seeds + ms.traverse + ms.evidence + ms.rerank + ms.ground;
      expect(Math.abs(parts - ms.retrieval)).toBeLessThan(0.05);
      expect(ms.seeds + ms.traverse).toBeGreaterThan(0);
      expect(ms.total).toBeGreaterThanOrEqual(ms.retrieval);
      expect(line.latency_ms).toBe(ms.total); // the offline analyzer is part of the latency
    }
    const help = await run(['retrieve', '--help']);
    expect(help.out).toMatch(/--timings +add "stage_ms"/);
  });

  it('retrieve warms each index up before its first question (--warmup off skips it): the same contexts either way', async () => {
    const warm = join(dir, 'runs', 'warm.jsonl');
    const cold = join(dir, 'runs', 'cold.jsonl');
    const warmed = await run(['retrieve', '--index', indexDir, '--questions', files.questionsPath, '--out', warm]);
    expect(warmed.code).toBe(0);
    expect(warmed.err).toMatch(/^retrieve: .+ warmed up in \d+\.\d s$/m);
    const skipped = await run(['retrieve', '--index', indexDir, '--questions', files.questionsPath, '--out', cold, '--warmup', 'off']);
    expect(skipped.code).toBe(0);
    expect(skipped.err).not.toMatch(/warmed up/);
    expect(contextsOf(warm)).toEqual(contextsOf(cold));
    const bad = await run(['retrieve', '--index', indexDir, '--questions', files.questionsPath, '--out', join(dir, 'bad-warmup'), '--warmup', 'maybe']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--warmup must be one of on, off/);
    expect((await run(['retrieve', '--help'])).out).toMatch(/--warmup on\|off/);
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
    // Ranked by fusion (the default): every window it ranked holds at least what its evidence reaches
    // and what its top 15 hold; the best 15 of them are printed in the loss line.
    for (const s of [wide, adaptive]) {
      const ranked = s.rankedCandidates;
      expect(ranked.windowsPerQuestion).toBeGreaterThan(s.reach.windowsPerQuestion);
      expect(ranked.er).toBeGreaterThanOrEqual(s.reach.er);
      expect(ranked.er).toBeGreaterThanOrEqual(s.metrics['15'].overall.er);
      expect(ranked.best.k).toBe(15);
      expect(ranked.best.er).toBeLessThanOrEqual(ranked.er);
      expect(r.out).toContain(`(the best 15 of the ${ranked.windowsPerQuestion.toFixed(1)} windows it ranked: ${(ranked.best.er * 100).toFixed(1)})`);
    }
    expect(report.systems[0].rankedCandidates).toBeUndefined();
    for (const f of ['report.md', 'er-by-type.svg', 'latency.svg', 'policy-distribution.svg', 'runs/bm25.jsonl']) {
      expect(existsSync(join(out, f))).toBe(true);
    }
  });

  it('--reranker: an unknown name is a usage error listing the valid names', async () => {
    for (const command of ['retrieve', 'bench']) {
      const r = await run([
        command,
        '--index',
        indexDir,
        '--questions',
        files.questionsPath,
        '--out',
        join(dir, `bad-${command}`),
        '--reranker',
        'cross-encoder',
      ]);
      expect(r.code).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(/cross-encoder/);
      for (const name of ['bi-encoder', 'hybrid', 'fusion']) expect(r.err).toContain(name);
      expect(r.err).not.toContain('+expand');
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
    const read = (file: string) =>
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
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
    expect(
      (await run(['retrieve', '--index', indexDir, '--questions', files.questionsPath, '--out', biOut, '--graph', 'off', '--reranker', 'bi-encoder'])).code,
    ).toBe(0);
    for (const line of read(biOut)) expect(line.contexts).toEqual([]);
  });

  it('bench --reranker hybrid: fixed and adaptive systems use it, the report gives the graph reach', async () => {
    const out = join(dir, 'bench-hybrid');
    const r = await run([
      'bench',
      '--index',
      indexDir,
      '--questions',
      files.questionsPath,
      '--out',
      out,
      '--reranker',
      'hybrid',
      '--systems',
      'bm25,fixed-wide,adaptive,adaptive+hybrid',
    ]);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.reranker).toBe('hybrid');
    expect(report.graph).toBe(true);
    const byName = Object.fromEntries(report.systems.map((s: { name: string }) => [s.name, s]));
    expect(Object.keys(byName)).toEqual(['bm25', 'fixed-wide', 'adaptive', 'adaptive+hybrid']);
    for (const s of report.systems) expect(s.errors).toEqual([]);
    const lines = (name: string) =>
      readFileSync(join(out, 'runs', `${name}.jsonl`), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
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
      // Beam reach: what every path the traversal scored would ground in holds what the retained evidence reaches.
      const beam = byName[name].beamReach;
      expect(beam.windowsPerQuestion).toBeGreaterThanOrEqual(reach.windowsPerQuestion);
      expect(beam.er).toBeGreaterThanOrEqual(reach.er);
      // The best 15 of each set of windows (greedy coverage) hold no more than all of them.
      for (const figures of [reach, beam]) {
        expect(figures.best.k).toBe(15);
        expect(figures.best.er).toBeGreaterThan(0);
        expect(figures.best.er).toBeLessThanOrEqual(figures.er);
      }
    }
    expect(byName.bm25.beamReach).toBeUndefined();
    // Ranked by hybrid: no whole-corpus candidates to report.
    for (const name of ['fixed-wide', 'adaptive']) expect(byName[name].rankedCandidates).toBeUndefined();
    // The ceiling (every window a context) bounds every system's figures, and is printed under the table.
    expect(report.ceiling.er).toBeGreaterThan(0);
    for (const s of report.systems) {
      expect(report.ceiling.er).toBeGreaterThanOrEqual(s.metrics['15'].overall.er);
      if (s.beamReach) expect(report.ceiling.er).toBeGreaterThanOrEqual(s.beamReach.er);
    }
    expect(Object.keys(report.ceiling.byType).sort()).toEqual(Object.keys(byName.bm25.metrics['15'].byType).sort());
    expect(r.out).toContain(
      `Ceiling (ER with every window of the corpus as a context; no retriever of these windows can exceed it): ${(report.ceiling.er * 100).toFixed(1)}`,
    );
    const pc = (v: number) => (v * 100).toFixed(1);
    expect(r.out).toContain(
      `the reranker's top 15 (best 15 = the 15 holding the most gold statements, chosen greedily; a fusion-ranked system also ranks the whole-corpus BM25 and dense top 50): fixed-wide ${pc(byName['fixed-wide'].beamReach.best.er)} → ${pc(byName['fixed-wide'].reach.best.er)} → ${pc(byName['fixed-wide'].metrics['15'].overall.er)}; adaptive`,
    );
    // Policy choice: the graph systems under hybrid, question by question against fixed-wide.
    expect(report.policyComparison).toHaveLength(1);
    const [choice] = report.policyComparison;
    expect(choice.reranker).toBe('hybrid');
    expect(choice.fixed).toEqual(['fixed-wide']);
    expect(choice.questionAware.map((s: { name: string }) => s.name)).toEqual(['adaptive', 'adaptive+hybrid']);
    expect(choice.questions).toBe(byName.bm25.metrics['15'].overall.n_er);
    for (const name of ['fixed-wide', 'adaptive']) expect(choice.er[name]).toBeCloseTo(byName[name].metrics['15'].overall.er, 10);
    expect(choice.oracleEr).toBeCloseTo(byName['fixed-wide'].metrics['15'].overall.er, 10);
    // The tallies, recomputed from the raw runs and the gold questions.
    const gold = new Map(JSON.parse(readFileSync(files.questionsPath, 'utf8')).map((q: { id: string }) => [q.id, q]));
    const erOf = (name: string) => new Map(lines(name).map((l) => [l.id, scoreQuestion(gold.get(l.id) as never, l.contexts).er as number]));
    const [adaptiveEr, wideEr] = [erOf('adaptive'), erOf('fixed-wide')];
    const diffs = [...adaptiveEr].map(([id, er]) => er - wideEr.get(id)!);
    expect(choice.questionAware[0].versus).toEqual([
      {
        fixed: 'fixed-wide',
        better: diffs.filter((d) => d > 1e-9).length,
        equal: diffs.filter((d) => Math.abs(d) <= 1e-9).length,
        worse: diffs.filter((d) => d < -1e-9).length,
      },
    ]);
    expect(choice.questionAware[1].versus).toEqual(choice.questionAware[0].versus);
    expect(r.out).toContain(
      `Policy choice (hybrid reranker, ${choice.questions} questions): fixed-wide holds ${(choice.er['fixed-wide'] * 100).toFixed(1)}; adaptive`,
    );
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/## Policy choice per question \(hybrid reranker, ER@15/);
    const header = r.out.split('\n').find((l) => l.startsWith('| system'))!;
    expect(header).toMatch(/\| reach windows \| reach er \| beam windows \| beam er \|$/);
    const row = (name: string) =>
      r.out
        .split('\n')
        .find((l) => l.startsWith(`| ${name} |`))!
        .split('|')
        .map((c) => c.trim())
        .slice(1, -1);
    expect(row('bm25').slice(-4)).toEqual(['–', '–', '–', '–']);
    const adaptive = row('adaptive');
    expect(adaptive.slice(-4, -2)).toEqual([byName.adaptive.reach.windowsPerQuestion.toFixed(1), (byName.adaptive.reach.er * 100).toFixed(1)]);
    expect(adaptive.slice(-2)).toEqual([byName.adaptive.beamReach.windowsPerQuestion.toFixed(1), (byName.adaptive.beamReach.er * 100).toFixed(1)]);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/## Graph reach by question type/);
  });

  it('bench --graph off: Mosaic systems are named -nograph, reach nothing, and still return windows', async () => {
    const out = join(dir, 'bench-nograph');
    const r = await run([
      'bench',
      '--index',
      indexDir,
      '--questions',
      files.questionsPath,
      '--out',
      out,
      '--graph',
      'off',
      '--systems',
      'bm25,fixed-wide,adaptive',
    ]);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.graph).toBe(false);
    expect(report.systems.map((s: { name: string }) => s.name)).toEqual(['bm25', 'fixed-wide-nograph', 'adaptive-nograph']);
    for (const s of report.systems.slice(1)) {
      expect(s.errors).toEqual([]);
      expect(s.reach.windowsPerQuestion).toBe(0);
      expect(s.reach.er).toBe(0);
      expect(s.beamReach.windowsPerQuestion).toBe(0);
      expect(s.rankedCandidates).toBeUndefined();
      expect(s.effort).toEqual({ pathsEvaluated: 0, depthReached: 0, selectedPaths: 0, retainedEvidence: 0 });
      expect(s.policy.count).toBe(report.questions);
      // The default fusion reranker still ranks whole-corpus candidates.
      expect(s.metrics['15'].overall.chars).toBeGreaterThan(0);
    }
    expect(existsSync(join(out, 'runs', 'adaptive-nograph.jsonl'))).toBe(true);
    expect(r.out).toMatch(/\| adaptive-nograph \|/);
    // Every policy ranks the same windows with the graph off: no policy comparison.
    expect(report.policyComparison).toBeUndefined();
    expect(r.out).not.toContain('Policy choice');
    // Nor is there a graph to lose evidence in.
    expect(r.out).not.toContain('Where evidence is lost');
  });

  it('retrieve --policy-log writes one line per analysis and policies summarises it', async () => {
    const log = join(dir, 'policy-log.jsonl');
    const out = join(dir, 'runs', 'logged.jsonl');
    expect((await run(['retrieve', '--index', indexDir, '--questions', files.questionsPath, '--out', out, '--policy-log', log])).code).toBe(0);
    const records = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
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

  it('migrate copies an index into SurrealDB and ask answers from there (separate processes, on-disk engine)', async () => {
    const url = `surrealkv://${join(dir, 'surreal')}`;
    const migrate = await runChild(process.execPath, [cli, 'migrate', '--index', indexDir, '--corpus', 'Medical', '--store', url, '--database', 'medical']);
    expect(migrate.status, migrate.stderr).toBe(0);
    expect(migrate.stdout).toMatch(/migrated Medical/);
    const ask = await runChild(process.execPath, [cli, 'ask', '--surreal', url, '--database', 'medical', '--json', 'What drug treats Morrow syndrome?']);
    expect(ask.status, ask.stderr).toBe(0);
    const result = JSON.parse(ask.stdout);
    expect(result.windows.length).toBeGreaterThan(0);
    expect(result.windows.map((w: { text: string }) => w.text).join(' ')).toMatch(/calditrex/);
    // The copy keeps the extractions and text hashes: documents can be added to it.
    const more = join(dir, 'more-migrated');
    mkdirSync(more, { recursive: true });
    writeFileSync(join(more, 'extra.txt'), 'Calditrex is made by Lorvane Labs.');
    const add = await runChild(process.execPath, [
      cli,
      'index',
      '--add',
      '--corpus',
      more,
      '--corpus-name',
      'Medical',
      '--store',
      url,
      '--database',
      'medical',
    ]);
    expect(add.status, add.stderr).toBe(0);
    expect(add.stdout).toMatch(/\+1 chunks extracted/);
    // Writing into surrealkv:// warns (it lost rows of large indexes on reopening; rocksdb:// did not).
    expect(add.stderr).toMatch(/^warning: surrealkv:.*prefer rocksdb:\/\//);
    const wrong = await runChild(process.execPath, [cli, 'ask', '--surreal', url, '--database', 'nothing_here', 'x?']);
    expect(wrong.status).not.toBe(0);
    expect(wrong.stderr).toMatch(/^mosaic ask: .*holds no complete Mosaic index/);
    expect(wrong.stderr).not.toMatch(/Mosaic\w*Error/);
  });

  it('index re-runs itself with a heap sized to the machine (MOSAIC_MAX_HEAP_MB chooses it; a wrong value is refused, nothing written)', async () => {
    const withHeap = (value: string, out: string) =>
      runChild(process.execPath, [cli, 'index', '--corpus', files.corpusPath, '--out', join(dir, out)], {
        env: { ...process.env, MOSAIC_MAX_HEAP_MB: value },
      });
    const bad = await withHeap('lots', 'heap-bad');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^mosaic: MOSAIC_MAX_HEAP_MB must be a whole number of megabytes/);
    expect(existsSync(join(dir, 'heap-bad'))).toBe(false);
    const ok = await withHeap('1536', 'heap-ok');
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/Medical: .*heap-ok/);
    expect(existsSync(join(dir, 'heap-ok', 'medical', 'manifest.json'))).toBe(true);
  });

  it('index --store builds straight into SurrealDB; ask, retrieve and index --add use it (separate processes, on-disk engine)', async () => {
    const url = `rocksdb://${join(dir, 'store')}`;
    const cliRun = (argv: string[]) => runChild(process.execPath, [cli, ...argv]);
    const index = await cliRun(['index', '--corpus', files.corpusPath, '--store', url]);
    expect(index.status, index.stderr).toBe(0);
    // One database per corpus_name, named after it; no index directory is written.
    expect(index.stdout).toMatch(new RegExp(`Medical: ${url}#mosaic/Medical `));
    expect(index.stdout).toMatch(/Novel-90001: .*#mosaic\/Novel_90001 /);
    expect(existsSync(join(dir, 'Medical'))).toBe(false);

    const ask = await cliRun(['ask', '--store', url, '--corpus', 'Medical', '--json', 'What drug treats Morrow syndrome?']);
    expect(ask.status, ask.stderr).toBe(0);
    expect(
      JSON.parse(ask.stdout)
        .windows.map((w: { text: string }) => w.text)
        .join(' '),
    ).toMatch(/calditrex/);

    // retrieve: every question's source picks its database; same lines as from the index directories.
    const fromStore = join(dir, 'store-retrieve.jsonl');
    const retrieve = await cliRun(['retrieve', '--store', url, '--questions', files.questionsPath, '--out', fromStore]);
    expect(retrieve.status, retrieve.stderr).toBe(0);
    const fromDirectories = join(dir, 'dir-retrieve.jsonl');
    expect((await cliRun(['retrieve', '--index', indexDir, '--questions', files.questionsPath, '--out', fromDirectories])).status).toBe(0);
    expect(contextsOf(fromStore)).toEqual(contextsOf(fromDirectories));

    // index --add: a folder of new documents joins the Medical index in its database.
    const more = join(dir, 'more-medical');
    mkdirSync(more, { recursive: true });
    writeFileSync(join(more, 'lorvane.txt'), 'Calditrex is made by Lorvane Labs. Lorvane Labs is based in Kestrel City.');
    const add = await cliRun(['index', '--add', '--corpus', more, '--corpus-name', 'Medical', '--store', url]);
    expect(add.status, add.stderr).toBe(0);
    expect(add.stdout).toMatch(/Medical: .*\+1 chunks extracted/);
    const again = await cliRun(['ask', '--store', url, '--corpus', 'Medical', '--json', 'Which company makes calditrex?']);
    expect(again.status, again.stderr).toBe(0);
    expect(
      JSON.parse(again.stdout)
        .windows.map((w: { text: string }) => w.text)
        .join(' '),
    ).toMatch(/Lorvane Labs/);
    // Adding the same document again is refused, and the index stays as it was.
    const twice = await cliRun(['index', '--add', '--corpus', more, '--corpus-name', 'Medical', '--store', url]);
    expect(twice.status).toBe(1);
    expect(twice.stderr).toMatch(/^mosaic index: .*'lorvane\.txt' is already in the index\n$/);
    expect((await cliRun(['ask', '--store', url, '--corpus', 'Medical', 'Which company makes calditrex?'])).status).toBe(0);
  });

  it('index --add extends an index directory the same way', async () => {
    const out = join(dir, 'add-dir');
    expect((await run(['index', '--corpus', files.medicalPath, '--out', out])).code).toBe(0);
    const more = join(dir, 'more-medical-dir');
    mkdirSync(more, { recursive: true });
    writeFileSync(join(more, 'lorvane.txt'), 'Calditrex is made by Lorvane Labs. Lorvane Labs is based in Kestrel City.');
    const add = await run(['index', '--add', '--corpus', more, '--corpus-name', 'Medical', '--out', out]);
    expect(add.code, add.err).toBe(0);
    expect(add.out).toMatch(/extended 1 corpus index/);
    expect(locateIndexes(out).get('Medical')!.manifest.counts.documents).toBe(2);
    const missing = await run(['index', '--add', '--corpus', more, '--corpus-name', 'Nowhere', '--out', out]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/^mosaic index: --add: no index of corpus 'Nowhere'/);
  });

  it('--store: an unreachable server or a bad URL is one line naming the URL', async () => {
    // A port nothing listens on.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const argv of [
      ['ask', '--store', `ws://127.0.0.1:${port}`, '--corpus', 'Medical', '--connect-timeout', '1500', 'What?'],
      [
        'retrieve',
        '--store',
        `http://127.0.0.1:${port}`,
        '--connect-timeout',
        '1500',
        '--questions',
        files.medicalQuestionsPath,
        '--out',
        join(dir, 'none.jsonl'),
      ],
      ['index', '--corpus', files.medicalPath, '--store', `ws://127.0.0.1:${port}`, '--connect-timeout', '1500'],
    ]) {
      const started = Date.now();
      const r = await run(argv);
      expect(r.code, r.err).toBe(1);
      expect(r.err).toMatch(new RegExp(`^mosaic \\w+: cannot reach SurrealDB at (ws|http)://127\\.0\\.0\\.1:${port} \\(.*\\)\\n$`));
      expect(Date.now() - started).toBeLessThan(30_000);
    }
    const usage = [
      await run(['ask', '--store', 'bogus://x', '--corpus', 'Medical', 'What?']),
      await run(['index', '--corpus', files.medicalPath, '--store', 'mem://', '--out', join(dir, 'both')]),
      await run(['index', '--corpus', files.medicalPath]),
      await run(['ask', '--store', 'mem://', '--database', 'bad-name', 'What?']),
    ];
    for (const r of usage) {
      expect(r.code, r.err).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).not.toMatch(/Mosaic\w*Error/);
    }
    expect(usage[0]!.err).toMatch(/--store bogus:\/\/x: .*unsupported scheme bogus/);
  });

  it('writes all of a large --json result to a pipe before it exits (it was cut at 64 KiB)', async () => {
    // Through a shell pipe, as in `mosaic ask --json | jq`: a real pipe holds 64 KiB, so a
    // process.exit() before stdout drains loses the tail. (A child's stdout straight to node is a
    // socket with a larger buffer, which hid the bug.)
    const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
    const command = [process.execPath, cli, 'ask', '--index', join(indexDir, 'medical'), '--json', 'What drug treats Morrow syndrome?'].map(quote).join(' ');
    // Whether the tail was lost depended on when the reader drained the pipe (3 of 8 runs here cut at
    // 64 KiB, 2 at 80 KiB), so several runs must all come through whole.
    for (let run = 0; run < 6; run += 1) {
      const piped = await runChild('sh', ['-c', `${command} | cat`]);
      expect(piped.status, piped.stderr).toBe(0);
      // The fixture's full result is about 100 KB, more than the pipe holds.
      expect(piped.stdout.length).toBeGreaterThan(64 * 1024);
      const result = JSON.parse(piped.stdout);
      expect(result.windows.length).toBeGreaterThan(0);
      expect(result.trace.question).toBe('What drug treats Morrow syndrome?');
    }
  });

  it('retrieve --out - streams more than 1 MB of JSON lines through a pipe, every line whole', async () => {
    // Checks the drain-before-exit fix at scale: the lines go to stdout (`retrieve --out - | jq`),
    // through a real shell pipe, and must all parse.
    const source = JSON.parse(readFileSync(files.questionsPath, 'utf8')) as Record<string, unknown>[];
    const many = Array.from({ length: 200 }, (_, i) => ({ ...source[i % source.length], id: `copy-${i}` }));
    const questionsPath = join(dir, 'many-questions.json');
    writeFileSync(questionsPath, JSON.stringify(many));
    const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
    const command = [process.execPath, cli, 'retrieve', '--index', indexDir, '--questions', questionsPath, '--out', '-', '--windows', '15']
      .map(quote)
      .join(' ');
    const piped = await runChild('sh', ['-c', `${command} | cat`]);
    expect(piped.status, piped.stderr).toBe(0);
    expect(piped.stdout.length).toBeGreaterThan(1024 * 1024);
    const lines = piped.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; contexts: string[] });
    expect(lines.map((line) => line.id)).toEqual(many.map((question) => question.id));
    for (const line of lines) expect(line.contexts.length).toBeGreaterThan(0);
    expect(piped.stderr).toMatch(/wrote 200 lines to stdout/);
  });

  it('retrieve --out - | head: a reader that stops early ends the command quietly with exit 0', async () => {
    const source = JSON.parse(readFileSync(files.questionsPath, 'utf8')) as Record<string, unknown>[];
    const many = Array.from({ length: 200 }, (_, i) => ({ ...source[i % source.length], id: `early-${i}` }));
    const questionsPath = join(dir, 'early-questions.json');
    writeFileSync(questionsPath, JSON.stringify(many));
    const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
    const command = [process.execPath, cli, 'retrieve', '--index', indexDir, '--questions', questionsPath, '--out', '-'].map(quote).join(' ');
    // The shell reports the CLI's own exit status (not head's) and what it wrote on stderr.
    const piped = await runChild('bash', ['-c', `set -o pipefail; ${command} 2>${quote(join(dir, 'early.err'))} | head -n 1`]);
    expect(piped.status).toBe(0);
    expect(JSON.parse(piped.stdout.trim()).id).toBe('early-0');
    const err = readFileSync(join(dir, 'early.err'), 'utf8');
    expect(err).not.toMatch(/EPIPE|skipped|failed/);
  });

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
    const workers = await run(['index', '--corpus', files.corpusPath, '--out', join(dir, 'lexical-workers'), '--lexical-workers', 'two']);
    expect(workers.code).toBe(2);
    expect(workers.err).toMatch(/^mosaic index: --lexical-workers must be a whole number, 0 or more, got 'two'/);
    expect(existsSync(join(dir, 'lexical-workers'))).toBe(false);
    for (const stall of ['0', 'soon', 'NaN']) {
      const stalled = await run(['index', '--corpus', files.corpusPath, '--out', join(dir, 'extract-stall'), '--extract-stall', stall]);
      expect(stalled.code).toBe(2);
      expect(stalled.err).toMatch(new RegExp(`^mosaic index: --extract-stall must be a positive number of seconds, got '${stall}'`));
    }
    expect(existsSync(join(dir, 'extract-stall'))).toBe(false);
    const help = await run(['retrieve', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/latency_ms/);
  });

  it('refuses an index built with another encoder with one line', async () => {
    const r = await run(['ask', '--index', indexDir, '--corpus', 'Medical', '--encoder', 'onnx:/nonexistent-model', 'What?']);
    expect(r.code).not.toBe(0);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });

  // Issue 14: every bad input named, nothing truncated, nothing lost.

  /** A fresh copy of the fixture's Medical index to break. */
  let copies = 0;
  const copyMedical = () => {
    const target = join(dir, `broken-${(copies += 1)}`);
    cpSync(join(indexDir, 'medical'), target, { recursive: true });
    return target;
  };

  /**
   * Replace `from` by `to` in the gzip'd documents of an index copy (gunzipped, edited, gzip'd again)
   * and list the file's new size in the manifest, its digest left as it was: an edit that only the
   * digest or the corpus checksum can catch.
   */
  const editDocuments = (index: string, from: string, to: string) => {
    const path = join(index, 'documents.jsonl.gz');
    const text = gunzipSync(readFileSync(path)).toString('utf8');
    expect(text).toContain(from);
    const bytes = gzipSync(text.replace(from, to));
    writeFileSync(path, bytes);
    const manifestPath = join(index, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    manifest.files['documents.jsonl.gz'] = bytes.length;
    writeFileSync(manifestPath, JSON.stringify(manifest));
  };

  it('a 40 KB question as an argument gets a clear error and exit 2, not a crash (it segfaulted in onnxruntime)', async () => {
    const question = `What is ${'very '.repeat(8_000)}Morrow syndrome?`;
    expect(question.length).toBeGreaterThan(40_000);
    const r = await runChild(process.execPath, [cli, 'ask', '--index', join(indexDir, 'medical'), question]);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^mosaic: the command line is \\d+ characters long, more than ${MAX_COMMAND_LINE_CHARS}; .*--question-file`));
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('ask reads the question from --question-file or stdin (-), within MAX_QUESTION_CHARS', async () => {
    const question = 'What drug treats Morrow syndrome?';
    const file = join(dir, 'question.txt');
    writeFileSync(file, `${question}\n`);
    const fromFile = await runChild(process.execPath, [cli, 'ask', '--index', join(indexDir, 'medical'), '--json', '--question-file', file]);
    expect(fromFile.status, fromFile.stderr).toBe(0);
    expect(JSON.parse(fromFile.stdout).trace.question).toBe(question);
    for (const args of [['-'], ['--question-file', '-']]) {
      const fromStdin = await runChild(process.execPath, [cli, 'ask', '--index', join(indexDir, 'medical'), '--json', ...args], {
        input: question,
      });
      expect(fromStdin.status, fromStdin.stderr).toBe(0);
      expect(JSON.parse(fromStdin.stdout).trace.question).toBe(question);
    }
    // Long questions are refused however they come in, before the encoder loads.
    const long = join(dir, 'long-question.txt');
    writeFileSync(long, 'why '.repeat(MAX_QUESTION_CHARS));
    const refused = await run(['ask', '--index', join(indexDir, 'medical'), '--question-file', long]);
    expect(refused.code).toBe(2);
    expect(refused.err).toBe(
      `mosaic ask: --question-file ${long}: the question is ${4 * MAX_QUESTION_CHARS - 1} characters long, more than the limit of ${MAX_QUESTION_CHARS}\n`,
    );
    const both = await run(['ask', '--index', join(indexDir, 'medical'), '--question-file', long, 'And this?']);
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/not both/);
    const missing = await run(['ask', '--index', join(indexDir, 'medical'), '--question-file', join(dir, 'nope.txt')]);
    expect(missing.err).toMatch(/nope\.txt: no such file/);
  });

  it('a manifest of the wrong shape is refused naming the field, by ask and explore, without a stack trace', async () => {
    const broken = copyMedical();
    for (const [manifest, field] of [
      ['{}', 'formatVersion'],
      ['{"formatVersion":4}', "field 'corpus'"],
      ['[1,2]', 'expected a JSON object'],
    ] as const) {
      writeFileSync(join(broken, 'manifest.json'), manifest);
      for (const argv of [
        ['ask', '--index', broken, 'What?'],
        ['explore', '--index', broken],
      ]) {
        const r = await run(argv);
        expect(r.code, r.err).toBe(1);
        expect(r.err.trim().split('\n')).toHaveLength(1);
        expect(r.err).toContain(`mosaic ${argv[0]}: ${join(broken, 'manifest.json')}: invalid manifest: `);
        expect(r.err).toContain(field);
        expect(r.err).not.toMatch(/TypeError|Mosaic\w*Error|\n\s+at /);
      }
    }
  });

  it('ask refuses an index whose files changed after the build though their sizes did not', async () => {
    const poisoned = copyMedical();
    const vectors = join(poisoned, 'vectors', 'windows.faiss');
    const bytes = readFileSync(vectors);
    bytes.writeFloatLE(Number.NaN, 49); // the second float of row 0 (a flat faiss file holds its vectors from byte 45)
    writeFileSync(vectors, bytes);
    const nan = await run(['ask', '--index', poisoned, 'What is Morrow syndrome?']);
    expect(nan.code).toBe(1);
    expect(nan.err).toBe(`mosaic ask: ${vectors} was changed after the index was built (its sha256 differs from the manifest's); rebuild the index\n`);

    const edited = copyMedical();
    editDocuments(edited, 'calditrex', 'calditrix');
    const r = await run(['ask', '--index', edited, 'What is Morrow syndrome?']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/documents\.jsonl\.gz was changed after the index was built/);

    // An index built before digests were recorded still loads, with a note; an edit is still caught by corpusChecksum.
    const old = copyMedical();
    const manifestPath = join(old, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    delete manifest.digests;
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const served = await run(['ask', '--index', old, 'What is Morrow syndrome?']);
    expect(served.code, served.err).toBe(0);
    expect(served.err).toMatch(/^note: .* was built before Mosaic recorded file digests/);
    editDocuments(old, 'calditrex', 'calditrix');
    const caught = await run(['ask', '--index', old, 'What is Morrow syndrome?']);
    expect(caught.code).toBe(1);
    expect(caught.err).toMatch(/corpusChecksum/);
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s during index removes the temporary directory, keeps the old index and exits %i', async (signal, exitCode) => {
    // The openai extractor against a stub that never answers: the build is certainly mid-way
    // (its temporary directory made, extraction waiting) when the signal comes.
    const stub = await startOpenAIStub({ respond: () => ({ hang: true }) });
    const out = join(dir, `signal-${signal}`);
    cpSync(indexDir, out, { recursive: true });
    const before = readFileSync(join(out, 'medical', 'manifest.json'), 'utf8');
    try {
      const child = spawn(process.execPath, [cli, 'index', '--corpus', files.medicalPath, '--out', out, '--extractor', 'openai'], {
        env: { ...process.env, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: stub.url },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (chunk) => (err += String(chunk)));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.on('exit', (code, sig) => resolve({ code, signal: sig })),
      );
      while (stub.requests.length === 0) {
        if (child.exitCode !== null) throw new Error(`index exited early: ${err}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(readdirSync(out).filter((name) => name.includes('.tmp-'))).toHaveLength(1);
      child.kill(signal);
      const result = await exited;
      expect(result, err).toEqual({ code: exitCode, signal: null });
      expect(err).toMatch(new RegExp(`mosaic index: stopped by ${signal}: the unfinished index was removed`));
      expect(readdirSync(out).filter((name) => name.includes('.tmp-') || name.includes('.old-'))).toEqual([]);
      expect(readFileSync(join(out, 'medical', 'manifest.json'), 'utf8')).toBe(before);
      expect((await run(['ask', '--index', join(out, 'medical'), 'What is Morrow syndrome?'])).code).toBe(0);
    } finally {
      await stub.close();
    }
  });

  it('retrieve writes every good question, names each bad item by position and id, and exits 1', async () => {
    const questions = JSON.parse(readFileSync(files.medicalQuestionsPath, 'utf8')) as { id: string; question: string }[];
    expect(questions.length).toBeGreaterThanOrEqual(2);
    const mixed = [
      questions[0],
      { ...questions[1], id: 'empty-one', question: '' },
      42,
      ...questions.slice(1),
      { ...questions[0], id: 'long-one', question: 'x'.repeat(MAX_QUESTION_CHARS + 1) },
    ];
    const path = join(dir, 'mixed-questions.json');
    writeFileSync(path, JSON.stringify(mixed));
    const out = join(dir, 'runs', 'mixed.jsonl');
    const r = await run(['retrieve', '--index', join(indexDir, 'medical'), '--questions', path, '--out', out]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('retrieve: skipped item 1 (id "empty-one"): the question is empty\n');
    expect(r.err).toContain('retrieve: skipped item 2: not an object\n');
    expect(r.err).toContain(`retrieve: skipped item ${mixed.length - 1} (id "long-one"): the question is ${MAX_QUESTION_CHARS + 1} characters long`);
    expect(r.err).toMatch(new RegExp(`mosaic retrieve: 3 of ${mixed.length} questions failed \\(items 1, 2, ${mixed.length - 1};`));
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual(questions.map((q) => q.id));
    for (const line of lines) expect(line.contexts.length).toBeGreaterThan(0);
  });

  it('demo rebuilds an index built from another text of the corpus (corpusChecksum), and reuses one of the same text', async () => {
    const indexRoot = join(dir, 'demo-indexes');
    const demo = (corpus: string) => run(['demo', '--corpus', corpus, '--questions', files.medicalQuestionsPath, '--index', indexRoot, '--count', '1']);
    const first = await demo(files.medicalPath);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toMatch(/indexing Medical of /);
    const checksum = () => JSON.parse(readFileSync(join(indexRoot, 'medical', 'manifest.json'), 'utf8')).corpusChecksum as string;
    const original = checksum();

    // The same corpus name, another text.
    const other = join(dir, 'medical-edited.json');
    const corpus = JSON.parse(readFileSync(files.medicalPath, 'utf8')) as { corpus_name: string; context: string }[];
    writeFileSync(other, JSON.stringify(corpus.map((d, i) => (i === 0 ? { ...d, context: `${d.context} Morrow syndrome was first described in 1921.` } : d))));
    const second = await demo(other);
    expect(second.code, second.err).toBe(0);
    expect(second.out).toMatch(/the index of Medical in .* was built from another text of that corpus .*: rebuilding it/);
    expect(second.out).not.toMatch(/reusing/);
    expect(checksum()).not.toBe(original);

    const third = await demo(other);
    expect(third.code, third.err).toBe(0);
    expect(third.out).toMatch(/reusing the index in .*: same corpus \(corpusChecksum\) and encoder/);
  });

  it('messages: negative numbers, one prefix, no class names, --version, --index given a file', async () => {
    const medical = join(indexDir, 'medical');
    const windows = await run(['ask', '--index', medical, '--windows', '-1', 'What?']);
    expect(windows.code).toBe(2);
    expect(windows.err).toBe("mosaic ask: --windows must be a positive integer, got '-1'\n");
    const limit = await run(['retrieve', '--index', medical, '--questions', files.questionsPath, '--out', join(dir, 'x.jsonl'), '--limit', '-5']);
    expect(limit.err).toBe("mosaic retrieve: --limit must be a positive integer, got '-5'\n");

    const errors = [
      windows,
      await run(['ask', '--index', medical]),
      await run(['ask', '--index', medical, '--policy', 'broad', 'What?']),
      await run(['retrieve', '--index', medical]),
      await run(['bench', '--index', medical, '--questions', files.questionsPath, '--out', join(dir, 'b2'), '--systems', 'nope']),
      await run(['explore', '--index', medical, 'stray']),
      await run(['index', '--corpus', join(dir, 'missing.json'), '--out', join(dir, 'o')]),
      await run(['ask', '--surreal', 'mem://', 'What?']),
      await run(['ask', '--index', medical, '--bogus', 'What?']),
      await run(['retrieve', '--index', medical, '--questions', join(dir, 'missing.json'), '--out', join(dir, 'x.jsonl')]),
    ];
    for (const r of errors) {
      expect(r.code, r.err).toBe(2);
      expect(r.err.trim().split('\n'), r.err).toHaveLength(1);
      expect(r.err, r.err).toMatch(/^mosaic (\w+): /);
      const command = /^mosaic (\w+): /.exec(r.err)![1];
      expect(r.err, r.err).not.toMatch(new RegExp(`^mosaic ${command}: ${command}:`));
      expect(r.err, r.err).not.toMatch(/Mosaic\w*Error|Error:/);
    }
    expect(errors[8]!.err).toBe("mosaic ask: unknown option '--bogus' (see mosaic ask --help)\n");

    const version = await run(['--version']);
    expect(version.code).toBe(0);
    expect(version.out).toBe(`mosaic ${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);

    const file = await run(['ask', '--index', join(medical, 'manifest.json'), 'What?']);
    expect(file.code).toBe(2);
    expect(file.err).toBe(`mosaic ask: --index ${join(medical, 'manifest.json')} is a file, not a directory; pass its directory, --index ${medical}\n`);
    const other = await run(['retrieve', '--index', files.questionsPath, '--questions', files.questionsPath, '--out', join(dir, 'y.jsonl')]);
    expect(other.err).toMatch(/is a file, not a directory \(give an index directory/);
  });
});

describe('mosaic index on a folder of documents', () => {
  const root = mkdtempSync(join(tmpdir(), 'mosaic-cli-formats-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const fixtures = fileURLToPath(new URL('../../../packages/indexing/src/input/__fixtures__/formats/', import.meta.url));

  it('reads Markdown, HTML, reST and a file without extension, names what it skips, and --strict stops', async () => {
    const docs = join(root, 'docs');
    mkdirSync(docs, { recursive: true });
    for (const name of ['guide.md', 'page.html', 'intro.rst', 'Apache-2.0']) cpSync(join(fixtures, name), join(docs, name));
    writeFileSync(join(docs, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    writeFileSync(join(docs, 'empty.md'), '');
    const out = join(root, 'indexes');
    const built = await run(['index', '--corpus', docs, '--out', out, '--exclude', 'intro.rst']);
    expect(built.code, built.err).toBe(0);
    expect(built.err).toContain(`skipped ${join(docs, 'latin1.txt')}: is not valid UTF-8 text\n`);
    expect(built.err).toContain(`skipped ${join(docs, 'empty.md')}: is empty\n`);
    expect(built.out).toMatch(/read 3 files \(0\.0 MB: text 1, markdown 1, html 1\); skipped 2: 1 empty, 1 not-utf8; 1 left out by --include\/--exclude\n/);
    const lines = gunzipSync(readFileSync(join(out, 'docs', 'documents.jsonl.gz')))
      .toString('utf8')
      .trim()
      .split('\n');
    expect(lines.map((line) => JSON.parse(line).outline.title)).toEqual(['Apache-2.0', 'Zephyr toolkit', 'Backup & Restore']);

    // --add reads the reST file the same way.
    const add = await run(['index', '--add', '--corpus', docs, '--corpus-name', 'docs', '--include', '*.rst', '--out', out]);
    expect(add.code, add.err).toBe(0);
    expect(gunzipSync(readFileSync(join(out, 'docs', 'documents.jsonl.gz'))).toString('utf8')).toContain('"format":"rst"');

    const strict = await run(['index', '--corpus', docs, '--out', join(root, 'strict'), '--strict']);
    expect(strict.code).not.toBe(0);
    expect(strict.err).toMatch(/empty\.md: is empty \(strict/);
    expect(existsSync(join(root, 'strict', 'docs'))).toBe(false);

    // A single file is a corpus of one document.
    const single = await run(['index', '--corpus', join(docs, 'guide.md'), '--out', join(root, 'single')]);
    expect(single.code, single.err).toBe(0);
    expect(single.out).toMatch(/^guide: /m);
  }, 180_000);
});

describe('mosaic ask on a folder of documents: sources named, and "not found" when nothing answers (built CLI)', () => {
  let dir: string;
  let indexDir: string;
  const ask = (...args: string[]) => runChild(process.execPath, [cli, 'ask', '--index', indexDir, ...args], { timeout: 240_000 });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mosaic-answers-'));
    const docs = join(dir, 'harbour');
    mkdirSync(docs);
    writeFileSync(
      join(docs, 'ferries.txt'),
      'Ferry timetable of Port Amberly.\n\nThe morning ferry to Gull Island leaves the north pier at seven.\nTickets for the ferry are sold at the harbour office beside the pier.\n\nThe evening ferry returns from Gull Island at six and docks at the south pier.\n',
    );
    writeFileSync(
      join(docs, 'lighthouse.txt'),
      'The Amberly lighthouse.\n\nThe lighthouse on Gull Island was built of granite in 1862 by the harbour board.\nIts lamp is visible for twenty nautical miles in clear weather.\nThe keeper rings the fog bell every thirty seconds in fog.\n',
    );
    const r = await runChild(process.execPath, [cli, 'index', '--corpus', docs, '--out', join(dir, 'indexes')], { timeout: 240_000 });
    expect(r.status, r.stderr).toBe(0);
    indexDir = join(dir, 'indexes', 'harbour');
  }, 300_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('quotes the answering sentence and names its file and line, in plain words and in --json', async () => {
    const plain = await ask('When does the morning ferry to Gull Island leave?');
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('Answer, quoted from ferries.txt:');
    expect(plain.stdout).toContain('“The morning ferry to Gull Island leaves the north pier at seven.”');
    expect(plain.stdout).toMatch(/— ferries\.txt, line 3 {2}\[1\]/);
    // The method's vocabulary stays out of the plain view; the answer label is printed once.
    expect(plain.stdout).not.toMatch(/anchorStrength|stopRegime|Table 3/);
    expect(plain.stdout).not.toContain('Extractive answer (sentences quoted from the sources)');
    const json = await ask('--json', 'When does the morning ferry to Gull Island leave?');
    expect(json.status, json.stderr).toBe(0);
    const result = JSON.parse(json.stdout);
    expect(result.answer.abstained).toBeUndefined();
    const quote = result.answer.quotes[0];
    expect(quote.source.documentId).toBe('ferries.txt');
    expect(quote.text).toBe('The morning ferry to Gull Island leaves the north pier at seven.');
    expect(quote.source.lines).toEqual({ start: 3, end: 3 });
    const text = readFileSync(join(dir, 'harbour', 'ferries.txt'), 'utf8');
    expect(text.slice(quote.source.start, quote.source.end)).toBe(quote.text);
    expect(result.windows[0].source.documentId).toBe(result.windows[0].documentId);
  }, 300_000);

  it.each([
    ['What is the recommended dose of ibuprofen for a child?', 'no-match'],
    ['When does the morning ferry to Tasmania leave the north pier?', 'unknown-name'],
    ['a', 'no-content-words'],
    ['这个渡轮几点出发？', 'unreadable-script'],
  ])(
    'abstains on %s: says so plainly and marks answer.abstained (%s)',
    async (question, reason) => {
      const plain = await ask(question);
      expect(plain.status, plain.stderr).toBe(0);
      expect(plain.stdout).toContain('No passage in this corpus answers this question');
      expect(plain.stdout).not.toContain('Answer, quoted from');
      const result = JSON.parse((await ask('--json', question)).stdout);
      expect(result.answer.abstained).toBe(true);
      expect(result.answer.reason).toBe(reason);
      expect(result.answer.text).toMatch(/^No passage in this corpus answers/);
      if (reason === 'unknown-name') expect(plain.stdout).toContain('the question names Tasmania, which this corpus never mentions');
    },
    300_000,
  );
});

describe('mosaic ask on reST: a quote names the line it sits on in the source file (built CLI)', () => {
  let dir: string;
  // Directives, a comment and a toctree come out of the clean text, so the clean text has fewer
  // lines than the file: a line counted in the window's text would fall short of the file's.
  const source = [
    '.. _tides:',
    '',
    '=====================',
    'Tides of Port Amberly',
    '=====================',
    '',
    '.. versionadded:: 2.1',
    '   Spring tides.',
    '',
    '.. toctree::',
    '   :maxdepth: 1',
    '',
    '   ferries',
    '',
    '.. A comment that is not a directive',
    '   and its indented continuation.',
    '',
    'High tide at Port Amberly comes twice a day, at noon and at midnight.',
    '',
    '.. index:: single: tide table',
    '',
    'The harbour master posts the tide table on the pier gate every Monday.',
    '',
  ].join('\n');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mosaic-rst-lines-'));
    mkdirSync(join(dir, 'port'));
    writeFileSync(join(dir, 'port', 'tides.rst'), source);
    const r = await runChild(process.execPath, [cli, 'index', '--corpus', join(dir, 'port'), '--out', join(dir, 'indexes')], { timeout: 240_000 });
    expect(r.status, r.stderr).toBe(0);
  }, 300_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('cites the file lines of the quoted sentences, not lines counted in the clean text', async () => {
    const r = await runChild(
      process.execPath,
      [cli, 'ask', '--index', join(dir, 'indexes', 'port'), '--json', 'Where does the harbour master post the tide table?'],
      {
        timeout: 240_000,
      },
    );
    expect(r.status, r.stderr).toBe(0);
    const quotes = JSON.parse(r.stdout).answer.quotes as { text: string; source: { lines?: { start: number; end: number } } }[];
    const fileLines = source.split('\n');
    const posted = quotes.find((quote) => quote.text.startsWith('The harbour master posts'));
    expect(posted, JSON.stringify(quotes)).toBeDefined();
    for (const quote of quotes) {
      const at = fileLines.findIndex((line) => line.includes(quote.text)) + 1;
      expect(at, quote.text).toBeGreaterThan(0);
      expect(quote.source.lines, quote.text).toEqual({ start: at, end: at });
    }
  }, 300_000);
});
