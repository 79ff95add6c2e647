import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { IndexMismatchError } from '@mosaic/spec';
import { createFaissVectorIndex, loadFaissVectorIndex, readFaissStoredVectors } from '@mosaic/vector-index';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureDocuments, GARDEN_TEXT } from '../__fixtures__/fixture-documents.js';
import { HashingTestEncoder } from '../__fixtures__/hashing-test-encoder.js';
import { createOfflineExtractor } from '../extraction/offline-extractor.js';
import { addDocuments, addDocumentsInto } from './add-documents.js';
import { buildIndex, buildIndexInto } from './build-index.js';
import { createDirectoryIndexStore } from './directory-index-store.js';
import type { BuiltIndexManifest, IndexContents } from './compose-index.js';
import type { IndexStore, StoredIndexContents } from './index-store.js';
import { loadIndex } from './load-index.js';

const root = await mkdtemp(join(tmpdir(), 'mosaic-store-'));
afterAll(() => rm(root, { recursive: true, force: true }));
const extractor = createOfflineExtractor();
const settings = { window: { size: 200, stride: 100 }, chunkSize: 150, batchSize: 8 };

/** An IndexStore keeping the last written contents in memory (what any store receives). */
function memoryStore(): IndexStore & { contents?: IndexContents; writes: number } {
  const store: IndexStore & { contents?: IndexContents; writes: number } = {
    location: 'memory',
    writes: 0,
    async read({ encoder }): Promise<StoredIndexContents> {
      const contents = store.contents;
      if (!contents) throw new IndexMismatchError({ path: 'memory', field: 'manifest', expected: 'present', actual: 'missing' });
      if (contents.manifest.encoder.id !== encoder.id) {
        throw new IndexMismatchError({ path: 'memory', field: 'encoder.id', expected: encoder.id, actual: contents.manifest.encoder.id });
      }
      return {
        manifest: contents.manifest,
        documents: [...contents.documents],
        chunks: [...contents.chunks],
        windows: [...contents.windows],
        extractions: [...contents.extractions],
        vectors: contents.vectors,
      };
    },
    async write({ contents, abortSignal }) {
      abortSignal?.throwIfAborted();
      store.contents = contents;
      store.writes += 1;
      return { location: 'memory', manifest: contents.manifest as BuiltIndexManifest };
    },
  };
  return store;
}

describe('buildIndexInto / addDocumentsInto (any IndexStore)', () => {
  it('hands a store the same index the directory store writes, and adds to it the same way', async () => {
    const encoder = new HashingTestEncoder();
    const store = memoryStore();
    const built = await buildIndexInto({ documents: fixtureDocuments(), store, encoder, extractor, ...settings });
    expect(built.location).toBe('memory');
    const contents = store.contents!;
    expect(contents.graph!.order).toBe(built.manifest.counts.entities);
    expect(contents.vectors.entities.ids).toHaveLength(built.manifest.counts.entities);
    expect(contents.vectors.windows.textHashes).toHaveLength(contents.windows.length);
    expect(Object.keys(contents.lexical ?? {})).toEqual(['entities', 'relations', 'windows']);

    const dir = join(root, 'same');
    await buildIndex({ documents: fixtureDocuments(), outDir: dir, encoder, extractor, ...settings });
    const loaded = await loadIndex({ dir, encoder });
    expect(loaded.entityIds).toEqual(contents.vectors.entities.ids);
    expect(loaded.windowIds).toEqual(contents.vectors.windows.ids);
    expect(loaded.manifest.counts).toEqual(contents.manifest.counts);

    encoder.encodedTexts.length = 0;
    const documents = [{ id: 'garden', corpus: 'x', text: GARDEN_TEXT }];
    const added = await addDocumentsInto({ store, documents, encoder, extractor, batchSize: 8 });
    const addedToDir = await addDocuments({ dir, documents, encoder: new HashingTestEncoder(), extractor, batchSize: 8 });
    expect(added.manifest.counts).toEqual(addedToDir.manifest.counts);
    expect(added.manifest.corpusChecksum).toBe(addedToDir.manifest.corpusChecksum);
    expect(added.trace.vectors.windows).toMatchObject({ reused: contents.windows.length, appended: false });
    expect(addedToDir.trace.vectors.windows.appended).toBe(true);
    const after = await loadIndex({ dir, encoder });
    expect(store.contents!.vectors.relations.ids).toEqual(after.relationIds);
    // The directory stores float16 (SQfp16), the in-memory store the encoder's float32: equal to float16 precision.
    after.relationIds.forEach((id, row) => {
      const kept = store.contents!.vectors.relations.vectors[row];
      const stored = after.relationVector!(id)!;
      for (let i = 0; i < kept.length; i += 1) expect(Math.abs(stored[i] - kept[i])).toBeLessThanOrEqual(Math.abs(kept[i]) * 2 ** -11 + 2 ** -24);
    });
    expect(store.writes).toBe(2);
  });

  it('an abort before the store writes leaves the stored index alone', async () => {
    const encoder = new HashingTestEncoder();
    const store = memoryStore();
    await buildIndexInto({ documents: fixtureDocuments(), store, encoder, extractor, ...settings });
    const controller = new AbortController();
    await expect(
      addDocumentsInto({
        store,
        documents: [{ id: 'garden', corpus: 'x', text: GARDEN_TEXT }],
        encoder,
        extractor,
        abortSignal: controller.signal,
        onProgress: (event) => {
          if (event.stage === 'encode-relations') controller.abort();
        },
      }),
    ).rejects.toMatchObject({ name: 'MosaicAbortedError' });
    expect(store.writes).toBe(1);
  });

  it('writes the same files whether the directory store takes the graph and each kind during the build (writeGraph, writeKind, BM25 in workers) or all at the end (BM25 on this thread)', async () => {
    const kinds: string[] = [];
    const graphsAtWrite: boolean[] = [];
    const withKinds = createDirectoryIndexStore({ dir: join(root, 'kinds') });
    const spied: IndexStore = {
      ...withKinds,
      writeGraph: async (options) => {
        kinds.push('graph');
        expect(options.graph.order).toBeGreaterThan(0);
        return withKinds.writeGraph!(options);
      },
      writeKind: async (options) => {
        kinds.push(options.kind);
        expect(options.table.vectors).toHaveLength(options.table.ids.length);
        return withKinds.writeKind!(options);
      },
      write: async (options) => {
        graphsAtWrite.push(options.contents.graph !== undefined);
        return withKinds.write(options);
      },
    };
    const atEnd: IndexStore = { ...createDirectoryIndexStore({ dir: join(root, 'at-end') }), writeKind: undefined, writeGraph: undefined };
    const built = await buildIndexInto({ documents: fixtureDocuments(), store: spied, encoder: new HashingTestEncoder(), extractor, ...settings });
    const reference = await buildIndexInto({
      documents: fixtureDocuments(),
      store: atEnd,
      encoder: new HashingTestEncoder(),
      extractor,
      ...settings,
      lexicalWorkers: 0,
    });
    // The graph first, before any vector is encoded; then it is not held until the write.
    expect(kinds).toEqual(['graph', 'entities', 'relations', 'windows']);
    expect(graphsAtWrite).toEqual([false]);
    const digests = (manifest: BuiltIndexManifest) => (manifest as unknown as { digests: Record<string, string> }).digests;
    expect(Object.keys(digests(built.manifest))).toHaveLength(15);
    expect(digests(built.manifest)).toEqual(digests(reference.manifest));
    expect(built.manifest.vectorIndex).toEqual(reference.manifest.vectorIndex);

    // An addition appends to the previous faiss files in both ways.
    const documents = [{ id: 'garden', corpus: 'x', text: GARDEN_TEXT }];
    const added = await addDocumentsInto({ store: spied, documents, encoder: new HashingTestEncoder(), extractor, batchSize: 8 });
    const addedAtEnd = await addDocumentsInto({ store: atEnd, documents, encoder: new HashingTestEncoder(), extractor, batchSize: 8 });
    expect(added.trace.vectors.windows.appended).toBe(true);
    expect(addedAtEnd.trace.vectors.windows.appended).toBe(true);
    expect(digests(added.manifest)).toEqual(digests(addedAtEnd.manifest));
    expect(graphsAtWrite).toEqual([false, false]);
  });

  it('lets the merged entities and relations go once their texts are made: none is reachable when the encoding starts', async () => {
    // The graph's attributes share their chunkIds arrays with the merged entities and relations, so a
    // weak reference to them says whether anything of the merge is still held (the store drops the
    // graph once written). An async function's suspended frame used to keep the merge's result, and
    // the merge used to be held through the entities' encoding, until the relations' texts were made.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const merged: WeakRef<object>[] = [];
    const held = () => {
      gc();
      return merged.filter((ref) => ref.deref() !== undefined).length;
    };
    let heldAtWindows = -1;
    let heldAtFirstEncoding = -1;
    class WatchingEncoder extends HashingTestEncoder {
      override async encode(texts: readonly string[], options?: Parameters<HashingTestEncoder['encode']>[1]) {
        if (heldAtFirstEncoding < 0) {
          await new Promise((resolve) => setImmediate(resolve));
          heldAtFirstEncoding = held();
        }
        return super.encode(texts, options);
      }
    }
    const directory = createDirectoryIndexStore({ dir: join(root, 'let-go') });
    const store: IndexStore = {
      ...directory,
      writeGraph: async (options) => {
        options.graph.forEachNode((_, attributes) => merged.push(new WeakRef(attributes.chunkIds)));
        options.graph.forEachEdge((_, attributes) => merged.push(new WeakRef(attributes.chunkIds)));
        return directory.writeGraph!(options);
      },
      writeKind: async (options) => {
        if (options.kind === 'windows') {
          await new Promise((resolve) => setImmediate(resolve));
          heldAtWindows = held();
        }
        return directory.writeKind!(options);
      },
    };
    await buildIndexInto({ documents: fixtureDocuments(), store, encoder: new WatchingEncoder(), extractor, ...settings });
    expect(merged.length).toBeGreaterThan(20);
    expect(heldAtFirstEncoding).toBe(0);
    expect(heldAtWindows).toBe(0);
  });

  it('calls collectGarbage once the merge is let go, before any encoding, and again after each kind is written', async () => {
    const encoder = new HashingTestEncoder();
    const written: string[] = [];
    const collections: { encoderCalls: number; written: string[] }[] = [];
    const directory = createDirectoryIndexStore({ dir: join(root, 'collect') });
    const store: IndexStore = {
      ...directory,
      writeKind: async (options) => {
        const result = await directory.writeKind!(options);
        written.push(options.kind);
        return result;
      },
    };
    await buildIndexInto({
      documents: fixtureDocuments(),
      store,
      encoder,
      extractor,
      ...settings,
      collectGarbage: () => collections.push({ encoderCalls: encoder.calls, written: [...written] }),
    });
    expect(collections.map((c) => c.written)).toEqual([[], ['entities'], ['entities', 'relations'], ['entities', 'relations', 'windows']]);
    expect(collections[0].encoderCalls).toBe(0);
    expect(encoder.calls).toBeGreaterThan(0);
  });

  it("the directory store lets a handed-over kind's rows go as faiss takes them, and the file holds every vector in order", async () => {
    // More rows than one release slice (8,192), so the slicing is exercised. (The HNSW links themselves
    // depend on faiss's OpenMP threads, so two builds are compared by their stored vectors, not their bytes.)
    const count = 70_000;
    const dimension = 8;
    let state = 12345;
    const random = () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 2 ** 32 - 0.5;
    };
    const vectors = Array.from({ length: count }, () => {
      const v = Float32Array.from({ length: dimension }, random);
      const norm = Math.hypot(...v);
      return v.map((x) => x / norm);
    });
    const factory = 'HNSW16_SQfp16';
    const reference = createFaissVectorIndex({ dimension, factory, searchParameters: { efSearch: 256 } });
    await reference.add(vectors);
    const referencePath = join(root, 'reference.faiss');
    await reference.save(referencePath);
    const expected = readFaissStoredVectors(await readFile(referencePath), referencePath);

    const store = createDirectoryIndexStore({ dir: join(root, 'released') });
    await store.prepare!({});
    const table = { ids: vectors.map((_, i) => `v${i}`), textHashes: vectors.map((_, i) => `h${i}`), vectors: [...vectors] };
    try {
      await store.writeKind!({ kind: 'relations', table, factory, dimension });
      expect(table.vectors).toHaveLength(count);
      expect(table.vectors.every((row) => row.length === 0)).toBe(true);
      const [built] = (await readdir(root)).filter((name) => name.startsWith('released.tmp-'));
      const writtenPath = join(root, built!, 'vectors', 'relations.faiss');
      const written = readFaissStoredVectors(await readFile(writtenPath), writtenPath);
      expect(written.count).toBe(count);
      expect(written.matrix).toEqual(expected.matrix);
      const loaded = await loadFaissVectorIndex({ path: writtenPath });
      const [best] = await loaded.search(vectors[54_321]!, 1);
      expect(best!.label).toBe(54_321);
    } finally {
      await store.discard!();
    }
  }, 120_000);

  it('the directory store refuses contents without a graph when none was written during the build', async () => {
    const store = createDirectoryIndexStore({ dir: join(root, 'no-graph') });
    const memory = memoryStore();
    await buildIndexInto({ documents: fixtureDocuments(), store: memory, encoder: new HashingTestEncoder(), extractor, ...settings });
    const { graph: _graph, ...withoutGraph } = memory.contents!;
    await expect(store.write({ contents: withoutGraph })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError', argument: 'contents.graph' });
  });

  it('refuses a lexicalWorkers that is not a count before extracting anything', async () => {
    const store = memoryStore();
    let extracted = 0;
    const counting = { ...extractor, extract: (...args: Parameters<typeof extractor.extract>) => (extracted++, extractor.extract(...args)) };
    for (const lexicalWorkers of [-1, 1.5]) {
      await expect(
        buildIndexInto({ documents: fixtureDocuments(), store, encoder: new HashingTestEncoder(), extractor: counting, ...settings, lexicalWorkers }),
      ).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError', argument: 'lexicalWorkers' });
    }
    expect(extracted).toBe(0);
    expect(store.writes).toBe(0);
  });
});
