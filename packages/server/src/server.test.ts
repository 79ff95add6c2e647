// The HTTP API over real HTTP: a server listening on port 0, node's fetch against it, over a small
// index built through the real index composition (once for the file).
import { Agent, type IncomingMessage, request as httpRequest } from 'node:http';
import { Worker } from 'node:worker_threads';
import { createOfflineAnalyzer } from '@mosaic/analyzer';
import { createMosaic } from '@mosaic/pipeline';
import { AbortedError, type Analyzer } from '@mosaic/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSmallIndex, type SmallIndex } from './testing.js';
import { createLocalEngine, warmUpQuestions } from './engine.js';
import { createMosaicServer, type MosaicServer, type ServerLogEntry } from './server.js';

const QUESTION = 'Which drug treats the condition that is caused by prolonged exposure to veltrane dust?';
const TOKEN = 'test-token-0123456789abcdef';

/** The offline analyzer after a wait of `delayMs` that ends early when the signal fires; records what it saw. */
function slowAnalyzer(delayMs: number, seen: { aborted: boolean[] }): Analyzer {
  const offline = createOfflineAnalyzer();
  return {
    ...offline,
    id: 'slow-offline',
    async analyze(input) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delayMs);
        input.abortSignal?.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      seen.aborted.push(input.abortSignal?.aborted ?? false);
      if (input.abortSignal?.aborted) throw new AbortedError({ stage: 'analyze' });
      return offline.analyze(input);
    },
  };
}

let small: SmallIndex;
let server: MosaicServer;
let base: string;
const logs: ServerLogEntry[] = [];

beforeAll(async () => {
  small = await buildSmallIndex();
  server = createMosaicServer({
    mosaic: createMosaic({ index: small.index }),
    index: small.index,
    log: (entry) => logs.push(entry),
    info: { corpus: 'Medical' },
  });
  base = (await server.listen()).url;
}, 180_000);

afterAll(async () => {
  await server?.close();
  await small?.remove();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('createMosaicServer over HTTP', () => {
  it('binds 127.0.0.1 by default and answers /healthz, /readyz', async () => {
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok', corpus: 'Medical' });
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });

  it('retrieves windows with their ranks, offsets and the policy', async () => {
    const response = await post('/v1/retrieve', { question: QUESTION, id: 'q1', windows: 5 });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: string; windows: { rank: number; documentId: string; text: string }[]; policy: object; stopReason: string };
    expect(body.id).toBe('q1');
    expect(body.windows.length).toBeGreaterThan(0);
    expect(body.windows.length).toBeLessThanOrEqual(5);
    expect(body.windows.map((w) => w.rank)).toEqual(body.windows.map((_, i) => i + 1));
    expect(body.windows.some((w) => /veltrane/i.test(w.text))).toBe(true);
    expect(body.policy).toHaveProperty('seedLimit');
    expect(typeof body.stopReason).toBe('string');
  });

  it('answers with citations, the Answer object passed through', async () => {
    const body = (await (await post('/v1/ask', { question: QUESTION })).json()) as { answer: { text: string; citations: unknown[]; generator: string } };
    expect(body.answer.generator).toBe('extractive');
    expect(body.answer.text.length).toBeGreaterThan(0);
    expect(body.answer.citations.length).toBeGreaterThan(0);
  });

  it('streams ask as server-sent events: policy, seeds, stop, windows, answer, result, done', async () => {
    const response = await post('/v1/ask', { question: QUESTION }, { accept: 'text/event-stream' });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await response.text();
    const events = [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(events).toEqual(['policy', 'seeds', 'stop', 'windows', 'answer', 'result', 'done']);
    const result = /event: result\ndata: (.*)\n/.exec(text)![1]!;
    expect(JSON.parse(result).answer.citations.length).toBeGreaterThan(0);
  });

  it('returns the policy alone, and documents by id (404 naming the id otherwise)', async () => {
    const policy = (await (await post('/v1/policy', { question: QUESTION })).json()) as { analyzer: string; policy: object };
    expect(policy.analyzer).toMatch(/offline/);
    const list = (await (await fetch(`${base}/v1/documents`)).json()) as { documents: { id: string; corpus: string }[] };
    expect(list.documents.length).toBeGreaterThan(0);
    const id = list.documents[0]!.id;
    const document = (await (await fetch(`${base}/v1/documents/${encodeURIComponent(id)}`)).json()) as { id: string; text: string };
    expect(document.id).toBe(id);
    expect(document.text).toMatch(/Morrow syndrome/);
    const missing = await fetch(`${base}/v1/documents/nope`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { field: string } }).error.field).toBe('id');
  });

  it.each([
    ['bad JSON', () => post('/v1/retrieve', '{"question": '), 400, 'body'],
    ['empty body', () => post('/v1/retrieve', ''), 400, 'body'],
    ['not an object', () => post('/v1/retrieve', '[1,2]'), 400, 'body'],
    ['question of the wrong type', () => post('/v1/retrieve', { question: 42 }), 400, 'question'],
    ['missing question', () => post('/v1/ask', { windows: 3 }), 400, 'question'],
    ['blank question', () => post('/v1/policy', { question: '   ' }), 400, 'question'],
    ['windows not an integer', () => post('/v1/retrieve', { question: QUESTION, windows: 2.5 }), 400, 'windows'],
    ['windows out of range', () => post('/v1/retrieve', { question: QUESTION, windows: 1000 }), 400, 'windows'],
    ['unknown policy', () => post('/v1/retrieve', { question: QUESTION, policy: 'huge' }), 400, 'policy'],
    ['unknown field', () => post('/v1/retrieve', { question: QUESTION, windos: 3 }), 400, 'windos'],
    ['oversized body', () => post('/v1/retrieve', { question: 'x'.repeat(100_000) }), 413, 'body'],
    [
      'not JSON',
      () => fetch(`${base}/v1/retrieve`, { method: 'POST', body: 'question=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
      'content-type',
    ],
    ['unknown route', () => fetch(`${base}/v2/nothing`), 404, 'path'],
    ['wrong method', () => fetch(`${base}/v1/retrieve`), 405, 'method'],
  ])('refuses %s with a JSON error naming the field', async (_, send, status, field) => {
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { error: { code: string; field: string; message: string } };
    expect(body.error.field).toBe(field);
    expect(body.error.message.length).toBeGreaterThan(0);
  });

  it('serves an OpenAPI document generated from the request schemas', async () => {
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
      components: {
        schemas: Record<string, { properties: Record<string, { maximum?: number; enum?: string[] }>; required: string[]; additionalProperties: boolean }>;
      };
    };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/v1/retrieve', '/v1/ask', '/v1/policy', '/v1/documents/{id}', '/healthz', '/readyz', '/metrics']),
    );
    const retrieve = document.components.schemas.RetrieveRequest!;
    expect(retrieve.required).toEqual(['question']);
    expect(retrieve.properties.windows!.maximum).toBe(100);
    expect(retrieve.properties.policy!.enum).toEqual(['adaptive', 'narrow', 'medium', 'wide']);
    expect(retrieve.additionalProperties).toBe(false);
  });

  it('exposes Prometheus metrics, with requests counted by route and status', async () => {
    const response = await fetch(`${base}/metrics`);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(/mosaic_http_requests_total\{method="POST",route="retrieve",status="200"\} \d+/);
    expect(text).toMatch(/mosaic_http_requests_total\{method="POST",route="retrieve",status="400"\} \d+/);
    expect(text).toMatch(/mosaic_stage_duration_seconds_count\{stage="traverse"\} \d+/);
    expect(text).toMatch(/process_resident_memory_bytes/);
  });
});

describe('warm-up', () => {
  it('makes questions from the index entities and runs them through every stage', async () => {
    const questions = await warmUpQuestions(small.index, 6);
    expect(questions.length).toBe(6);
    expect(questions.every((q) => /^(What is .+\?|How is .+ related to .+\?)$/.test(q))).toBe(true);
    expect(questions.some((q) => q.startsWith('How is'))).toBe(true);
    expect(await warmUpQuestions(small.index, 6)).toEqual(questions);
    const mosaic = createMosaic({ index: small.index });
    let pipelineWarmUps = 0;
    const warmUp = mosaic.warmUp;
    mosaic.warmUp = (options) => {
      pipelineWarmUps += 1;
      return warmUp(options);
    };
    const engine = createLocalEngine({ mosaic, index: small.index });
    const report = await engine.warmUp!({ questions: 6 });
    // The pipeline's own warm-up, the six questions, one ask and one policy.
    expect(pipelineWarmUps).toBe(1);
    expect(report.calls).toBe(9);
    expect(report.totalMs).toBeGreaterThanOrEqual(report.firstMs);
  });
});

describe('createMosaicServer: token, abort, timeout, shutdown', () => {
  it('refuses to listen beyond loopback without a token; with one, /v1 needs it', async () => {
    const open = createMosaicServer({ mosaic: createMosaic({ index: small.index }), index: small.index, log: false });
    await expect(open.listen({ host: '0.0.0.0' })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError', argument: 'token' });
    const guarded = createMosaicServer({ mosaic: createMosaic({ index: small.index }), index: small.index, log: false, token: TOKEN });
    const { port } = await guarded.listen({ host: '0.0.0.0' });
    try {
      const url = `http://127.0.0.1:${port}`;
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const refused = await fetch(`${url}/v1/policy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: QUESTION }),
      });
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: { field: string } }).error.field).toBe('authorization');
      const wrong = await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789abc' } });
      expect(wrong.status).toBe(401);
      const allowed = await fetch(`${url}/v1/policy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ question: QUESTION }),
      });
      expect(allowed.status).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it('aborts the pipeline of a client that disconnects (the stage sees the signal) and logs it as aborted', async () => {
    const seen = { aborted: [] as boolean[] };
    const entries: ServerLogEntry[] = [];
    const mosaic = createMosaic({ index: small.index, analyzer: slowAnalyzer(5_000, seen) });
    const slow = createMosaicServer({ engine: createLocalEngine({ mosaic, index: small.index }), log: (entry) => entries.push(entry) });
    const { port } = await slow.listen();
    try {
      const body = JSON.stringify({ question: QUESTION, id: 'gone' });
      const request = httpRequest({
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/v1/retrieve',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      request.on('error', () => undefined);
      request.end(body);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = Date.now();
      request.destroy();
      await expect
        .poll(() => entries.find((entry) => entry.event === 'aborted'), { timeout: 10_000 })
        .toMatchObject({ route: 'retrieve', reason: 'client disconnected', id: 'gone' });
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(seen.aborted).toEqual([true]);
      expect(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).toMatch(
        /mosaic_requests_aborted_total\{route="retrieve",reason="client disconnected"\} 1/,
      );
    } finally {
      await slow.close();
    }
  });

  it('answers 504 after the per-request timeout and aborts the pipeline', async () => {
    const seen = { aborted: [] as boolean[] };
    const mosaic = createMosaic({ index: small.index, analyzer: slowAnalyzer(5_000, seen) });
    const slow = createMosaicServer({ mosaic, index: small.index, timeoutMs: 200, log: false });
    const { url } = await slow.listen();
    try {
      const response = await fetch(`${url}/v1/retrieve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: QUESTION }),
      });
      expect(response.status).toBe(504);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('timeout');
      expect(seen.aborted).toEqual([true]);
    } finally {
      await slow.close();
    }
  });

  it('on close, finishes the requests it accepted, then refuses connections', async () => {
    const seen = { aborted: [] as boolean[] };
    const mosaic = createMosaic({ index: small.index, analyzer: slowAnalyzer(600, seen) });
    const slow = createMosaicServer({ mosaic, index: small.index, log: false });
    const { url } = await slow.listen();
    const inFlight = [1, 2, 3].map((i) =>
      fetch(`${url}/v1/retrieve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: QUESTION, id: `q${i}` }),
      }),
    );
    await expect.poll(() => slow.inFlight).toBe(3);
    const closed = slow.close();
    await expect.poll(() => slow.server.listening).toBe(false);
    expect((await fetch(`${url}/readyz`).catch((error: Error) => error)) instanceof Error).toBe(true);
    const responses = await Promise.all(inFlight);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    await closed;
    expect(seen.aborted).toEqual([false, false, false]);
  });

  it('on close, answers a connection that was waiting in the listen backlog instead of resetting it', async () => {
    const backlog = createMosaicServer({ mosaic: createMosaic({ index: small.index }), index: small.index, log: false });
    const { port } = await backlog.listen();
    // A worker thread connects and sends a request while this thread is blocked: the kernel completes the
    // handshake, and the connection waits in the backlog, not yet accepted, when close() is called.
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const client = new Worker(
      `const { workerData, parentPort } = require('node:worker_threads');
       const socket = require('node:net').connect(workerData.port, '127.0.0.1', () => {
         socket.write('GET /readyz HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n');
         Atomics.store(workerData.flag, 0, 1);
         Atomics.notify(workerData.flag, 0);
       });
       let answer = '';
       socket.on('data', (chunk) => { answer += chunk; });
       socket.on('error', (error) => parentPort.postMessage('error: ' + error.code));
       socket.on('close', () => { if (answer) parentPort.postMessage(answer.split('\\r\\n')[0]); });`,
      { eval: true, workerData: { port, flag } },
    );
    const outcome = new Promise<string>((resolve) => client.once('message', resolve));
    try {
      expect(Atomics.wait(flag, 0, 0, 60_000)).not.toBe('timed-out');
      const closed = backlog.close();
      expect(await outcome).toBe('HTTP/1.1 503 Service Unavailable');
      await closed;
    } finally {
      await client.terminate();
      await backlog.close();
    }
  });

  it('under many keep-alive clients firing, close answers every request it accepted; the rest see a refused connection, never a reset', async () => {
    const drained = createMosaicServer({ mosaic: createMosaic({ index: small.index }), index: small.index, log: false });
    const { port } = await drained.listen();
    // A request is accepted once the server has read its headers: the Node server's 'request' event.
    const accepted = new Set<string>();
    drained.server.on('request', (request: IncomingMessage) => accepted.add(String(request.headers['x-test-id'])));
    let connections = 0;
    drained.server.on('connection', () => {
      connections += 1;
    });
    const complete = new Map<string, number>();
    const failed = new Map<string, string>();
    const body = JSON.stringify({ question: QUESTION, windows: 2 });
    // Each client keeps one connection alive and sends its next request on it as soon as an answer
    // has been read: a connection is idle only between an answer and the next request.
    const send = (agent: Agent, id: string) =>
      new Promise<number>((resolve, reject) => {
        const request = httpRequest(
          {
            agent,
            port,
            host: '127.0.0.1',
            method: 'POST',
            path: '/v1/retrieve',
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-test-id': id },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('error', reject);
            response.on('aborted', () => reject(Object.assign(new Error('response aborted'), { code: 'ABORTED' })));
            response.on('end', () => {
              if (response.statusCode === 200) JSON.parse(Buffer.concat(chunks).toString('utf8'));
              resolve(response.statusCode ?? 0);
            });
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    let closing = false;
    const client = async (c: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let n = 0; ; n += 1) {
          const id = `c${c}-${n}`;
          try {
            complete.set(id, await send(agent, id));
          } catch (error) {
            failed.set(id, (error as { code?: string }).code ?? (error as Error).message);
            if (closing) return;
          }
        }
      } finally {
        agent.destroy();
      }
    };
    const clients = Array.from({ length: 32 }, (_, c) => client(c));
    // Every client has its connection open and has had an answer on it before the close.
    await expect
      .poll(() => connections === 32 && Array.from({ length: 32 }, (_, c) => complete.has(`c${c}-1`)).every(Boolean), { timeout: 120_000 })
      .toBe(true);
    closing = true;
    await drained.close();
    await Promise.all(clients);
    const dropped = [...accepted].filter((id) => complete.get(id) === undefined);
    expect(dropped).toEqual([]);
    // Not accepted: the client saw its connection refused, not a reset of a request it had sent.
    expect([...failed.values()].filter((code) => code !== 'ECONNREFUSED')).toEqual([]);
    expect(failed.size).toBe(32);
    expect([...complete.values()].filter((status) => status !== 200)).toEqual([]);
  }, 240_000);
});
