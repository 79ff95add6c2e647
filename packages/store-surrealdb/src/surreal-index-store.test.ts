import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDocuments, addDocumentsInto, buildIndex, buildIndexInto, createOfflineExtractor, loadIndex } from '@mosaic/indexing';
import type { AbortOptions, CorpusIndex, Encoder, SourceDocument } from '@mosaic/spec';
import { FIXTURE_DOCUMENTS, hashEmbedding } from '@mosaic/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFixtureIndex } from './__fixtures__/fixture-hand-index.js';
import { connectSurreal, type SurrealConnection } from './surreal-connection.js';
import { loadSurrealIndex, writeIndexToSurreal, type SurrealCorpusIndex } from './surreal-index.js';
import { createSurrealIndexStore } from './surreal-index-store.js';

const root = await mkdtemp(join(tmpdir(), 'mosaic-surreal-store-'));
const connections: SurrealConnection[] = [];
afterAll(async () => {
  for (const connection of connections) await connection.close();
  await rm(root, { recursive: true, force: true });
});
async function memory(database: string): Promise<SurrealConnection> {
  const connection = await connectSurreal({ url: 'mem://', database });
  connections.push(connection);
  return connection;
}

/** Deterministic bag-of-words encoder that records what it encodes. */
function countingEncoder(): Encoder & { encodedTexts: string[] } {
  const encodedTexts: string[] = [];
  return {
    specificationVersion: 'v1',
    id: 'test:hash-64',
    dimension: 64,
    encodedTexts,
    async encode(texts: readonly string[], options?: AbortOptions) {
      options?.abortSignal?.throwIfAborted();
      encodedTexts.push(...texts);
      return texts.map((text) => Float32Array.from(hashEmbedding(text, 64)));
    },
  };
}

// The fixture corpus of @mosaic/testing as one corpus: two documents built, the third added.
const documents: SourceDocument[] = FIXTURE_DOCUMENTS.map((d) => ({ id: d.corpus_name.toLowerCase(), corpus: 'Fixture', text: d.context }));
const base = documents.slice(0, 2);
const added = documents.slice(2);
const extractor = createOfflineExtractor();
const settings = { window: { size: 600, stride: 300 }, chunkSize: 300, batchSize: 16, now: () => new Date('2026-01-01T00:00:00.000Z') };

const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

/** Everything retrieval reads from an index, as plain data (graph, windows, chunks, vectors, BM25 state). */
async function contentOf(index: CorpusIndex & { entityVector?(id: string): Float32Array | undefined; relationVector?(id: string): Float32Array | undefined }) {
  const vector = (get: ((id: string) => Float32Array | undefined) | undefined, id: string) => Array.from(get?.(id) ?? []);
  const windows = index.windowIds.map((id) => index.chunks.getWindow(id));
  const chunkIds = [...new Set(windows.flatMap((w) => w?.chunkIds ?? []))];
  return plain({
    counts: index.manifest.counts,
    corpusChecksum: index.manifest.corpusChecksum,
    entityIds: index.entityIds,
    relationIds: index.relationIds,
    windowIds: index.windowIds,
    nodes: await index.graph.getNodes(index.entityIds),
    edges: await index.graph.getEdges(index.relationIds),
    windows,
    chunks: chunkIds.map((id) => index.chunks.getChunk(id)),
    entityVectors: index.entityIds.map((id) => vector(index.entityVector?.bind(index), id)),
    relationVectors: index.relationIds.map((id) => vector(index.relationVector?.bind(index), id)),
    windowVectors: index.windowIds.map((id) => vector(index.windowVector?.bind(index), id)),
    lexical: Object.fromEntries(Object.entries(index.lexical ?? {}).map(([kind, lexical]) => [kind, (lexical as unknown as { toJSON(): unknown }).toJSON()])),
  });
}

async function tablesOf(connection: SurrealConnection): Promise<string[]> {
  const [info] = await connection.query<[{ tables: Record<string, unknown> }]>('INFO FOR DB;');
  return Object.keys(info.tables).sort();
}

async function loadFromSurreal(connection: SurrealConnection, encoder: Encoder): Promise<SurrealCorpusIndex> {
  return loadSurrealIndex({ connection, encoder, cacheVectors: true });
}

describe('createSurrealIndexStore: build and add straight into SurrealDB', () => {
  it('buildIndexInto writes the same index as the directory build, without an index directory', async () => {
    const encoder = countingEncoder();
    const connection = await memory('build');
    const store = createSurrealIndexStore({ connection, batchSize: 16 });
    const built = await buildIndexInto({ documents: base, store, encoder, extractor, ...settings });
    expect(built.location).toBe('mem://#mosaic/build');
    const dir = join(root, 'build');
    // 'Flat' keeps the directory's vectors in float32, as SurrealDB keeps them ('auto' stores float16 files).
    await buildIndex({ documents: base, outDir: dir, encoder, extractor, ...settings, vectorFactory: 'Flat' });
    const directory = await loadIndex({ dir, encoder });
    const surreal = await loadFromSurreal(connection, encoder);
    expect(surreal.record).toMatchObject({ formatVersion: 2, generation: 0, counts: { extractions: directory.manifest.counts.chunks } });
    expect(surreal.manifest).toMatchObject({ chunking: { chunkSize: 300 }, lexical: true, extractor: extractor.id });
    const content = await contentOf(surreal);
    expect(content.nodes.length).toBeGreaterThan(10);
    expect(content.edges.length).toBeGreaterThan(10);
    expect(content.windows.length).toBeGreaterThan(2);
    expect(content.entityVectors.every((v: number[]) => v.length === 64)).toBe(true);
    expect(Object.keys(content.lexical)).toEqual(['entities', 'relations', 'windows']);
    expect(content).toEqual(await contentOf(directory));
  });

  it('keeps document outlines: the loaded chunk store answers documentOutline, after an addition too', async () => {
    const encoder = countingEncoder();
    const connection = await memory('outlines');
    const store = createSurrealIndexStore({ connection, batchSize: 16 });
    const outline = (title: string) => ({
      title,
      format: 'markdown' as const,
      sections: [{ path: [title], start: 0, end: 10 }],
      lines: [[0, 3]] as Array<[number, number]>,
    });
    await buildIndexInto({ documents: base.map((d) => ({ ...d, outline: outline(d.id) })), store, encoder, extractor, ...settings });
    await addDocumentsInto({ store, documents: added.map((d) => ({ ...d, outline: outline(d.id) })), encoder, extractor, batchSize: 16, now: settings.now });
    const surreal = await loadFromSurreal(connection, encoder);
    for (const document of documents) expect(surreal.chunks.documentOutline?.(document.id)).toEqual(outline(document.id));
    expect(surreal.chunks.documentOutline?.('nope')).toBeUndefined();
  });

  it('addDocumentsInto over SurrealDB gives the same graph, windows and vectors as addDocuments over the directory', async () => {
    const encoder = countingEncoder();
    const connection = await memory('add');
    const store = createSurrealIndexStore({ connection, batchSize: 16 });
    await buildIndexInto({ documents: base, store, encoder, extractor, ...settings });
    const dir = join(root, 'add');
    // 'Flat' keeps the directory's vectors in float32, as SurrealDB keeps them ('auto' stores float16 files).
    await buildIndex({ documents: base, outDir: dir, encoder, extractor, ...settings, vectorFactory: 'Flat' });

    encoder.encodedTexts.length = 0;
    const result = await addDocumentsInto({ store, documents: added, encoder, extractor, batchSize: 16, now: settings.now });
    const surrealEncoded = [...encoder.encodedTexts];
    encoder.encodedTexts.length = 0;
    const fromDirectory = await addDocuments({ dir, documents: added, encoder, extractor, batchSize: 16, now: settings.now });
    // Only the new documents' chunks were extracted; unchanged entity/relation/window texts reused their vectors.
    expect(result.trace.extractedChunks).toBe(fromDirectory.trace.extractedChunks);
    expect(result.trace.vectors.windows.reused).toBe(fromDirectory.trace.vectors.windows.reused);
    expect(result.trace.vectors.entities.reused).toBeGreaterThan(0);
    expect(result.trace.vectors.relations.reused).toBeGreaterThan(0);
    expect(surrealEncoded.sort()).toEqual([...encoder.encodedTexts].sort());

    const surreal = await loadFromSurreal(connection, encoder);
    const loaded = await loadIndex({ dir, encoder });
    expect(surreal.record.generation).toBe(1);
    expect(await contentOf(surreal)).toEqual(await contentOf(loaded));
    // The previous generation's tables are gone; the new ones carry the suffix.
    const tables = await tablesOf(connection);
    expect(tables).toContain('entity_g1');
    expect(tables).toContain('adjacency_g1');
    expect(tables).not.toContain('entity');
    expect(tables).not.toContain('adjacency');
    expect(tables).not.toContain('window_vector');

    // A second addition: generation 2, and still the same as the directory.
    const more: SourceDocument[] = [{ id: 'extra', corpus: 'x', text: 'Calditrex is made by Lorvane Labs. Lorvane Labs is based in Kestrel City.' }];
    await addDocumentsInto({ store, documents: more, encoder, extractor, batchSize: 16, now: settings.now });
    await addDocuments({ dir, documents: more, encoder, extractor, batchSize: 16, now: settings.now });
    const again = await loadFromSurreal(connection, encoder);
    expect(again.record.generation).toBe(2);
    expect(await contentOf(again)).toEqual(await contentOf(await loadIndex({ dir, encoder })));
    expect((await tablesOf(connection)).filter((t) => t.startsWith('entity'))).toEqual(['entity_g2', 'entity_read_g2', 'entity_vector_g2']);
  });

  it('an addition aborted half-way leaves the previous index loadable with identical content, and removes its own tables', async () => {
    const encoder = countingEncoder();
    const connection = await memory('abort');
    const store = createSurrealIndexStore({ connection, batchSize: 4 });
    await buildIndexInto({ documents: base, store, encoder, extractor, ...settings });
    const before = await contentOf(await loadFromSurreal(connection, encoder));
    const tablesBefore = await tablesOf(connection);

    const controller = new AbortController();
    const phases: number[] = [];
    await expect(
      addDocumentsInto({
        store,
        documents: added,
        encoder,
        extractor,
        abortSignal: controller.signal,
        onProgress: (event) => {
          if (event.stage !== 'write') return;
          phases.push(event.done);
          // Graph and texts of the new generation are written: stop in the middle of the vectors.
          if (event.done === 3) controller.abort();
        },
      }),
    ).rejects.toMatchObject({ name: 'MosaicAbortedError' });
    expect(phases).toEqual([0, 1, 2, 3]);
    const after = await loadFromSurreal(connection, encoder);
    expect(after.record.generation).toBe(0);
    expect(await contentOf(after)).toEqual(before);
    expect(await tablesOf(connection)).toEqual(tablesBefore);

    // The same addition, not aborted, then succeeds.
    await addDocumentsInto({ store, documents: added, encoder, extractor, batchSize: 16 });
    expect((await loadFromSurreal(connection, encoder)).record.counts.documents).toBe(3);
  });

  it('removes tables left by a writer that died before switching, and refuses to switch when the index changed meanwhile', async () => {
    const encoder = countingEncoder();
    const connection = await memory('stray');
    const store = createSurrealIndexStore({ connection });
    await buildIndexInto({ documents: base, store, encoder, extractor, ...settings });
    await connection.query('DEFINE TABLE entity_g7 SCHEMALESS; CREATE entity_g7:x SET name = "left over"; DEFINE TABLE chunk_g1 SCHEMALESS;');
    const result = await addDocumentsInto({ store, documents: added, encoder, extractor });
    expect(result.location).toBe('mem://#mosaic/stray');
    const tables = await tablesOf(connection);
    expect(tables).not.toContain('entity_g7');
    expect(tables).toContain('chunk_g1'); // the new generation's own table

    // Another writer switches the index between this addition's read and its switch.
    const racing = createSurrealIndexStore({ connection });
    const other = createSurrealIndexStore({ connection });
    const interfering = {
      location: racing.location,
      read: racing.read,
      async write(options: Parameters<typeof racing.write>[0]) {
        await addDocumentsInto({
          store: other,
          documents: [{ id: 'racer', corpus: 'x', text: 'Veltrane dust is mined in Kestrel City.' }],
          encoder,
          extractor,
        });
        return racing.write(options);
      },
    };
    await expect(
      addDocumentsInto({ store: interfering, documents: [{ id: 'late', corpus: 'x', text: 'Morrow syndrome is rare.' }], encoder, extractor }),
    ).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field: 'generation' });
    const current = await loadFromSurreal(connection, encoder);
    expect(current.documents.map((d) => d.id)).toContain('racer');
    expect(current.documents.map((d) => d.id)).not.toContain('late');
  });

  it('refuses an addition to an index written without extractions, another encoder, or no index', async () => {
    const hand = await buildFixtureIndex();
    const connection = await memory('no_extractions');
    await writeIndexToSurreal({ connection, index: hand, texts: { entities: hand.entityTexts, relations: hand.relationTexts } });
    const store = createSurrealIndexStore({ connection });
    await expect(addDocumentsInto({ store, documents: added, encoder: hand.encoder, extractor })).rejects.toMatchObject({
      name: 'MosaicIndexMismatchError',
      field: 'extractions',
    });
    await expect(addDocumentsInto({ store, documents: added, encoder: countingEncoder(), extractor })).rejects.toMatchObject({
      name: 'MosaicIndexMismatchError',
      field: 'encoder.id',
    });
    const empty = createSurrealIndexStore({ connection: await memory('nothing') });
    await expect(addDocumentsInto({ store: empty, documents: added, encoder: countingEncoder(), extractor })).rejects.toMatchObject({
      name: 'MosaicIndexMismatchError',
      field: 'manifest',
    });
    // A build over an existing index needs replace, and is refused before anything is extracted.
    let extracted = 0;
    const counting = {
      ...extractor,
      id: extractor.id,
      extract: (options: Parameters<typeof extractor.extract>[0]) => {
        extracted += 1;
        return extractor.extract(options);
      },
    };
    await expect(buildIndexInto({ documents: base, store, encoder: hand.encoder, extractor: counting })).rejects.toMatchObject({
      name: 'MosaicInvalidArgumentError',
      argument: 'replace',
    });
    expect(extracted).toBe(0);
  });
});
