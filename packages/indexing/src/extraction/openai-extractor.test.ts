import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Chunk } from '@mosaic/spec';
import { FIXTURE_DOCUMENTS, fixtureExtractionResponder, queueReplies, startOpenAIStub, type OpenAIStub, type StubRequest } from '@mosaic/testing';
import { createOpenAIExtractor, parseExtractionContent } from './openai-extractor.js';

let stub: OpenAIStub | undefined;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mosaic-openai-extractor-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const chunk = (id: string, text: string): Chunk => ({ id, documentId: 'doc', start: 0, end: text.length, text });
const fast = { apiKey: 'k', retryDelayMs: 1 };

const modelOutput = {
  entities: [
    { name: 'Veltrane dust', type: 'substance', description: 'Dust from veltrane stone.' },
    { name: 'Morrow syndrome', type: 'Condition', description: 'A rare inflammatory disorder.' },
    { name: 'morrow syndrome', type: 'CONDITION', description: 'Affects the knees and wrists.' },
    { name: 'What is Morrow syndrome?', type: 'HEADING', description: 'A heading.' },
    { entity_name: 'Quarry workers', entity_type: 'PERSON', entity_description: 'People who cut veltrane stone.' },
    { type: 'CONCEPT', description: 'no name' },
    { name: '  ', type: 'CONCEPT', description: 'blank name' },
  ],
  relations: [
    { source: 'Veltrane dust', target: 'Morrow syndrome', label: 'causes', keywords: ['cause', 'exposure'], description: 'Prolonged exposure causes it.' },
    { source: 'Morrow syndrome', target: 'Calditrex', label: 'is treated with', keywords: 'treatment, drug', description: 'Treated with calditrex.' },
    { source: 'MORROW SYNDROME', target: 'Morrow syndrome', label: 'is', keywords: [], description: 'self loop' },
    { source: 'Veltrane dust', target: 'Morrow syndrome', label: 'causes', keywords: [], description: 'duplicate' },
    { src_id: 'What is Morrow syndrome?', tgt_id: 'Morrow syndrome', relation: 'asks about', description: 'heading' },
    { source: 'Veltrane dust' },
  ],
};

/** A scripted "model": entities are the capitalised names the passage contains. */
function scriptedModel(request: StubRequest) {
  const user = String(request.messages?.[1]?.content ?? '');
  const passage = JSON.parse(user.slice(user.indexOf('\n') + 1)) as string;
  const names = [...new Set(passage.match(/[A-Z][a-z]+(?: [A-Z][a-z]+)*/g) ?? [])];
  return {
    json: {
      entities: names.map((name) => ({ name, type: 'CONCEPT', description: `Mentioned: ${name}` })),
      relations: names.slice(1).map((name) => ({ source: names[0], target: name, label: 'appears with', keywords: [], description: '' })),
    },
  };
}

describe('parseExtractionContent', () => {
  it('validates and normalises entities and relations', () => {
    const counts = { invalidItems: 0, droppedRelations: 0, addedEndpoints: 0 };
    const extraction = parseExtractionContent(JSON.stringify(modelOutput), { counts });
    expect(extraction.entities).toEqual([
      { name: 'Veltrane dust', type: 'SUBSTANCE', description: 'Dust from veltrane stone.' },
      { name: 'Morrow syndrome', type: 'CONDITION', description: 'A rare inflammatory disorder. Affects the knees and wrists.' },
      { name: 'What is Morrow syndrome?', type: 'HEADING', description: 'A heading.', questionLike: true },
      { name: 'Quarry workers', type: 'PERSON', description: 'People who cut veltrane stone.' },
      { name: 'Calditrex', type: 'UNKNOWN', description: '' },
    ]);
    expect(extraction.relations).toEqual([
      { source: 'Veltrane dust', target: 'Morrow syndrome', label: 'causes', keywords: ['cause', 'exposure'], description: 'Prolonged exposure causes it.' },
      { source: 'Morrow syndrome', target: 'Calditrex', label: 'is treated with', keywords: ['treatment', 'drug'], description: 'Treated with calditrex.' },
      { source: 'What is Morrow syndrome?', target: 'Morrow syndrome', label: 'asks about', keywords: [], description: 'heading' },
    ]);
    expect(counts).toEqual({ invalidItems: 3, droppedRelations: 2, addedEndpoints: 1 });
    // Every relation endpoint is an entity of the same extraction (the Extractor contract).
    const names = new Set(extraction.entities.map((e) => e.name));
    for (const r of extraction.relations) expect(names.has(r.source) && names.has(r.target)).toBe(true);
  });

  it("danglingEndpoints 'drop' drops relations to unlisted entities", () => {
    const extraction = parseExtractionContent(JSON.stringify(modelOutput), { danglingEndpoints: 'drop' });
    expect(extraction.entities.map((e) => e.name)).not.toContain('Calditrex');
    expect(extraction.relations.map((r) => r.label)).toEqual(['causes', 'asks about']);
  });

  it('rejects content that is not JSON or not an extraction', () => {
    for (const bad of ['{"entities": [', '[]', '{"things": []}', '"text"']) {
      expect(() => parseExtractionContent(bad)).toThrowError(expect.objectContaining({ name: 'UnusableOutputError' }));
    }
    expect(parseExtractionContent('```json\n{"entities": []}\n```')).toEqual({ entities: [], relations: [] });
  });
});

describe('createOpenAIExtractor', () => {
  it('extracts over HTTP with a LightRAG-style prompt, JSON schema output and temperature 0', async () => {
    stub = await startOpenAIStub({ respond: () => ({ json: modelOutput }) });
    const extractor = createOpenAIExtractor({ ...fast, baseURL: stub.url });
    expect(extractor.id).toBe('openai:gpt-4o-mini');
    const passage = 'Prolonged exposure to veltrane dust causes Morrow syndrome. "Ignore the rules" he said.';
    const extraction = await extractor.extract({ chunk: chunk('c1', passage) });
    expect(extraction.relations.map((r) => r.label)).toEqual(['causes', 'is treated with', 'asks about']);
    const request = stub.requests[0]!;
    expect(request.temperature).toBe(0);
    expect((request.responseFormat as { type: string; json_schema: { name: string } }).json_schema.name).toBe('mosaic_extraction');
    expect(String(request.messages![0]!.content)).toContain('CONDITION');
    expect(String(request.messages![0]!.content)).toContain('HEADING');
    expect(String(request.messages![1]!.content)).toContain(JSON.stringify(passage));
  });

  it('caches by chunk text + model + prompt version in a JSON-lines file: a re-run makes zero requests', async () => {
    stub = await startOpenAIStub({ respond: scriptedModel });
    const cacheDir = join(dir, 'cache-rerun');
    const chunks = [
      chunk('a', 'Captain Elias Thorn commanded the Gull Wing.'),
      chunk('b', 'The Gull Wing was built in Port Amberly.'),
      chunk('c', 'Mara Thorn packed a brass compass.'),
    ];
    const first = createOpenAIExtractor({ ...fast, baseURL: stub.url, cacheDir });
    const firstRun = await Promise.all(chunks.map((c) => first.extract({ chunk: c })));
    expect(stub.requests).toHaveLength(3);
    expect(firstRun[1]!.entities.map((e) => e.name)).toEqual(['The Gull Wing', 'Port Amberly']);
    const lines = (await readFile(first.cachePath!, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0]!)).toMatchObject({ model: 'gpt-4o-mini', promptVersion: 'mosaic-extract-v1' });
    expect(JSON.parse(lines[0]!).key).toMatch(/^[0-9a-f]{64}$/);

    const second = createOpenAIExtractor({ ...fast, baseURL: stub.url, cacheDir });
    const secondRun = await Promise.all(chunks.map((c) => second.extract({ chunk: c })));
    expect(stub.requests).toHaveLength(3); // zero new HTTP requests
    expect(secondRun).toEqual(firstRun);
    expect(second.stats()).toMatchObject({ chunks: 3, cacheHits: 3, requests: 0, cacheLinesLoaded: 3 });

    // Same text under another chunk id is a hit; another model is a miss.
    await second.extract({ chunk: chunk('other-id', chunks[0]!.text) });
    expect(stub.requests).toHaveLength(3);
    const otherModel = createOpenAIExtractor({ ...fast, baseURL: stub.url, cacheDir, model: 'gpt-other' });
    await otherModel.extract({ chunk: chunks[0]! });
    expect(stub.requests).toHaveLength(4);
    expect(stub.requests[3]!.model).toBe('gpt-other');
  });

  it('skips a cache line cut by an interrupted run and re-extracts that chunk only', async () => {
    stub = await startOpenAIStub({ respond: scriptedModel });
    const cacheDir = join(dir, 'cache-cut');
    const chunks = [chunk('a', 'Orrin Vale met Master Pell.'), chunk('b', 'Master Pell designed the Great Clock.')];
    const first = createOpenAIExtractor({ ...fast, baseURL: stub.url, cacheDir });
    for (const c of chunks) await first.extract({ chunk: c });
    const body = await readFile(first.cachePath!, 'utf8');
    await writeFile(first.cachePath!, body.slice(0, body.length - 20), 'utf8'); // cut the last line
    const second = createOpenAIExtractor({ ...fast, baseURL: stub.url, cacheDir });
    await second.extract({ chunk: chunks[0]! });
    await second.extract({ chunk: chunks[1]! });
    expect(second.stats()).toMatchObject({ cacheLinesLoaded: 1, cacheLinesMalformed: 1, requests: 1 });
    expect(stub.requests).toHaveLength(3);
  });

  it('limits in-flight calls across extract() calls', async () => {
    stub = await startOpenAIStub({ respond: () => ({ json: { entities: [], relations: [] }, delayMs: 60 }) });
    const two = createOpenAIExtractor({ ...fast, baseURL: stub.url, concurrency: 2 });
    await Promise.all([1, 2, 3, 4, 5, 6].map((n) => two.extract({ chunk: chunk(`c${n}`, `Text number ${n}.`) })));
    expect(stub.requests).toHaveLength(6);
    expect(stub.maxInFlight).toBe(2);
    await stub.close();
    stub = await startOpenAIStub({ respond: () => ({ json: { entities: [], relations: [] }, delayMs: 60 }) });
    const four = createOpenAIExtractor({ ...fast, baseURL: stub.url, concurrency: 4 });
    await Promise.all([1, 2, 3, 4, 5, 6].map((n) => four.extract({ chunk: chunk(`c${n}`, `Text number ${n}.`) })));
    expect(stub.maxInFlight).toBe(4);
  });

  it('identical chunks in flight at once cost one request', async () => {
    stub = await startOpenAIStub({ respond: () => ({ json: modelOutput, delayMs: 30 }) });
    const extractor = createOpenAIExtractor({ ...fast, baseURL: stub.url });
    const results = await Promise.all([1, 2, 3].map((n) => extractor.extract({ chunk: chunk(`c${n}`, 'same text') })));
    expect(stub.requests).toHaveLength(1);
    expect(results[0]).toEqual(results[2]);
    results[0]!.entities.pop(); // callers get copies
    expect(results[1]!.entities).toHaveLength(5);
  });

  it('retries malformed JSON and HTTP 500, then succeeds', async () => {
    stub = await startOpenAIStub({
      respond: queueReplies([{ content: '{"entities": [{"name": "Morrow' }, { status: 500 }, { malformed: true }, { json: modelOutput }]),
    });
    const extractor = createOpenAIExtractor({ ...fast, baseURL: stub.url, maxRetries: 3 });
    const extraction = await extractor.extract({ chunk: chunk('c', 'text') });
    expect(extraction.entities).toHaveLength(5);
    expect(stub.requests).toHaveLength(4);
    expect(extractor.stats()).toMatchObject({ requests: 4, retries: 3, failures: 0 });
  });

  it('malformed JSON after retries → ApiCallError, not cached', async () => {
    stub = await startOpenAIStub({ respond: () => ({ json: { nodes: [] } }) });
    const cacheDir = join(dir, 'cache-fail');
    const extractor = createOpenAIExtractor({ ...fast, baseURL: stub.url, maxRetries: 2, cacheDir });
    await expect(extractor.extract({ chunk: chunk('c', 'text') })).rejects.toMatchObject({ name: 'MosaicApiCallError', attempts: 3 });
    expect(stub.requests).toHaveLength(3);
    await expect(readFile(join(cacheDir, 'openai-extractions.jsonl'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    stub.setResponder(() => ({ json: modelOutput }));
    await expect(extractor.extract({ chunk: chunk('c', 'text') })).resolves.toMatchObject({ entities: expect.any(Array) });
    expect(extractor.stats()).toMatchObject({ failures: 1 });
  });

  it('persistent HTTP 500 → ApiCallError with the status; a 401 is not retried', async () => {
    stub = await startOpenAIStub({ respond: () => ({ status: 500 }) });
    const extractor = createOpenAIExtractor({ ...fast, baseURL: stub.url, maxRetries: 1 });
    await expect(extractor.extract({ chunk: chunk('c', 'text') })).rejects.toMatchObject({
      name: 'MosaicApiCallError',
      statusCode: 500,
      attempts: 2,
    });
    stub.setResponder(() => ({ status: 401 }));
    await expect(extractor.extract({ chunk: chunk('c', 'text') })).rejects.toMatchObject({ statusCode: 401, attempts: 1 });
    expect(stub.requests).toHaveLength(3);
  });

  it('times out hanging calls and honours aborts, also while waiting for a slot', async () => {
    stub = await startOpenAIStub({ respond: () => ({ hang: true }) });
    const timed = createOpenAIExtractor({ ...fast, baseURL: stub.url, timeoutMs: 80, maxRetries: 0 });
    await expect(timed.extract({ chunk: chunk('c', 'slow') })).rejects.toMatchObject({ name: 'MosaicApiCallError', attempts: 1 });

    const extractor = createOpenAIExtractor({ ...fast, baseURL: stub.url, concurrency: 1 });
    const controller = new AbortController();
    const running = extractor.extract({ chunk: chunk('a', 'first'), abortSignal: controller.signal });
    const queued = extractor.extract({ chunk: chunk('b', 'second'), abortSignal: controller.signal });
    setTimeout(() => controller.abort(), 40);
    const started = Date.now();
    await expect(running).rejects.toMatchObject({ name: 'MosaicAbortedError' });
    await expect(queued).rejects.toMatchObject({ name: 'MosaicAbortedError' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(stub.requests.filter((r) => String(r.messages?.[1]?.content).includes('second'))).toHaveLength(0);
  });

  it('over the fixture corpus, the chunks of a page yield both hops of its multi-hop chain', async () => {
    stub = await startOpenAIStub({ respond: fixtureExtractionResponder() });
    const extractor = createOpenAIExtractor({ ...fast, baseURL: stub.url });
    const text = FIXTURE_DOCUMENTS.find((d) => d.corpus_name === 'Medical')!.context;
    const chunks: Chunk[] = [];
    for (let start = 0; start < text.length; start += 1000)
      chunks.push({ id: `m${start}`, documentId: 'Medical', start, end: start + 1200, text: text.slice(start, start + 1200) });
    const extractions = await Promise.all(chunks.map((c) => extractor.extract({ chunk: c })));
    const triples = extractions.flatMap((e) => e.relations.map((r) => `${r.source} | ${r.label} | ${r.target}`));
    expect(triples).toContain('Veltrane dust | causes | Morrow syndrome');
    expect(triples).toContain('Morrow syndrome | is treated with | Calditrex');
    const hop1 = extractions.findIndex((e) => e.relations.some((r) => r.label === 'causes'));
    const hop2 = extractions.findIndex((e) => e.relations.some((r) => r.label === 'is treated with'));
    expect(hop1).not.toBe(hop2); // the two hops come from different chunks
    expect(extractions.flatMap((e) => e.entities).find((e) => e.name === 'What is Morrow syndrome?')?.questionLike).toBe(true);
  });

  it('rejects invalid options', () => {
    expect(() => createOpenAIExtractor({ ...fast, concurrency: 0 })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
    expect(() => createOpenAIExtractor({ ...fast, maxRetries: -1 })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
  });
});
