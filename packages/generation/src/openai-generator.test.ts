import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RankedWindow } from '@mosaic/spec';
import { queueReplies, startOpenAIStub, type OpenAIStub } from '@mosaic/testing';
import { createOpenAIGenerator } from './openai-generator.js';
import { checkGeneratorConformance } from './conformance.js';

let stub: OpenAIStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
  vi.unstubAllEnvs();
});

const windows: RankedWindow[] = [
  { id: 'w-cause', documentId: 'd', start: 0, end: 60, score: 0.9, evidenceIds: [], text: 'Prolonged exposure to veltrane dust causes Morrow syndrome.' },
  {
    id: 'w-treat',
    documentId: 'd',
    start: 800,
    end: 880,
    score: 0.8,
    evidenceIds: [],
    text: 'Morrow syndrome is treated with calditrex, an anti-inflammatory drug.',
  },
  { id: 'w-other', documentId: 'd', start: 1600, end: 1650, score: 0.1, evidenceIds: [], text: 'Support groups meet in most regions.' },
];
const question = { id: 'q1', text: 'Which drug treats the condition caused by veltrane dust?' };
const fast = { apiKey: 'k', retryDelayMs: 1 };

describe('createOpenAIGenerator', () => {
  it('prompts with numbered windows at temperature 0 and parses valid citations', async () => {
    stub = await startOpenAIStub({
      respond: () => ({ content: 'Calditrex [2]. Veltrane dust causes Morrow syndrome [1][7], which calditrex treats [2].' }),
    });
    const generator = createOpenAIGenerator({ ...fast, baseURL: stub.url, model: 'gpt-test' });
    expect(generator.id).toBe('openai:gpt-test');
    const answer = await generator.generate({ question, windows });
    expect(answer).toEqual({
      text: 'Calditrex [2]. Veltrane dust causes Morrow syndrome [1][7], which calditrex treats [2].',
      citations: [
        { window: 2, windowId: 'w-treat' },
        { window: 1, windowId: 'w-cause' },
      ],
      generator: 'openai:gpt-test',
      extractive: false,
    });
    const [request] = stub.requests;
    expect(request!.model).toBe('gpt-test');
    expect(request!.temperature).toBe(0);
    const user = String(request!.messages![1]!.content);
    expect(user).toContain('[1] Prolonged exposure to veltrane dust causes Morrow syndrome.');
    expect(user).toContain('[3] Support groups meet in most regions.');
    expect(user).toContain(JSON.stringify(question.text));
    expect(String(request!.messages![0]!.content)).toMatch(/\[1\]/);
  });

  it('reads base URL and key from the environment', async () => {
    stub = await startOpenAIStub({ respond: () => ({ content: 'Calditrex [2].' }) });
    vi.stubEnv('OPENAI_BASE_URL', stub.url);
    vi.stubEnv('OPENAI_API_KEY', 'env-key');
    const answer = await createOpenAIGenerator({ retryDelayMs: 1 }).generate({ question, windows });
    expect(answer.citations.map((c) => c.window)).toEqual([2]);
    expect(stub.requests[0]!.headers.authorization).toBe('Bearer env-key');
  });

  it('requires a key when no base URL is configured', () => {
    vi.stubEnv('OPENAI_BASE_URL', '');
    vi.stubEnv('OPENAI_API_KEY', '');
    expect(() => createOpenAIGenerator()).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
  });

  it('retries a 500 and succeeds', async () => {
    // biome-ignore lint/suspicious/noThenProperty: queueReplies' option for the replies after the queue
    stub = await startOpenAIStub({ respond: queueReplies([{ status: 500 }], { then: () => ({ content: 'Calditrex [2].' }) }) });
    const answer = await createOpenAIGenerator({ ...fast, baseURL: stub.url }).generate({ question, windows });
    expect(answer.text).toBe('Calditrex [2].');
    expect(stub.requests).toHaveLength(2);
  });

  it('retries malformed bodies and empty content', async () => {
    stub = await startOpenAIStub({
      respond: queueReplies([{ malformed: true }, { content: '   ' }, { content: 'Calditrex [2].' }]),
    });
    const answer = await createOpenAIGenerator({ ...fast, baseURL: stub.url }).generate({ question, windows });
    expect(answer.citations).toEqual([{ window: 2, windowId: 'w-treat' }]);
    expect(stub.requests).toHaveLength(3);
  });

  it('persistent 500 → ApiCallError after 1 + maxRetries attempts with growing backoff', async () => {
    const times: number[] = [];
    stub = await startOpenAIStub({
      respond: () => {
        times.push(Date.now());
        return { status: 500 };
      },
    });
    const error = await createOpenAIGenerator({ apiKey: 'k', baseURL: stub.url, maxRetries: 2, retryDelayMs: 40 })
      .generate({ question, windows })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'MosaicApiCallError', statusCode: 500, attempts: 3 });
    expect(stub.requests).toHaveLength(3);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(35);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(75); // 40 · 2
  });

  it('does not retry a 400', async () => {
    stub = await startOpenAIStub({ respond: () => ({ status: 400 }) });
    const error = await createOpenAIGenerator({ ...fast, baseURL: stub.url })
      .generate({ question, windows })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'MosaicApiCallError', statusCode: 400, attempts: 1 });
    expect(stub.requests).toHaveLength(1);
  });

  it("onFailure 'extractive' answers extractively and records the fallback", async () => {
    stub = await startOpenAIStub({ respond: () => ({ status: 503 }) });
    const answer = await createOpenAIGenerator({ ...fast, baseURL: stub.url, onFailure: 'extractive', maxRetries: 1 }).generate({
      question,
      windows,
    });
    expect(answer.extractive).toBe(true);
    expect(answer.generator).toBe('extractive');
    expect(answer.fallback?.from).toBe('openai:gpt-4o-mini');
    expect(answer.fallback?.reason).toContain('503');
    expect(answer.text).toContain('Prolonged exposure to veltrane dust causes Morrow syndrome. [1]');
    expect(stub.requests).toHaveLength(2);
  });

  it('times out a hanging server per attempt', async () => {
    stub = await startOpenAIStub({ respond: () => ({ hang: true }) });
    const started = Date.now();
    const error = await createOpenAIGenerator({ ...fast, baseURL: stub.url, timeoutMs: 100, maxRetries: 1 })
      .generate({ question, windows })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'MosaicApiCallError', attempts: 2 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('aborts promptly, during a request and during a backoff wait, even with an extractive fallback', async () => {
    stub = await startOpenAIStub({ respond: () => ({ hang: true }) });
    const generator = createOpenAIGenerator({ apiKey: 'k', baseURL: stub.url, onFailure: 'extractive', retryDelayMs: 10_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await expect(generator.generate({ question, windows, abortSignal: controller.signal })).rejects.toMatchObject({
      name: 'MosaicAbortedError',
    });
    stub.setResponder(() => ({ status: 500 }));
    const second = new AbortController();
    setTimeout(() => second.abort(), 50);
    await expect(generator.generate({ question, windows, abortSignal: second.signal })).rejects.toMatchObject({
      name: 'MosaicAbortedError',
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('passes the generator conformance check over the stub', async () => {
    stub = await startOpenAIStub({ respond: () => ({ content: 'It was built in 1820 [1].' }) });
    const result = await checkGeneratorConformance({ generator: createOpenAIGenerator({ ...fast, baseURL: stub.url }) });
    expect(result.failures).toEqual([]);
  });
});
