import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTROL_FIELDS, DEFAULT_POLICY, FIXED_POLICIES } from '@mosaic/policy-schema';
import { createMosaic } from '@mosaic/pipeline';
import type { Generator } from '@mosaic/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUB_POLICY, startFixtureExplorer, type FixtureExplorer } from './__fixtures__/fixture-explorer.js';
import { startExplorerServer } from './explorer-server.js';
import type { CorporaResponse, ExplorerAskResponse, ExplorerErrorBody, PolicyDefaultsResponse } from './explorer-types.js';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** One real HTTP request with full control over headers and body (fetch cannot set Host). */
function raw(
  url: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer | Buffer[] },
): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, method: options.method ?? 'GET', path: options.path, headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    const parts = options.body === undefined ? [] : Array.isArray(options.body) ? options.body : [options.body];
    for (const part of parts) req.write(part);
    req.end();
  });
}

function postAsk(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return raw(url, {
    method: 'POST',
    path: '/api/ask',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

function expectError(response: RawResponse, status: number, code: string, field?: string): ExplorerErrorBody {
  expect(response.status).toBe(status);
  expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  const error = response.json?.error as ExplorerErrorBody;
  expect(error).toBeDefined();
  expect(error.code).toBe(code);
  expect(error.status).toBe(status);
  expect(error.message.length).toBeGreaterThan(10);
  if (field !== undefined) expect(error.field).toBe(field);
  return error;
}

const QUESTION = 'What drug treats the disease caused by veltrane dust?';

describe('explorer server over real HTTP', () => {
  let fixture: FixtureExplorer;
  let url: string;
  let emptyAssets: string;

  beforeAll(async () => {
    emptyAssets = mkdtempSync(join(tmpdir(), 'mosaic-explorer-assets-'));
    fixture = await startFixtureExplorer({ assetsDir: emptyAssets });
    url = fixture.server.url;
  });

  afterAll(async () => {
    await fixture?.close();
    rmSync(emptyAssets, { recursive: true, force: true });
  });

  it('binds 127.0.0.1 by default and serves the page with a strict CSP', async () => {
    expect(fixture.server.host).toBe('127.0.0.1');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await raw(url, { path: '/' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    for (const id of ['policy-panel', 'graph', 'windows', 'stop-panel', 'answer', 'compare-switch']) expect(page.text).toContain(`id="${id}"`);
    const css = await raw(url, { path: '/explorer.css' });
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });

  it('answers a missing client bundle with a 404 that says how to build it', async () => {
    expectError(await raw(url, { path: '/explorer-client.js' }), 404, 'not-found');
  });

  it('serves the policy defaults, the fixed baselines and the stop thresholds', async () => {
    const response = await raw(url, { path: '/api/policy-defaults' });
    expect(response.status).toBe(200);
    const body = response.json as PolicyDefaultsResponse;
    expect(body.controls).toEqual([...CONTROL_FIELDS]);
    for (const control of CONTROL_FIELDS) {
      expect(body.defaults[control]).toEqual(DEFAULT_POLICY[control]);
      expect(body.fixed.wide[control]).toEqual(FIXED_POLICIES.wide[control]);
    }
    expect(body.stopThresholds.medium).toBeGreaterThan(0);
    expect(body.minCompleteness).toBeGreaterThan(0);
  });

  it('lists the corpora with their example questions and the request limits', async () => {
    const body = (await raw(url, { path: '/api/corpora' })).json as CorporaResponse;
    expect(body.corpora.map((c) => c.name)).toEqual(['Medical', 'analyzer-openai', 'analyzer-down', 'generator-down', 'generator-fallback']);
    expect(body.defaultCorpus).toBe('Medical');
    expect(body.corpora[0]!.examples.length).toBeGreaterThan(0);
    expect(body.limits.maxBodyBytes).toBe(4096);
  });

  describe('refuses bad requests with a clear 4xx JSON error', () => {
    it('bad JSON, an empty body, invalid UTF-8', async () => {
      expectError(await postAsk(url, '{"question": "What is'), 400, 'invalid-json');
      expectError(await postAsk(url, ''), 400, 'invalid-json');
      expectError(
        await raw(url, { method: 'POST', path: '/api/ask', headers: { 'content-type': 'application/json' }, body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) }),
        400,
        'invalid-json',
      );
    });

    it('an oversize body, declared or streamed in chunks', async () => {
      const big = JSON.stringify({ question: 'x'.repeat(5000) });
      expectError(await postAsk(url, big), 413, 'body-too-large');
      const chunks = Array.from({ length: 10 }, () => Buffer.from(' '.repeat(600)));
      const streamed = await raw(url, {
        method: 'POST',
        path: '/api/ask',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        body: chunks,
      });
      expectError(streamed, 413, 'body-too-large');
    });

    it('a body that is not JSON by its Content-Type', async () => {
      expectError(
        await raw(url, { method: 'POST', path: '/api/ask', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ question: QUESTION }) }),
        415,
        'unsupported-media-type',
      );
      expectError(
        await raw(url, { method: 'POST', path: '/api/ask', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'question=x' }),
        415,
        'unsupported-media-type',
      );
    });

    it('the wrong JSON shape, naming the field', async () => {
      expectError(await postAsk(url, [QUESTION]), 400, 'invalid-field', 'body');
      expectError(await postAsk(url, { policy: 'wide' }), 400, 'invalid-field', 'question');
      expectError(await postAsk(url, { question: 7 }), 400, 'invalid-field', 'question');
      expectError(await postAsk(url, { question: '   ' }), 400, 'invalid-field', 'question');
      expectError(await postAsk(url, { question: 'x'.repeat(1001) }), 400, 'invalid-field', 'question');
      expectError(await postAsk(url, { question: QUESTION, policy: 'deep' }), 400, 'invalid-field', 'policy');
      expectError(await postAsk(url, { question: QUESTION, extra: true }), 400, 'invalid-field', 'extra');
      expectError(await postAsk(url, { question: QUESTION, corpus: 'Novel-404' }), 400, 'unknown-corpus', 'corpus');
    });

    it('unknown paths, wrong methods and foreign Host headers', async () => {
      expectError(await raw(url, { path: '/etc/passwd' }), 404, 'not-found');
      const get = await raw(url, { path: '/api/ask' });
      expectError(get, 405, 'method-not-allowed');
      expect(get.headers.allow).toBe('POST');
      expectError(await postAsk(url, { question: QUESTION }, { host: 'attacker.example:80' }), 403, 'forbidden-host');
      expect((await raw(url, { path: '/api/corpora', headers: { host: `localhost:${fixture.server.port}` } })).status).toBe(200);
    });
  });

  it('answers a question with the retrieval, the explored subgraph and highlighted windows', async () => {
    const response = await postAsk(url, { question: QUESTION });
    expect(response.status).toBe(200);
    const body = response.json as ExplorerAskResponse;
    // The same pipeline called directly gives the same retrieval: the server adds, never alters.
    const direct = await createMosaic({ index: fixture.index }).ask({ question: QUESTION });
    expect(body.windows.map((w) => w.id)).toEqual(direct.windows.map((w) => w.id));
    expect(body.paths.map((p) => p.id)).toEqual(direct.paths.map((p) => p.id));
    expect(body.answer.text).toBe(direct.answer.text);
    expect(body.policyRequest).toBe('adaptive');
    expect(body.analysis.analyzer).toBe(direct.analysis.analyzer);
    expect(body.policy.targetEntities).toEqual(direct.policy.targetEntities);

    const nodes = new Map(body.graph.nodes.map((n) => [n.id, n]));
    const edges = new Map(body.graph.edges.map((e) => [e.id, e]));
    expect(body.seeds.length).toBeGreaterThan(0);
    body.seeds.forEach((seed, i) => {
      expect(nodes.get(seed.nodeId)).toMatchObject({ seed: true, seedRank: i + 1, depth: 0 });
    });
    for (const node of body.graph.nodes) expect(node.hub).toBe(node.degree >= body.graph.hubDegree);
    for (const edge of body.graph.edges) {
      expect(nodes.has(edge.source) && nodes.has(edge.target)).toBe(true);
      if (edge.beamDepths.length) expect(edge.depth).toBe(Math.min(...edge.beamDepths));
    }
    for (const depth of body.traversal.depths) {
      for (const path of depth.beam) {
        for (const e of path.edges) expect(edges.get(e)!.beamDepths).toContain(depth.depth);
        for (const n of path.nodes) expect(nodes.get(n)!.depth).toBeLessThanOrEqual(depth.depth);
        if (path.origin === 'connector') for (const e of path.edges) expect(edges.get(e)!.connector).toBe(true);
      }
      expect(depth.decision).toMatch(depth.stop ? /^stop/ : /^continue/);
    }
    expect(body.traversal.depths.at(-1)!.stop).toBe(true);
    for (const path of body.paths) {
      for (const e of path.edges) expect(edges.get(e)!.roles).toContain(path.role);
      for (const n of path.nodes) expect(nodes.get(n)!.roles).toContain(path.role);
      expect(path.names).toEqual(path.nodes.map((n) => nodes.get(n)!.name));
    }

    expect(body.windows.length).toBeGreaterThan(0);
    for (const window of body.windows) {
      expect(window.segments.map((s) => s.text).join('')).toBe(fixture.index.chunks.getWindow(window.id)!.text);
      expect(window.source).toMatchObject({ documentId: window.documentId, start: window.start, end: window.end });
      for (const s of window.segments) for (const id of s.evidenceIds) expect(window.evidenceIds).toContain(id);
    }
    expect(body.windows.some((w) => w.segments.some((s) => s.termOf))).toBe(true);
    for (const unit of body.evidence) for (const rank of unit.windowRanks) expect(body.windows[rank - 1]!.evidenceIds).toContain(unit.id);
    const cited = body.windows.filter((w) => w.cited).map((w) => w.rank);
    expect(cited.sort()).toEqual([...new Set(body.answer.citations.map((c) => c.window))].sort());
    expect(body.notices).toEqual([]);
  });

  it('reruns the question under a fixed policy', async () => {
    const wide = (await postAsk(url, { question: QUESTION, policy: 'wide' })).json as ExplorerAskResponse;
    const narrow = (await postAsk(url, { question: QUESTION, policy: 'narrow', corpus: 'Medical' })).json as ExplorerAskResponse;
    expect(wide.analysis.analyzer).toBe('fixed:wide');
    expect(narrow.analysis.analyzer).toBe('fixed:narrow');
    for (const control of CONTROL_FIELDS) expect(wide.policy[control]).toEqual(FIXED_POLICIES.wide[control]);
    expect(wide.traversal.pathsEvaluated).toBeGreaterThan(narrow.traversal.pathsEvaluated);
  });

  it('shows what validation changed in an analyzer’s policy', async () => {
    const response = await postAsk(url, { question: QUESTION, corpus: 'analyzer-openai' });
    expect(response.status).toBe(200);
    const body = response.json as ExplorerAskResponse;
    expect(body.analysis.analyzer).toBe('openai:policy-model');
    const change = (field: string) => body.analysis.changes.find((c) => c.field === field);
    expect(change('seedLimit')).toMatchObject({ kind: 'clamped', received: STUB_POLICY.seedLimit, used: body.policy.seedLimit });
    expect(change('beamWidth')).toMatchObject({ kind: 'clamped', received: STUB_POLICY.beamWidth, used: body.policy.beamWidth });
    expect(body.policy.seedLimit).toBeLessThan(STUB_POLICY.seedLimit);
    expect(body.analysis.changes.every((c) => c.kind !== 'defaulted')).toBe(true);
    expect(body.analysis.defaulted.length).toBeGreaterThan(0);
    expect(body.policy.targetEntities).toEqual(STUB_POLICY.targetEntities);
    expect(body.policy.rationale).toBe(STUB_POLICY.rationale);
    expect(body.defaults.seedLimit).toBe(DEFAULT_POLICY.seedLimit);
  });

  it('answers 503 beyond maxConcurrentAsks and serves again once a question is done', async () => {
    let entered!: () => void;
    let release!: () => void;
    const inGenerator = new Promise<void>((resolve) => (entered = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const generator: Generator = {
      specificationVersion: 'v1',
      id: 'gated',
      async generate() {
        entered();
        await gate;
        return { text: 'held answer', citations: [], generator: 'gated', extractive: false };
      },
    };
    const server = await startExplorerServer({ index: fixture.index, generator, maxConcurrentAsks: 1 });
    try {
      const first = postAsk(server.url, { question: QUESTION });
      await inGenerator;
      const second = await postAsk(server.url, { question: QUESTION });
      expectError(second, 503, 'busy');
      expect(second.headers['retry-after']).toBe('1');
      release();
      expect((await first).json.answer.text).toBe('held answer');
      expect((await postAsk(server.url, { question: QUESTION })).status).toBe(200);
    } finally {
      release();
      await server.close();
    }
  });

  it('reports a failing analyzer or generator as a readable 502, and a generator fallback as a notice', async () => {
    const analyzer = expectError(await postAsk(url, { question: QUESTION, corpus: 'analyzer-down' }), 502, 'stage-failed');
    expect(analyzer.stage).toBe('retrieval');
    expect(analyzer.name).toBe('MosaicApiCallError');
    const generator = expectError(await postAsk(url, { question: QUESTION, corpus: 'generator-down' }), 502, 'stage-failed');
    expect(generator.stage).toBe('generator');
    expect(generator.name).toBe('MosaicApiCallError');
    const fallback = await postAsk(url, { question: QUESTION, corpus: 'generator-fallback' });
    expect(fallback.status).toBe(200);
    expect((fallback.json as ExplorerAskResponse).answer.fallback).toBeDefined();
    expect((fallback.json as ExplorerAskResponse).notices.length).toBe(1);
    expect(fixture.stub.requests.length).toBeGreaterThanOrEqual(3);
  });
});

describe('startExplorerServer options', () => {
  it('needs exactly one of index and mosaicFor, known corpora and a valid port', async () => {
    const failure = async (options: Parameters<typeof startExplorerServer>[0]) => {
      try {
        const server = await startExplorerServer(options);
        await server.close();
      } catch (error) {
        return (error as Error).name;
      }
      return 'started';
    };
    const mosaicFor = async () => {
      throw new Error('unused');
    };
    expect(await failure({})).toBe('MosaicInvalidArgumentError');
    expect(await failure({ mosaicFor, corpora: [] })).toBe('MosaicInvalidArgumentError');
    expect(await failure({ mosaicFor, corpora: ['a'], defaultCorpus: 'b' })).toBe('MosaicInvalidArgumentError');
    expect(await failure({ mosaicFor, corpora: ['a'], port: 70000 })).toBe('MosaicInvalidArgumentError');
    expect(await failure({ mosaicFor, corpora: ['a'], maxBodyBytes: 1 })).toBe('MosaicInvalidArgumentError');
    expect(await failure({ mosaicFor, corpora: ['a'] })).toBe('started');
  });
});
