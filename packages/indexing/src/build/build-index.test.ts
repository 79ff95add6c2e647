import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureDocuments, GARDEN_TEXT } from '../__fixtures__/fixture-documents.js';
import { HashingTestEncoder } from '../__fixtures__/hashing-test-encoder.js';
import { createOfflineExtractor } from '../extraction/offline-extractor.js';
import { addDocuments } from './add-documents.js';
import { buildCorpusIndexes } from './build-corpus-indexes.js';
import { buildIndex } from './build-index.js';
import { INDEX_FILES } from './index-layout.js';
import { loadIndex } from './load-index.js';

const root = await mkdtemp(join(tmpdir(), 'mosaic-build-'));
afterAll(() => rm(root, { recursive: true, force: true }));
const extractor = createOfflineExtractor();
const fixedClock = () => new Date('2026-01-01T00:00:00.000Z');

async function build(name: string, encoder = new HashingTestEncoder(), vectorFactory?: string) {
  const outDir = join(root, name);
  const events: { stage: string; done: number; total: number }[] = [];
  const result = await buildIndex({
    documents: fixtureDocuments(),
    outDir,
    encoder,
    extractor,
    window: { size: 200, stride: 100 },
    chunkSize: 150,
    batchSize: 8,
    now: fixedClock,
    onProgress: (event) => events.push(event),
    ...(vectorFactory ? { vectorFactory } : {}),
  });
  return { outDir, result, events, encoder };
}

describe('buildIndex → loadIndex', () => {
  it('round-trips graph, chunks, windows, faiss indexes, BM25 and window vectors', async () => {
    const { outDir, result, events, encoder } = await build('round-trip');
    const { manifest } = result;
    expect(manifest).toMatchObject({
      formatVersion: 5,
      corpus: 'Fixture',
      encoder: { id: encoder.id, dimension: 64 },
      extractor: extractor.id,
      window: { size: 200, stride: 100 },
      vectorIndex: { factory: 'auto', factories: { entities: 'SQfp16', relations: 'SQfp16', windows: 'SQfp16' } },
      createdAt: '2026-01-01T00:00:00.000Z',
      lexical: true,
    });
    expect(manifest.corpusChecksum).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.counts.documents).toBe(2);
    expect(manifest.counts.entities).toBeGreaterThan(5);
    expect(manifest.counts.relations).toBeGreaterThan(5);
    expect(manifest.peakRssBytes).toBeGreaterThan(10 * 2 ** 20); // the building process holds at least the encoder
    expect(new Set(events.map((e) => e.stage))).toEqual(
      new Set(['read', 'chunk', 'extract', 'merge', 'encode-entities', 'encode-relations', 'encode-windows', 'lexical', 'write']),
    );
    expect((await readdir(root)).filter((f) => f.includes('.tmp-'))).toEqual([]);

    const index = await loadIndex({ dir: outDir, encoder });
    expect(index.graph.nodeCount).toBe(manifest.counts.entities);
    expect(index.graph.edgeCount).toBe(manifest.counts.relations);
    expect(index.entityIds).toHaveLength(index.entityIndex.size);
    expect(index.relationIds).toHaveLength(index.relationIndex.size);
    expect(index.windowIds).toHaveLength(manifest.counts.windows);
    expect(index.chunks.chunkCount).toBe(manifest.counts.chunks);

    // The abbreviation merged into its long form, with provenance back to the text.
    const [bcc] = await index.graph.getNodes(index.entityIds.filter((id) => id.startsWith('e-basal-cell-carcinoma-')));
    expect(bcc.aliases).toContain('BCC');
    const chunk = index.chunks.getChunk(bcc.chunkIds[0])!;
    expect(chunk.text).toMatch(/BCC/);
    const document = index.documents.find((d) => d.id === chunk.documentId)!;
    expect(document.text.slice(chunk.start, chunk.end)).toBe(chunk.text);
    for (const window of index.chunks.windowsOfChunk(chunk.id)) expect(window.text).toBe(document.text.slice(window.start, window.end));

    // A query about Tregeagle finds the novel's windows first, on faiss and on BM25.
    const [query] = await encoder.encode(['Tregeagle Dozmare Pool punishment']);
    const [top] = await index.windowIndex.search(query, 1);
    expect(index.chunks.getWindow(index.windowIds[top.label])!.text).toMatch(/Tregeagle/);
    const [lexicalTop] = index.lexical!.windows!.search('Dozmare Pool', 1);
    expect(index.chunks.getWindow(index.windowIds[lexicalTop.label])!.text).toMatch(/Dozmare/);
    const [relationTop] = await index.relationIndex.search(query, 1);
    const [edge] = await index.graph.getEdges([index.relationIds[relationTop.label]]);
    expect(edge.description).toMatch(/Tregeagle was doomed to empty Dozmare Pool/);
    expect(index.relationIds.length).toBe(manifest.counts.relations);

    // Precomputed window vectors equal a fresh encoding, to float16 precision (stored as SQfp16).
    const window = index.chunks.getWindow(index.windowIds[0])!;
    const [fresh] = await encoder.encode([window.text]);
    const stored = index.windowVector!(window.id)!;
    expect(stored).toHaveLength(fresh.length);
    for (let i = 0; i < fresh.length; i += 1) expect(Math.abs(stored[i] - fresh[i])).toBeLessThanOrEqual(Math.abs(fresh[i]) * 2 ** -11 + 2 ** -24);
    expect(index.windowVector!('nope')).toBeUndefined();

    // Stored entity and relation vectors are the rows their indexes hold: searching with one finds itself.
    const entityId = index.entityIds[3];
    const [selfHit] = await index.entityIndex.search(index.entityVector!(entityId)!, 1);
    expect(selfHit.score).toBeCloseTo(1, 2); // float16: |v|² within 2 × 2⁻¹¹
    const relationId = index.relationIds[1];
    const [relationSelf] = await index.relationIndex.search(index.relationVector!(relationId)!, 1);
    expect(relationSelf.score).toBeCloseTo(1, 2);
    expect(index.entityVector!('nope')).toBeUndefined();
    expect(index.relationVector!('nope')).toBeUndefined();
  });

  it("decodes an HNSW file's float16 rows into the caller's array when it has the dimension (the same values), else into a new one", async () => {
    const { outDir, encoder } = await build('hnsw-rows', new HashingTestEncoder(), 'HNSW16_SQfp16');
    const index = await loadIndex({ dir: outDir, encoder });
    const out = new Float32Array(index.relationIndex.dimension);
    const [first, second] = index.relationIds;
    const own = [index.relationVector!(first)!, index.relationVector!(second)!];
    expect(own[0]).not.toBe(own[1]);
    expect(index.relationVector!(first, out)).toBe(out);
    expect([...out]).toEqual([...own[0]]);
    expect(index.relationVector!(second, out)).toBe(out);
    expect([...out]).toEqual([...own[1]]);
    expect([...own[0]]).not.toEqual([...own[1]]);
    const [self] = await index.relationIndex.search(out, 1);
    expect(index.relationIds[self.label]).toBe(second);
    // By position: the vector its id finds, decoded into `out` alike; a label out of range has none.
    for (let k = 0; k < index.relationIds.length; k += 1) expect([...index.relationVectorAt!(k)!]).toEqual([...index.relationVector!(index.relationIds[k])!]);
    for (let k = 0; k < index.entityIds.length; k += 1) expect([...index.entityVectorAt!(k)!]).toEqual([...index.entityVector!(index.entityIds[k])!]);
    expect(index.relationVectorAt!(1, out)).toBe(out);
    expect([...out]).toEqual([...own[1]]);
    for (const label of [-1, index.relationIds.length, 0.5, Number.NaN]) expect(index.relationVectorAt!(label)).toBeUndefined();
    const short = new Float32Array(3);
    const entity = index.entityVector!(index.entityIds[0], short)!;
    expect(entity).not.toBe(short);
    expect(entity).toHaveLength(index.entityIndex.dimension);
    expect([...short]).toEqual([0, 0, 0]);
  });

  it('loads the same index whatever the manifest names the vector factories (a faiss file is told by its header)', async () => {
    const questions = ['Who tends the roses?', 'What grows by the wall?'];
    for (const [name, factory, claimed] of [
      ['named-flat', undefined, 'HNSW16_SQfp16'],
      ['named-hnsw', 'HNSW16_SQfp16', 'SQfp16'],
    ] as const) {
      const { outDir, encoder } = await build(name, new HashingTestEncoder(), factory);
      const manifestPath = join(outDir, 'manifest.json');
      const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
      const right = await loadIndex({ dir: outDir, encoder });
      await writeFile(
        manifestPath,
        JSON.stringify({ ...manifest, vectorIndex: { ...manifest.vectorIndex, factories: { entities: claimed, relations: claimed, windows: claimed } } }),
      );
      const wrong = await loadIndex({ dir: outDir, encoder });
      for (const question of questions) {
        const [vector] = await encoder.encode([question]);
        for (const kind of ['entityIndex', 'relationIndex', 'windowIndex'] as const) {
          expect(wrong[kind].size).toBe(right[kind].size);
          expect(await wrong[kind].search(vector, 5)).toEqual(await right[kind].search(vector, 5));
        }
      }
    }
  });

  it('is deterministic: same input, same graph and ids', async () => {
    const a = await build('det-a');
    const b = await build('det-b');
    expect(await readFile(join(a.outDir, INDEX_FILES.graph), 'utf8')).toBe(await readFile(join(b.outDir, INDEX_FILES.graph), 'utf8'));
    expect(await readFile(join(a.outDir, INDEX_FILES.vectors('relations', 'json')), 'utf8')).toBe(
      await readFile(join(b.outDir, INDEX_FILES.vectors('relations', 'json')), 'utf8'),
    );
  });
});

describe('buildIndex inputs', () => {
  it('indexes a folder of .txt/.md files and refuses bad input with InputError', async () => {
    const folder = join(root, 'garden-notes');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'roses.md'), GARDEN_TEXT);
    await writeFile(join(folder, 'tomatoes.txt'), 'Tomatoes need full sun.');
    const encoder = new HashingTestEncoder();
    const { manifest } = await buildIndex({ corpusPath: folder, outDir: join(root, 'garden-index'), encoder, extractor });
    expect(manifest).toMatchObject({ corpus: 'garden-notes', counts: { documents: 2 } });
    await expect(buildIndex({ corpusPath: join(root, 'missing.json'), outDir: join(root, 'x'), encoder, extractor })).rejects.toMatchObject({
      name: 'MosaicInputError',
    });
    await expect(buildIndex({ documents: [], outDir: join(root, 'x'), encoder, extractor })).rejects.toMatchObject({ name: 'MosaicInputError' });
  });
});

describe('loadIndex refusals', () => {
  it('refuses another encoder id, another dimension, an unexpected encoder id, unknown formatVersion and missing files', async () => {
    const { outDir, encoder } = await build('refusals');
    const refuse = (promise: Promise<unknown>, field: string) => expect(promise).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field });
    await refuse(loadIndex({ dir: outDir, encoder: new HashingTestEncoder({ id: 'other', dimension: 64 }) }), 'encoder.id');
    await refuse(loadIndex({ dir: outDir, encoder: new HashingTestEncoder({ id: encoder.id, dimension: 32 }) }), 'encoder.dimension');
    await refuse(loadIndex({ dir: outDir, encoder, expectedEncoderId: 'onnx:bge-large-en-v1.5' }), 'encoder.id');
    await expect(loadIndex({ dir: outDir, encoder: new HashingTestEncoder({ id: 'other' }) })).rejects.toMatchObject({
      expected: 'other',
      actual: encoder.id,
      path: outDir,
    });

    const manifestPath = join(outDir, INDEX_FILES.manifest);
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
    await writeFile(manifestPath, JSON.stringify({ ...manifest, formatVersion: 99 }));
    await refuse(loadIndex({ dir: outDir, encoder }), 'formatVersion');
    await writeFile(manifestPath, JSON.stringify(manifest));
    await rm(join(outDir, INDEX_FILES.vectors('windows', 'faiss')));
    await refuse(loadIndex({ dir: outDir, encoder }), 'files.vectors/windows.faiss');
    await refuse(loadIndex({ dir: join(root, 'never-built'), encoder }), 'manifest');
  });
});

describe('atomic builds', () => {
  it('leaves no loadable index when aborted mid-build, and keeps a pre-existing index untouched', async () => {
    const encoder = new HashingTestEncoder();
    const outDir = join(root, 'atomic');
    const controller = new AbortController();
    const aborted = buildIndex({
      documents: fixtureDocuments(),
      outDir,
      encoder,
      extractor,
      window: { size: 200, stride: 100 },
      batchSize: 4,
      abortSignal: controller.signal,
      onProgress: ({ stage, done }) => {
        if (stage === 'encode-relations' && done > 0) controller.abort();
      },
    });
    await expect(aborted).rejects.toMatchObject({ name: 'MosaicAbortedError' });
    await expect(loadIndex({ dir: outDir, encoder })).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field: 'manifest' });
    expect((await readdir(root)).filter((f) => f.startsWith('atomic'))).toEqual([]);

    // Now with an index in place: a failing rebuild must not touch it.
    const first = await buildIndex({ documents: fixtureDocuments(), outDir, encoder, extractor, now: fixedClock });
    const before = await readFile(join(outDir, INDEX_FILES.manifest), 'utf8');
    const again = new AbortController();
    await expect(
      buildIndex({
        documents: [{ id: 'garden', corpus: 'Fixture', text: GARDEN_TEXT }],
        outDir,
        encoder,
        extractor,
        abortSignal: again.signal,
        onProgress: ({ stage }) => {
          if (stage === 'write') again.abort();
        },
      }),
    ).rejects.toMatchObject({ name: 'MosaicAbortedError' });
    expect(await readFile(join(outDir, INDEX_FILES.manifest), 'utf8')).toBe(before);
    const index = await loadIndex({ dir: outDir, encoder });
    expect(index.manifest.counts).toEqual(first.manifest.counts);
    expect((await readdir(root)).filter((f) => f.startsWith('atomic'))).toEqual(['atomic']);

    // A complete rebuild replaces it.
    await buildIndex({ documents: [{ id: 'garden', corpus: 'Fixture', text: GARDEN_TEXT }], outDir, encoder, extractor });
    expect((await loadIndex({ dir: outDir, encoder })).manifest.counts.documents).toBe(1);
    expect((await readdir(root)).filter((f) => f.startsWith('atomic'))).toEqual(['atomic']);
  });
});

describe('addDocuments', () => {
  it('extracts and encodes only the new documents, reuses unchanged vectors and appends windows', async () => {
    const encoder = new HashingTestEncoder();
    const outDir = join(root, 'incremental');
    const extracted: string[] = [];
    const countingExtractor = {
      specificationVersion: 'v1' as const,
      id: extractor.id,
      extract: async (options: Parameters<typeof extractor.extract>[0]) => {
        extracted.push(options.chunk.documentId);
        return extractor.extract(options);
      },
    };
    const base = await buildIndex({ documents: fixtureDocuments(), outDir, encoder, extractor: countingExtractor, window: { size: 200, stride: 100 } });
    const oldIndex = await loadIndex({ dir: outDir, encoder });
    const oldWindowIds = [...oldIndex.windowIds];
    extracted.length = 0;
    encoder.encodedTexts.length = 0;

    const result = await addDocuments({
      dir: outDir,
      documents: [{ id: 'garden', corpus: 'whatever', text: GARDEN_TEXT }],
      encoder,
      extractor: countingExtractor,
    });
    expect(new Set(extracted)).toEqual(new Set(['garden']));
    expect(result.trace.extractedChunks).toBe(extracted.length);
    // No old window text was encoded again; every new window was.
    const index = await loadIndex({ dir: outDir, encoder });
    const newWindows = index.windowIds.slice(oldWindowIds.length).map((id) => index.chunks.getWindow(id)!);
    expect(index.windowIds.slice(0, oldWindowIds.length)).toEqual(oldWindowIds);
    expect(newWindows.every((w) => w.documentId === 'garden')).toBe(true);
    expect(result.trace.vectors.windows).toMatchObject({ encoded: newWindows.length, reused: oldWindowIds.length, appended: true });
    for (const window of oldIndex.windowIds.map((id) => oldIndex.chunks.getWindow(id)!)) expect(encoder.encodedTexts).not.toContain(window.text);
    // Entities/relations: only new or changed texts were encoded.
    expect(result.trace.vectors.entities.reused).toBeGreaterThan(0);
    expect(result.trace.vectors.entities.encoded).toBeLessThan(index.entityIds.length);
    expect(result.trace.vectors.relations.reused).toBeGreaterThan(0);
    expect(encoder.encodedTexts.length).toBe(
      result.trace.vectors.entities.encoded + result.trace.vectors.relations.encoded + result.trace.vectors.windows.encoded,
    );
    expect(index.manifest.counts.documents).toBe(3);
    expect(index.manifest.counts.entities).toBeGreaterThan(base.manifest.counts.entities);
    expect(index.documents.find((d) => d.id === 'garden')!.corpus).toBe('Fixture');
    // The new facts are searchable.
    const [query] = await encoder.encode(['Ladybirds eat aphids']);
    const [hit] = await index.relationIndex.search(query, 1);
    expect((await index.graph.getEdges([index.relationIds[hit.label]]))[0].description).toMatch(/Ladybirds/);

    // The same as building everything at once (graph-wise).
    const full = await buildIndex({
      documents: [...fixtureDocuments(), { id: 'garden', corpus: 'Fixture', text: GARDEN_TEXT }],
      outDir: join(root, 'incremental-full'),
      encoder,
      extractor,
      window: { size: 200, stride: 100 },
    });
    expect(full.manifest.counts).toEqual(index.manifest.counts);
    // The sentence tokens cover the added document's sentences: the file is the full build's.
    const gardenSpans = (await index.graph.getEdges([...index.relationIds]))
      .flatMap((edge) => edge.spans ?? [])
      .filter((span) => index.chunks.getChunk(span.chunkId)?.documentId === 'garden');
    expect(gardenSpans.length).toBeGreaterThan(0);
    for (const span of gardenSpans) expect(index.chunks.sentenceTokens!.sentence(span.chunkId, span.start, span.end)).toBeGreaterThanOrEqual(0);
    expect(await readFile(join(outDir, INDEX_FILES.sentences))).toEqual(await readFile(join(root, 'incremental-full', INDEX_FILES.sentences)));
  });

  it('refuses known document ids, another extractor and another encoder', async () => {
    const encoder = new HashingTestEncoder();
    const outDir = join(root, 'incremental-refusals');
    await buildIndex({ documents: fixtureDocuments(), outDir, encoder, extractor });
    const documents = [{ id: 'medical', corpus: 'Fixture', text: 'Again.' }];
    await expect(addDocuments({ dir: outDir, documents, encoder, extractor })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
    const other = { specificationVersion: 'v1' as const, id: 'other', extract: extractor.extract.bind(extractor) };
    await expect(addDocuments({ dir: outDir, documents: [{ id: 'x', corpus: 'F', text: 'New text here.' }], encoder, extractor: other })).rejects.toMatchObject(
      {
        name: 'MosaicIndexMismatchError',
        field: 'extractor',
      },
    );
    await expect(
      addDocuments({ dir: outDir, documents: [{ id: 'x', corpus: 'F', text: 'New text here.' }], encoder: new HashingTestEncoder({ id: 'e2' }), extractor }),
    ).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field: 'encoder.id' });
  });
});

describe('buildCorpusIndexes', () => {
  it('builds one index per corpus_name under <outDir>/<slug>', async () => {
    const corpusPath = join(root, 'bench.json');
    await writeFile(
      corpusPath,
      JSON.stringify([
        { corpus_name: 'Novel-1', context: fixtureDocuments()[1].text },
        { corpus_name: 'Medical', context: fixtureDocuments()[0].text },
        { corpus_name: 'Novel-1', context: GARDEN_TEXT },
      ]),
    );
    const encoder = new HashingTestEncoder();
    const seen: string[] = [];
    const { indexes } = await buildCorpusIndexes({ corpusPath, outDir: join(root, 'multi'), encoder, extractor, onCorpus: ({ corpus }) => seen.push(corpus) });
    expect(seen).toEqual(['Novel-1', 'Medical']);
    expect(indexes.map((i) => i.dir)).toEqual([join(root, 'multi', 'novel-1'), join(root, 'multi', 'medical')]);
    const novel = await loadIndex({ dir: join(root, 'multi', 'novel-1'), encoder });
    expect(novel.manifest).toMatchObject({ corpus: 'Novel-1', counts: { documents: 2 } });
    await expect(buildCorpusIndexes({ corpusPath, outDir: join(root, 'multi2'), encoder, extractor, corpora: ['Nope'] })).rejects.toMatchObject({
      name: 'MosaicInputError',
    });
    await expect(buildIndex({ corpusPath, outDir: join(root, 'single'), encoder, extractor })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
    const medical = await buildIndex({ corpusPath, corpus: 'Medical', outDir: join(root, 'single'), encoder, extractor });
    expect(medical.manifest.corpus).toBe('Medical');
  });
});
