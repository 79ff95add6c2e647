import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIEncoder } from './openai-encoder.js';

// A minimal OpenAI-compatible server on 127.0.0.1: POST /v1/embeddings answers with vectors derived
// from each input ([length, 1, 0, 2]), listing them in reverse order (the client must sort by index);
// `mode` switches it to failures.
interface Received {
  authorization?: string;
  body: { model: string; input: string[]; dimensions?: number; encoding_format?: string };
}
type Mode = 'ok' | 'fail-500' | 'fail-400' | 'wrong-dimension' | 'missing-item' | 'slow' | 'fail-once';

let server: Server;
let baseURL: string;
let mode: Mode = 'ok';
let received: Received[] = [];

function vectorFor(text: string): number[] {
  return [text.length, 1, 0, 2];
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
    res.writeHead(404).end();
    return;
  }
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Received['body'];
  received.push({ authorization: req.headers.authorization, body });
  const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
  };
  if (mode === 'fail-500' || (mode === 'fail-once' && received.length === 1)) {
    json(500, { error: { message: 'boom', type: 'server_error' } }, { 'retry-after-ms': '1' });
    return;
  }
  if (mode === 'fail-400') {
    json(400, { error: { message: 'bad input', type: 'invalid_request_error' } });
    return;
  }
  if (mode === 'slow') await new Promise((resolve) => setTimeout(resolve, 400));
  const data = body.input.map((text, index) => ({
    object: 'embedding',
    index,
    embedding: mode === 'wrong-dimension' ? [1, 2, 3] : vectorFor(text),
  }));
  if (mode === 'missing-item') data.pop();
  json(200, { object: 'list', model: body.model, data: data.reverse(), usage: { prompt_tokens: 1, total_tokens: 1 } });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  mode = 'ok';
  received = [];
});

function unit(vector: number[]): number[] {
  const norm = Math.hypot(...vector);
  return vector.map((x) => x / norm);
}

describe('createOpenAIEncoder over HTTP', () => {
  it('batches requests, sends model/dimensions/float format with the key, returns normalised vectors in order', async () => {
    const encoder = createOpenAIEncoder({ model: 'text-embedding-3-large', dimensions: 4, apiKey: 'test-key', baseURL, batchSize: 2 });
    expect(encoder.id).toBe('openai:text-embedding-3-large@4');
    expect(encoder.dimension).toBe(4);
    const texts = ['a', 'bb', 'ccc', '', 'eeeee'];
    const vectors = await encoder.encode(texts);
    expect(received.map((r) => r.body.input)).toEqual([['a', 'bb'], ['ccc', ' '], ['eeeee']]);
    for (const request of received) {
      expect(request.authorization).toBe('Bearer test-key');
      expect(request.body.model).toBe('text-embedding-3-large');
      expect(request.body.dimensions).toBe(4);
      expect(request.body.encoding_format).toBe('float');
    }
    texts.forEach((text, index) => {
      const expected = unit(vectorFor(text.length === 0 ? ' ' : text));
      expected.forEach((x, d) => {
        expect(vectors[index][d]).toBeCloseTo(x, 6);
      });
    });
  });

  it('falls back to OPENAI_API_KEY and OPENAI_BASE_URL from the given environment', async () => {
    const encoder = createOpenAIEncoder({ model: 'text-embedding-3-small', dimensions: 4, env: { OPENAI_API_KEY: 'env-key', OPENAI_BASE_URL: baseURL } });
    expect(encoder.baseURL).toBe(baseURL);
    await encoder.encode(['x']);
    expect(received).toHaveLength(1);
    expect(received[0].authorization).toBe('Bearer env-key');
  });

  it('retries a 500 and succeeds when the server recovers', async () => {
    mode = 'fail-once';
    const encoder = createOpenAIEncoder({ dimensions: 4, apiKey: 'k', baseURL, maxRetries: 2 });
    const [vector] = await encoder.encode(['abc']);
    expect(received).toHaveLength(2);
    unit(vectorFor('abc')).forEach((x, d) => {
      expect(vector[d]).toBeCloseTo(x, 6);
    });
  });

  it('turns persistent 500s into ApiCallError after maxRetries + 1 attempts', async () => {
    mode = 'fail-500';
    const encoder = createOpenAIEncoder({ dimensions: 4, apiKey: 'k', baseURL, maxRetries: 2 });
    const error = await encoder.encode(['abc']).catch((e: unknown) => e);
    expect((error as Error).name).toBe('MosaicApiCallError');
    expect(error).toMatchObject({ statusCode: 500, attempts: 3, url: `${baseURL}/embeddings` });
    expect(received).toHaveLength(3);
  });

  it('does not retry a 400', async () => {
    mode = 'fail-400';
    const encoder = createOpenAIEncoder({ dimensions: 4, apiKey: 'k', baseURL, maxRetries: 2 });
    const error = await encoder.encode(['abc']).catch((e: unknown) => e);
    expect((error as Error).name).toBe('MosaicApiCallError');
    expect(error).toMatchObject({ statusCode: 400, attempts: 1 });
    expect(received).toHaveLength(1);
  });

  it('rejects unusable responses (wrong dimension, missing items) with ApiCallError', async () => {
    const encoder = createOpenAIEncoder({ dimensions: 4, apiKey: 'k', baseURL });
    for (const failing of ['wrong-dimension', 'missing-item'] as const) {
      mode = failing;
      const error = await encoder.encode(['abc', 'de']).catch((e: unknown) => e);
      expect((error as Error).name).toBe('MosaicApiCallError');
    }
  });

  it('times out slow responses into ApiCallError', async () => {
    mode = 'slow';
    const encoder = createOpenAIEncoder({ dimensions: 4, apiKey: 'k', baseURL, timeoutMs: 100, maxRetries: 0 });
    const error = await encoder.encode(['abc']).catch((e: unknown) => e);
    expect((error as Error).name).toBe('MosaicApiCallError');
    expect(error).toMatchObject({ attempts: 1 });
  });

  it('honours an abort signal, before and during a request', async () => {
    const encoder = createOpenAIEncoder({ dimensions: 4, apiKey: 'k', baseURL });
    const before = new AbortController();
    before.abort();
    expect(((await encoder.encode(['a'], { abortSignal: before.signal }).catch((e: unknown) => e)) as Error).name).toBe('MosaicAbortedError');
    expect(received).toHaveLength(0);
    mode = 'slow';
    const during = new AbortController();
    setTimeout(() => during.abort(), 50);
    expect(((await encoder.encode(['a'], { abortSignal: during.signal }).catch((e: unknown) => e)) as Error).name).toBe('MosaicAbortedError');
  });
});

describe('createOpenAIEncoder options', () => {
  it('knows the native dimension of OpenAI models and needs dimensions for others', () => {
    expect(createOpenAIEncoder({ apiKey: 'k', env: {} }).dimension).toBe(3072);
    expect(createOpenAIEncoder({ apiKey: 'k', env: {} }).id).toBe('openai:text-embedding-3-large');
    expect(() => createOpenAIEncoder({ model: 'local-model', apiKey: 'k', env: {} })).toThrow(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
  });

  it('requires a key and valid numbers', () => {
    expect(() => createOpenAIEncoder({ env: {} })).toThrow(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
    expect(() => createOpenAIEncoder({ apiKey: 'k', batchSize: 0, env: {} })).toThrow(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
    expect(() => createOpenAIEncoder({ apiKey: 'k', maxRetries: -1, env: {} })).toThrow(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
  });
});
