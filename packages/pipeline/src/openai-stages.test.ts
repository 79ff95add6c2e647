// The analyzer and the generator behind the local OpenAI-compatible stub, over real HTTP.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOpenAIAnalyzer } from '@mosaic/analyzer';
import { createOpenAIGenerator } from '@mosaic/generation';
import { defaultPolicy } from '@mosaic/policy-schema';
import { startOpenAIStub, type OpenAIStub, type StubRequest } from '@mosaic/testing';
import { createMosaic } from './create-mosaic.js';
import { buildMedicalIndex, MULTI_HOP } from './__fixtures__/medical-index.js';

const isAnalyzerCall = (request: StubRequest) => request.responseFormat !== undefined;
const connection = (stub: OpenAIStub) => ({ baseURL: stub.url, apiKey: 'test-key', maxRetries: 1, retryDelayMs: 1 });

const POLICY_REPLY = {
  ...defaultPolicy(),
  seedLimit: 9,
  maxDepth: 4,
  useConnector: true,
  stopRegime: 'medium',
  evidenceCount: 12,
  targetEntities: ['veltrane dust'],
  targetFacets: ['treatment'],
  retrievalRisk: 'the condition is not named',
  rationale: 'mediated: dust → condition → drug',
};

describe('createMosaic with OpenAI-backed analyzer and generator (local stub)', () => {
  let stub: OpenAIStub;
  beforeEach(async () => {
    stub = await startOpenAIStub();
  });
  afterEach(async () => {
    await stub.close();
  });

  it('uses the policy the analyzer returns and the answer the generator returns', async () => {
    stub.setResponder((request) =>
      isAnalyzerCall(request) ? { json: POLICY_REPLY } : { content: 'Calditrex treats Morrow syndrome [1], caused by veltrane dust [2].' },
    );
    const index = await buildMedicalIndex();
    const mosaic = createMosaic({
      index,
      analyzer: createOpenAIAnalyzer({ ...connection(stub), model: 'gpt-4o-mini' }),
      generator: createOpenAIGenerator({ ...connection(stub), model: 'gpt-4o-mini' }),
    });
    const result = await mosaic.ask({ question: MULTI_HOP.question });
    expect(result.analysis.analyzer).toBe('openai:gpt-4o-mini');
    expect(result.analysis.fallback).toBeUndefined();
    expect(result.policy).toMatchObject({ seedLimit: 9, maxDepth: 4, useConnector: true, stopRegime: 'medium', evidenceCount: 12 });
    expect(result.answer.text).toBe('Calditrex treats Morrow syndrome [1], caused by veltrane dust [2].');
    expect(result.answer.citations.map((c) => c.windowId)).toEqual([result.windows[0].id, result.windows[1].id]);
    for (const fact of MULTI_HOP.facts) expect(result.windows.some((w) => w.text.includes(fact))).toBe(true);
    const chats = stub.requests.filter((r) => r.kind === 'chat');
    expect(chats).toHaveLength(2);
    expect(JSON.stringify(chats[0].messages)).toContain('veltrane dust');
    // The generator saw the retrieved windows, numbered.
    expect(JSON.stringify(chats[1].messages)).toContain(result.windows[0].text.slice(0, 40).replace(/\s+/g, ' '));
    expect(chats[1].temperature).toBe(0);
  });

  it('analyzer HTTP 500 → the analyzer falls back to the offline policy and retrieval goes on', async () => {
    stub.setResponder((request) => (isAnalyzerCall(request) ? { status: 500 } : { content: 'ok [1]' }));
    const index = await buildMedicalIndex();
    const offline = await createMosaic({ index }).retrieve({ question: MULTI_HOP.question });
    const mosaic = createMosaic({ index, analyzer: createOpenAIAnalyzer(connection(stub)) });
    const result = await mosaic.retrieve({ question: MULTI_HOP.question });
    expect(result.analysis.fallback).toMatchObject({ from: 'openai:gpt-4o-mini' });
    expect(result.analysis.analyzer).toBe(offline.analysis.analyzer);
    expect(result.policy).toEqual(offline.policy);
    expect(result.windows).toEqual(offline.windows);
    expect(stub.requests.filter(isAnalyzerCall)).toHaveLength(2); // first attempt + one retry
  });

  it('analyzer HTTP 500 without a fallback → ApiCallError propagates', async () => {
    stub.setResponder(() => ({ status: 500 }));
    const index = await buildMedicalIndex();
    const mosaic = createMosaic({ index, analyzer: createOpenAIAnalyzer({ ...connection(stub), fallback: false }) });
    await expect(mosaic.retrieve({ question: MULTI_HOP.question })).rejects.toMatchObject({ name: 'MosaicApiCallError', statusCode: 500 });
  });

  it("generator HTTP 500 → ApiCallError by default, an extractive answer with onFailure: 'extractive'", async () => {
    stub.setResponder(() => ({ status: 500 }));
    const index = await buildMedicalIndex();
    const throwing = createMosaic({ index, generator: createOpenAIGenerator(connection(stub)) });
    await expect(throwing.ask({ question: MULTI_HOP.question })).rejects.toMatchObject({ name: 'MosaicApiCallError', statusCode: 500 });
    const falling = createMosaic({ index, generator: createOpenAIGenerator({ ...connection(stub), onFailure: 'extractive' }) });
    const result = await falling.ask({ question: MULTI_HOP.question });
    expect(result.answer.extractive).toBe(true);
    expect(result.answer.fallback).toMatchObject({ from: 'openai:gpt-4o-mini' });
    expect(result.answer.text.toLowerCase()).toContain('calditrex');
  });

  it('aborts a batch whose analyzer calls hang, without waiting for the server', async () => {
    stub.setResponder(() => ({ hang: true }));
    const index = await buildMedicalIndex();
    const mosaic = createMosaic({ index, analyzer: createOpenAIAnalyzer({ ...connection(stub), fallback: false, timeoutMs: 60000 }) });
    const controller = new AbortController();
    const started = performance.now();
    const pending = mosaic.retrieveBatch({
      questions: [MULTI_HOP.question, 'What is Morrow syndrome?', 'What is MX-7?'],
      concurrency: 2,
      abortSignal: controller.signal,
    });
    // Abort once both concurrent analyzer calls hang at the server (on a busy machine they may take
    // longer than any fixed delay to arrive); the batch must then end without waiting for replies.
    await vi.waitFor(() => expect(stub.requests.filter(isAnalyzerCall)).toHaveLength(2), { timeout: 20_000, interval: 20 });
    const aborted = performance.now();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'MosaicAbortedError' });
    expect(performance.now() - aborted).toBeLessThan(10_000);
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(stub.requests.filter(isAnalyzerCall)).toHaveLength(2);
  });
});
