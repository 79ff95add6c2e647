import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, type APIError } from 'openai';
import { queueReplies, startOpenAIStub, type OpenAIStub, type StubReply } from '@mosaic/testing';
import { completeChat, type CompleteChatOptions } from './complete-chat.js';
import { UnusableOutputError } from './unusable-output-error.js';

let stub: OpenAIStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

async function stubWith(replies: StubReply[]): Promise<OpenAIStub> {
  stub = await startOpenAIStub({ respond: queueReplies(replies) });
  return stub;
}

const clientFor = (baseURL: string) => new OpenAI({ apiKey: 'test-key', baseURL, maxRetries: 0 });

function chat(client: OpenAI, overrides: Partial<CompleteChatOptions<string>> = {}) {
  return completeChat<string>({
    client,
    model: 'test-model',
    messages: [{ role: 'user', content: 'hello' }],
    timeoutMs: 5000,
    maxRetries: 2,
    retryDelayMs: 1,
    maxRetryDelayMs: 5,
    stage: 'test-stage',
    parse: (content) => content.trim(),
    ...overrides,
  });
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error as Error & Record<string, unknown>,
  );

describe('completeChat over HTTP', () => {
  it('sends one temperature-0 request and returns the parsed value', async () => {
    const server = await stubWith([{ content: '  the answer  ' }]);
    const result = await chat(clientFor(server.url), {
      responseFormat: { type: 'json_object' },
      maxTokens: 77,
    });
    expect(result).toEqual({ value: 'the answer', content: '  the answer  ', attempts: 1 });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.model).toBe('test-model');
    expect(request.temperature).toBe(0);
    expect(request.messages).toEqual([{ role: 'user', content: 'hello' }]);
    expect(request.responseFormat).toEqual({ type: 'json_object' });
    expect(request.body.max_tokens).toBe(77);
    expect(request.headers.authorization).toBe('Bearer test-key');
  });

  it('omits response_format and max_tokens when not given', async () => {
    const server = await stubWith([{ content: 'x' }]);
    await chat(clientFor(server.url));
    expect(server.requests[0].body).not.toHaveProperty('response_format');
    expect(server.requests[0].body).not.toHaveProperty('max_tokens');
  });

  it.each([408, 409, 429, 500, 503])('retries HTTP %i and succeeds when the server recovers', async (status) => {
    const server = await stubWith([{ status }, { content: 'ok' }]);
    let calls = 0;
    const result = await chat(clientFor(server.url), { onAttempt: () => (calls += 1) });
    expect(result.attempts).toBe(2);
    expect(result.value).toBe('ok');
    expect(calls).toBe(2);
    expect(server.requests).toHaveLength(2);
  });

  it.each([400, 401, 404, 422])('does not retry HTTP %i', async (status) => {
    const server = await stubWith([{ status }, { content: 'never reached' }]);
    const error = await failure(chat(clientFor(server.url)));
    expect(error.name).toBe('MosaicApiCallError');
    expect(error).toMatchObject({ statusCode: status, attempts: 1, url: `${server.url}/chat/completions` });
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after maxRetries + 1 attempts with the last status and cause', async () => {
    const server = await stubWith([{ status: 500 }, { status: 502 }, { status: 503 }, { content: 'too late' }]);
    const error = await failure(chat(clientFor(server.url), { maxRetries: 2 }));
    expect(error.name).toBe('MosaicApiCallError');
    expect(error).toMatchObject({ statusCode: 503, attempts: 3 });
    expect((error.cause as APIError).status).toBe(503);
    expect(server.requests).toHaveLength(3);
  });

  it('makes exactly one attempt with maxRetries 0', async () => {
    const server = await stubWith([{ status: 500 }, { content: 'ok' }]);
    const error = await failure(chat(clientFor(server.url), { maxRetries: 0 }));
    expect(error).toMatchObject({ name: 'MosaicApiCallError', attempts: 1, statusCode: 500 });
    expect(server.requests).toHaveLength(1);
  });

  it('retries a malformed response body', async () => {
    const server = await stubWith([{ malformed: true }, { content: 'fine' }]);
    const result = await chat(clientFor(server.url));
    expect(result).toMatchObject({ value: 'fine', attempts: 2 });
  });

  it('retries empty content, and gives up at once on it with retryUnusableOutput false', async () => {
    const server = await stubWith([{ content: '   ' }, { content: 'filled' }]);
    expect(await chat(clientFor(server.url))).toMatchObject({ value: 'filled', attempts: 2 });

    server.setResponder(queueReplies([{ content: '' }, { content: 'unused' }]));
    const before = server.requests.length;
    const error = await failure(chat(clientFor(server.url), { retryUnusableOutput: false }));
    expect(error.name).toBe('MosaicApiCallError');
    expect(error.attempts).toBe(1);
    expect(error.statusCode).toBeUndefined();
    expect((error.cause as Error).name).toBe('UnusableOutputError');
    expect(server.requests.length - before).toBe(1);
  });

  it('retries when parse throws, and reports the parse error as the cause', async () => {
    const server = await stubWith([{ content: 'bad' }, { content: 'bad' }, { content: 'bad' }]);
    let parses = 0;
    const error = await failure(
      chat(clientFor(server.url), {
        parse: () => {
          parses += 1;
          throw new UnusableOutputError('not usable');
        },
      }),
    );
    expect(parses).toBe(3);
    expect(error).toMatchObject({ name: 'MosaicApiCallError', attempts: 3 });
    expect(error.statusCode).toBeUndefined();
    expect((error.cause as Error).name).toBe('UnusableOutputError');
  });

  it('does not retry a parse failure with retryUnusableOutput false', async () => {
    const server = await stubWith([{ content: 'bad' }, { content: 'good' }]);
    const error = await failure(
      chat(clientFor(server.url), {
        retryUnusableOutput: false,
        parse: (content) => {
          if (content === 'bad') throw new UnusableOutputError('bad');
          return content;
        },
      }),
    );
    expect(error).toMatchObject({ name: 'MosaicApiCallError', attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('times out a hanging request per attempt and retries it', async () => {
    const server = await stubWith([{ hang: true }, { hang: true }]);
    const started = performance.now();
    const error = await failure(chat(clientFor(server.url), { timeoutMs: 60, maxRetries: 1 }));
    expect(error).toMatchObject({ name: 'MosaicApiCallError', attempts: 2 });
    expect(error.statusCode).toBeUndefined();
    expect(error.cause).toBeInstanceOf(APIConnectionTimeoutError);
    expect(String(error.message)).toContain('request timed out');
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(server.requests).toHaveLength(2);
  });

  it('retries connection errors', async () => {
    // A port that was free a moment ago: nothing listens, the connection is refused.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const baseURL = `http://127.0.0.1:${port}/v1`;
    let calls = 0;
    const error = await failure(chat(clientFor(baseURL), { maxRetries: 2, onAttempt: () => (calls += 1) }));
    expect(error).toMatchObject({ name: 'MosaicApiCallError', attempts: 3, url: `${baseURL}/chat/completions` });
    expect(error.statusCode).toBeUndefined();
    expect(error.cause).toBeInstanceOf(APIConnectionError);
    expect(error.cause).not.toBeInstanceOf(APIConnectionTimeoutError);
    expect(calls).toBe(3);
  });

  it('honours Retry-After on a 429 (the client waits as the server asks)', async () => {
    const arrivals: number[] = [];
    const replies = queueReplies([{ status: 429, headers: { 'retry-after': '1' } }, { status: 503, headers: { 'retry-after-ms': '300' } }, { content: 'ok' }]);
    stub = await startOpenAIStub({
      respond: (request) => {
        arrivals.push(performance.now());
        return replies(request);
      },
    });
    const result = await chat(clientFor(stub.url), { maxRetries: 2 });
    expect(result).toMatchObject({ value: 'ok', attempts: 3 });
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(950); // Retry-After: 1 (seconds)
    expect(arrivals[2]! - arrivals[1]!).toBeGreaterThanOrEqual(290); // retry-after-ms: 300
    expect(arrivals[2]! - arrivals[1]!).toBeLessThan(950);
  });

  it('waits with the client’s backoff between HTTP retries when the server names no wait', async () => {
    const arrivals: number[] = [];
    const replies = queueReplies([{ status: 500 }, { status: 500 }, { content: 'ok' }]);
    stub = await startOpenAIStub({
      respond: (request) => {
        arrivals.push(performance.now());
        return replies(request);
      },
    });
    const result = await chat(clientFor(stub.url), { maxRetries: 2, retryDelayMs: 1, maxRetryDelayMs: 1 });
    expect(result.attempts).toBe(3);
    const gaps = arrivals.slice(1).map((time, index) => time - arrivals[index]!);
    // 0.5 s then 1 s, less up to 25 % jitter; retryDelayMs does not apply to HTTP retries.
    expect(gaps[0]).toBeGreaterThanOrEqual(370);
    expect(gaps[1]).toBeGreaterThanOrEqual(745);
  });

  it('waits retryDelayMs · 2^k between retries of unusable output, capped at maxRetryDelayMs', async () => {
    const arrivals: number[] = [];
    const replies = queueReplies([{ content: '' }, { content: ' ' }, { content: '' }, { content: 'ok' }]);
    stub = await startOpenAIStub({
      respond: (request) => {
        arrivals.push(performance.now());
        return replies(request);
      },
    });
    const result = await chat(clientFor(stub.url), { maxRetries: 3, retryDelayMs: 60, maxRetryDelayMs: 100 });
    expect(result.attempts).toBe(4);
    const gaps = arrivals.slice(1).map((time, index) => time - arrivals[index]!);
    // Expected waits: 60, 100 (120 capped), 100 (240 capped); timers may fire a little early.
    expect(gaps[0]).toBeGreaterThanOrEqual(55);
    expect(gaps[1]).toBeGreaterThanOrEqual(95);
    expect(gaps[2]).toBeGreaterThanOrEqual(95);
    expect(gaps[2]).toBeLessThan(1000);
  });

  it('counts the attempts of one call across HTTP and unusable-output retries, within maxRetries', async () => {
    const server = await stubWith([
      { status: 500, headers: { 'retry-after-ms': '1' } },
      { content: '' },
      { status: 502, headers: { 'retry-after-ms': '1' } },
      { content: 'late' },
    ]);
    const error = await failure(chat(clientFor(server.url), { maxRetries: 2 }));
    expect(error).toMatchObject({ name: 'MosaicApiCallError', attempts: 3, statusCode: 502 });
    expect(server.requests).toHaveLength(3);
  });
});

describe('completeChat aborts', () => {
  it('throws AbortedError without a request when the signal is already aborted', async () => {
    const server = await stubWith([{ content: 'x' }]);
    const controller = new AbortController();
    controller.abort();
    const error = await failure(chat(clientFor(server.url), { abortSignal: controller.signal }));
    expect(error.name).toBe('MosaicAbortedError');
    expect(server.requests).toHaveLength(0);
  });

  it('throws AbortedError when aborted during a request', async () => {
    const server = await stubWith([{ hang: true }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await failure(chat(clientFor(server.url), { abortSignal: controller.signal }));
    expect(error.name).toBe('MosaicAbortedError');
    expect(server.requests).toHaveLength(1);
  });

  it('throws AbortedError at once when aborted during a backoff wait', async () => {
    const server = await stubWith([{ status: 500 }, { content: 'never' }]);
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 100);
    const error = await failure(chat(clientFor(server.url), { abortSignal: controller.signal, retryDelayMs: 20_000, maxRetryDelayMs: 20_000 }));
    expect(error.name).toBe('MosaicAbortedError');
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(server.requests).toHaveLength(1);
  });

  it('throws AbortedError at once when aborted while the client waits out a long Retry-After', async () => {
    const server = await stubWith([{ status: 429, headers: { 'retry-after': '30' } }, { content: 'never' }]);
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 100);
    const error = await failure(chat(clientFor(server.url), { abortSignal: controller.signal }));
    expect(error.name).toBe('MosaicAbortedError');
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(server.requests).toHaveLength(1);
  });
});
