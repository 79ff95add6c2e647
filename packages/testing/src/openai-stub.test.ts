import OpenAI, { APIConnectionTimeoutError, APIError } from 'openai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startOpenAIStub, type OpenAIStub } from './openai-stub.js';
import { queueReplies } from './queue-replies.js';
import { hashEmbedding } from './hash-embedding.js';

let stub: OpenAIStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const client = (s: OpenAIStub, options: { maxRetries?: number; timeout?: number } = {}) =>
  new OpenAI({ apiKey: 'test-key', baseURL: s.url, maxRetries: options.maxRetries ?? 0, timeout: options.timeout ?? 5000 });

describe('startOpenAIStub', () => {
  it('answers chat completions in the OpenAI wire format and records the request', async () => {
    stub = await startOpenAIStub({ respond: () => ({ content: 'hello there' }) });
    expect(stub.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const format = { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } } as const;
    const completion = await client(stub).chat.completions.create({
      model: 'gpt-test',
      temperature: 0,
      messages: [{ role: 'user', content: 'hi' }],
      response_format: format,
    });
    expect(completion.choices[0]!.message.content).toBe('hello there');
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(stub.requests).toHaveLength(1);
    const [request] = stub.requests;
    expect(request!.kind).toBe('chat');
    expect(request!.model).toBe('gpt-test');
    expect(request!.temperature).toBe(0);
    expect(request!.messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(request!.responseFormat).toEqual(format);
    expect(request!.headers.authorization).toBe('Bearer test-key');
  });

  it('serialises { json } replies as the message content and defaults to "OK"', async () => {
    stub = await startOpenAIStub({ respond: queueReplies([{ json: { a: [1, 2], b: 'x' } }]) });
    const c = client(stub);
    const first = await c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }] });
    expect(JSON.parse(first.choices[0]!.message.content!)).toEqual({ a: [1, 2], b: 'x' });
    const second = await c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }] });
    expect(second.choices[0]!.message.content).toBe('OK');
  });

  it('answers embeddings with deterministic hash vectors, in base64 (client default) or float', async () => {
    stub = await startOpenAIStub({ embeddingDimension: 16 });
    const c = client(stub);
    const base64 = await c.embeddings.create({ model: 'e', input: ['red apple', 'green apple', 'ship'] });
    expect(base64.data).toHaveLength(3);
    const vectors = base64.data.map((d) => Array.from(d.embedding as ArrayLike<number>));
    for (const v of vectors) {
      expect(v).toHaveLength(16);
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    }
    expect(vectors[0]![0]).toBeCloseTo(hashEmbedding('red apple', 16)[0]!, 6);
    const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
    expect(dot(vectors[0]!, vectors[1]!)).toBeGreaterThan(dot(vectors[0]!, vectors[2]!));
    expect(stub.requests[0]!.input).toEqual(['red apple', 'green apple', 'ship']);

    stub.setResponder(() => ({ embeddings: [[0.5, 0.25]] }));
    const float = await c.embeddings.create({ model: 'e', input: 'x', encoding_format: 'float' });
    expect(float.data[0]!.embedding).toEqual([0.5, 0.25]);
  });

  it('returns programmed HTTP errors that the client surfaces as APIError with the status', async () => {
    stub = await startOpenAIStub({ respond: () => ({ status: 500 }) });
    const error = await client(stub)
      .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(500);
  });

  it('scripted sequences: a 500 then a success is retried by the client', async () => {
    stub = await startOpenAIStub({
      respond: queueReplies([{ status: 503, headers: { 'retry-after-ms': '1' } }, { content: 'second time' }]),
    });
    const completion = await client(stub, { maxRetries: 1 }).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'q' }],
    });
    expect(completion.choices[0]!.message.content).toBe('second time');
    expect(stub.requests.map((r) => r.index)).toEqual([0, 1]);
  });

  it('malformed replies are not valid JSON', async () => {
    stub = await startOpenAIStub({ respond: () => ({ malformed: true }) });
    const response = await fetch(`${stub.url}/chat/completions`, { method: 'POST', body: '{"model":"m","messages":[]}' });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    const error = await client(stub)
      .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
  });

  it('hang never answers: the client times out, and close() still returns promptly', async () => {
    stub = await startOpenAIStub({ respond: () => ({ hang: true }) });
    const started = Date.now();
    const error = await client(stub, { timeout: 150 })
      .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    // Bounds far above the 150 ms timeout, so that a loaded machine passes and a hang does not.
    expect(Date.now() - started).toBeLessThan(10_000);
    // A request still hanging when the stub closes (waited for: on a busy machine it may take a while to arrive).
    const pending = fetch(`${stub.url}/chat/completions`, { method: 'POST', body: '{"model":"m","messages":[]}' }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(stub?.inFlight).toBe(1), { timeout: 10_000, interval: 20 });
    const closing = Date.now();
    await stub.close();
    expect(Date.now() - closing).toBeLessThan(5_000);
    expect(await pending).toBeInstanceOf(Error);
  });

  it('delayMs delays the reply and requests overlap (maxInFlight)', async () => {
    stub = await startOpenAIStub({ respond: () => ({ content: 'late', delayMs: 120 }) });
    const c = client(stub);
    const started = Date.now();
    const replies = await Promise.all([1, 2, 3].map(() => c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }] })));
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    expect(replies.map((r) => r.choices[0]!.message.content)).toEqual(['late', 'late', 'late']);
    expect(stub.maxInFlight).toBe(3);
    expect(stub.inFlight).toBe(0);
  });

  it('queueReplies can be limited to one kind and hands over to `then`', async () => {
    stub = await startOpenAIStub({
      // biome-ignore lint/suspicious/noThenProperty: queueReplies' option for the replies after the queue
      respond: queueReplies([{ content: 'scripted' }], { kind: 'chat', then: () => ({ content: 'after' }) }),
      embeddingDimension: 4,
    });
    const c = client(stub);
    const e = await c.embeddings.create({ model: 'e', input: 'x' });
    expect(e.data).toHaveLength(1);
    const a = await c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }] });
    const b = await c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }] });
    expect([a.choices[0]!.message.content, b.choices[0]!.message.content]).toEqual(['scripted', 'after']);
  });

  it('unknown routes are 404 in OpenAI error format; a throwing responder is a 500', async () => {
    stub = await startOpenAIStub({
      respond: () => {
        throw new Error('boom');
      },
    });
    const missing = await fetch(`${stub.url}/models`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found');
    const failed = await fetch(`${stub.url}/chat/completions`, { method: 'POST', body: '{"model":"m","messages":[]}' });
    expect(failed.status).toBe(500);
    expect(stub.requests.map((r) => r.kind)).toEqual(['other', 'chat']);
  });
});
