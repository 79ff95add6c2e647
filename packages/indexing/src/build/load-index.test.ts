import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { matchTokens } from '@mosaic/stage-utils';
import { labelMapOf } from '@mosaic/stage-utils/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureIndex } from '../__fixtures__/fixture-index.js';
import { HashingTestEncoder } from '../__fixtures__/hashing-test-encoder.js';
import { createOfflineExtractor } from '../extraction/offline-extractor.js';
import { addDocuments } from './add-documents.js';
import { fileDigest } from './index-files.js';
import { INDEX_FILES, storeFileNames } from './index-layout.js';
import { requiredIndexFiles } from './index-manifest-schema.js';
import { loadIndex, readIndexManifest } from './load-index.js';
import { type Bm25Index, DEFAULT_MAX_POSTINGS_PER_TERM } from '@mosaic/vector-index';

const encoder = new HashingTestEncoder();
let root: string;
let built: string;
let copies = 0;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mosaic-load-'));
  built = join(root, 'built');
  await buildFixtureIndex(built, encoder);
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** A fresh copy of the built index to corrupt. */
async function copy(): Promise<string> {
  const dir = join(root, `copy-${(copies += 1)}`);
  await cp(built, dir, { recursive: true });
  return dir;
}

async function editManifest(dir: string, edit: (manifest: Record<string, any>) => unknown): Promise<void> {
  const path = join(dir, INDEX_FILES.manifest);
  const manifest = JSON.parse(await readFile(path, 'utf8'));
  await writeFile(path, JSON.stringify(edit(manifest) ?? manifest));
}

/**
 * Write NaN over the first component of window row 0 in the flat faiss file (float32 `Flat` or
 * float16 `SQfp16`): the file keeps its size. Both layouts end with the codes of every row.
 */
async function poisonWindowVectors(dir: string): Promise<void> {
  const path = join(dir, INDEX_FILES.vectors('windows', 'faiss'));
  const bytes = await readFile(path);
  const magic = bytes.toString('latin1', 0, 4);
  const dimension = bytes.readInt32LE(4);
  const count = Number(bytes.readBigInt64LE(8));
  if (magic === 'IxFI') bytes.writeFloatLE(Number.NaN, bytes.length - count * dimension * 4);
  else if (magic === 'IxSQ') bytes.writeUInt16LE(0x7e00, bytes.length - count * dimension * 2);
  else throw new Error(`unexpected faiss index type ${magic}`);
  await writeFile(path, bytes);
}

/**
 * Rewrite a gzip'd JSON Lines file of an index with `edit` applied to its text, gzip'd again, and
 * list its new size in the manifest (its digest left as it was): an edit that only the digest or
 * the checks of the content can catch.
 */
async function editStored(dir: string, name: string, edit: (text: string) => string): Promise<void> {
  const path = join(dir, name);
  const bytes = gzipSync(edit(gunzipSync(await readFile(path)).toString('utf8')));
  await writeFile(path, bytes);
  await editManifest(dir, (m) => void (m.files[name] = bytes.length));
}

/** Change one letter of the documents: they stay valid JSON lines. */
async function editDocuments(dir: string): Promise<void> {
  await editStored(dir, INDEX_FILES.documents, (text) => {
    const at = text.indexOf('skin');
    expect(at).toBeGreaterThan(0);
    return `${text.slice(0, at)}skyn${text.slice(at + 4)}`;
  });
}

/**
 * Turn an index of this format into one of format 4, as an older Mosaic wrote it: its documents,
 * chunks and windows as plain JSON Lines (`documents.jsonl`, ...), listed with their sizes and digests.
 */
async function asFormat4(dir: string): Promise<void> {
  const current = storeFileNames(5);
  const legacy = storeFileNames(4);
  const listed: { from: string; to: string; size: number; digest: string }[] = [];
  for (const key of ['documents', 'chunks', 'windows'] as const) {
    const [from, to] = [current[key], legacy[key]];
    await writeFile(join(dir, to), gunzipSync(await readFile(join(dir, from))));
    await rm(join(dir, from));
    listed.push({ from, to, size: (await stat(join(dir, to))).size, digest: await fileDigest(join(dir, to)) });
  }
  await editManifest(dir, (m) => {
    m.formatVersion = 4;
    for (const { from, to, size, digest } of listed) {
      delete m.files[from];
      delete m.digests[from];
      m.files[to] = size;
      m.digests[to] = digest;
    }
  });
}

describe('manifest validation', () => {
  it.each([
    ['{}', 'formatVersion'],
    ['[]', 'manifest'],
    ['"manifest"', 'manifest'],
    ['null', 'manifest'],
    ['{"formatVersion":5}', 'corpus'],
    ['{"formatVersion":4}', 'corpus'],
    ['{"formatVersion":3}', 'formatVersion'],
    ['{"formatVersion":6}', 'formatVersion'],
  ])('refuses %s naming the field %s', async (text, field) => {
    const dir = await copy();
    await writeFile(join(dir, INDEX_FILES.manifest), text);
    const refused = loadIndex({ dir, encoder });
    await expect(refused).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field });
    const message = await refused.catch((error: Error) => error.message);
    expect(message).toMatch(/manifest\.json: invalid manifest: /);
    expect(message).toContain(field);
  });

  it('names the wrong field of an otherwise valid manifest', async () => {
    const dir = await copy();
    const cases: [string, (m: Record<string, any>) => unknown, string][] = [
      ['encoder missing', (m) => void delete m.encoder, 'encoder'],
      ['encoder.id a number', (m) => void (m.encoder.id = 7), 'encoder.id'],
      ['dimension negative', (m) => void (m.encoder.dimension = -3), 'encoder.dimension'],
      ['a count a string', (m) => void (m.counts.windows = '12'), 'counts.windows'],
      ['a file size negative', (m) => void (m.files['graph.bin.gz'] = -1), 'files.graph.bin.gz'],
      ['a file outside the directory', (m) => void (m.files['../../etc/passwd'] = 10), 'files.../../etc/passwd'],
      ['a listed file dropped', (m) => void delete m.files['documents.jsonl.gz'], 'files.documents.jsonl.gz'],
      ['a digest not hex', (m) => void (m.digests['graph.bin.gz'] = 'zz'), 'digests.graph.bin.gz'],
      ['corpusChecksum missing', (m) => void delete m.corpusChecksum, 'corpusChecksum'],
    ];
    const original = await readFile(join(dir, INDEX_FILES.manifest), 'utf8');
    for (const [, edit, field] of cases) {
      await writeFile(join(dir, INDEX_FILES.manifest), original);
      await editManifest(dir, edit);
      await expect(readIndexManifest(dir), field).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field });
    }
  });
});

describe('file digests', () => {
  it('records the sha256 of every listed file', async () => {
    const manifest = await readIndexManifest(built);
    const listed = [...requiredIndexFiles(true), INDEX_FILES.sentences].sort();
    expect(Object.keys(manifest.digests!).sort()).toEqual(listed);
    expect(Object.keys(manifest.files).sort()).toEqual(listed);
    for (const name of Object.keys(manifest.files)) expect(manifest.digests![name]).toBe(await fileDigest(join(built, name)));
    expect((await loadIndex({ dir: built, encoder })).integrity).toBe('digests');
  });

  it('refuses NaNs written into the window vectors (same size)', async () => {
    const dir = await copy();
    await poisonWindowVectors(dir);
    await expect(loadIndex({ dir, encoder })).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field: 'digests.vectors/windows.faiss' });
    // Without digest verification the stored vectors are still checked to be finite.
    await expect(loadIndex({ dir, encoder, verify: 'sizes' })).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field: 'windows.vectors' });
  });

  it('refuses edited documents (the listed size matching)', async () => {
    const dir = await copy();
    await editDocuments(dir);
    await expect(loadIndex({ dir, encoder })).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field: 'digests.documents.jsonl.gz' });
    // Without digest verification, corpusChecksum catches it.
    await expect(loadIndex({ dir, encoder, verify: 'sizes' })).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field: 'corpusChecksum' });
  });

  it('refuses a damaged graph.bin.gz (same size): the digest first, else the graph reader names the file', async () => {
    const dir = await copy();
    const path = join(dir, INDEX_FILES.graph);
    const bytes = await readFile(path);
    // Bytes in the middle of the gzip stream: the gunzip fails (or the CRC does).
    bytes.fill(0x55, bytes.length >> 1, (bytes.length >> 1) + 64);
    await writeFile(path, bytes);
    await expect(loadIndex({ dir, encoder })).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field: `digests.${INDEX_FILES.graph}` });
    const error = await loadIndex({ dir, encoder, verify: 'sizes' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ path });
    expect(String((error as Error).message)).toContain(INDEX_FILES.graph);
  });

  it('refuses a faiss file overwritten with other bytes (same size): the digest first, else an InputError naming the file', async () => {
    const dir = await copy();
    const path = join(dir, INDEX_FILES.vectors('entities', 'faiss'));
    const bytes = await readFile(path);
    bytes.fill(0x41, 0, 64);
    await writeFile(path, bytes);
    await expect(loadIndex({ dir, encoder })).rejects.toMatchObject({
      name: 'MosaicIndexMismatchError',
      field: `digests.${INDEX_FILES.vectors('entities', 'faiss')}`,
    });
    await expect(loadIndex({ dir, encoder, verify: 'sizes' })).rejects.toMatchObject({ name: 'MosaicInputError', source: path });
  });

  it('refuses a damaged BM25 state (same size), naming the file', async () => {
    const dir = await copy();
    const path = join(dir, INDEX_FILES.lexical('relations'));
    const bytes = await readFile(path);
    bytes.fill(0x55, bytes.length >> 1, (bytes.length >> 1) + 64);
    await writeFile(path, bytes);
    await expect(loadIndex({ dir, encoder })).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field: `digests.${INDEX_FILES.lexical('relations')}` });
    const error = await loadIndex({ dir, encoder, verify: 'sizes' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ path });
  });

  it('gives the graph of the build: every node, edge and neighbour list as the built graph has them', async () => {
    const index = await loadIndex({ dir: built, encoder });
    expect(index.graph.nodeCount).toBe(index.manifest.counts.entities);
    expect(index.graph.edgeCount).toBe(index.manifest.counts.relations);
    const nodes = await index.graph.getNodes(index.entityIds);
    expect(nodes.map((n) => n.id)).toEqual([...index.entityIds]);
    const edges = await index.graph.getEdges(index.relationIds);
    expect(edges.map((e) => e.id)).toEqual([...index.relationIds]);
    // The relation ids are the graph's edge ids in edge order, so the graph's edge numbers are their positions, shared.
    expect(labelMapOf(index.relationIds)).toBe(index.graph.edgeNumbers);
    for (const [position, id] of index.relationIds.entries()) expect(index.graph.edgeNumbers.get(id)).toBe(position);
    // Every edge is in the neighbour lists of both its ends, and degrees count them.
    const neighbors = await index.graph.neighbors(index.entityIds);
    for (const node of nodes) expect(neighbors.get(node.id)!.length).toBe(node.degree);
    for (const edge of edges) {
      expect(neighbors.get(edge.source)!.some((n) => n.edge.id === edge.id && n.node === edge.target)).toBe(true);
      expect(neighbors.get(edge.target)!.some((n) => n.edge.id === edge.id && n.node === edge.source)).toBe(true);
    }
  });

  it('loads an index built before digests were recorded, checking sizes, the corpus checksum and finite vectors', async () => {
    const dir = await copy();
    await editManifest(dir, (m) => void delete m.digests);
    const index = await loadIndex({ dir, encoder });
    expect(index.integrity).toBe('sizes');
    expect(index.manifest.counts.windows).toBeGreaterThan(0);
    await editDocuments(dir);
    await expect(loadIndex({ dir, encoder })).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field: 'corpusChecksum' });
    const other = await copy();
    await editManifest(other, (m) => void delete m.digests);
    await poisonWindowVectors(other);
    await expect(loadIndex({ dir: other, encoder })).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field: 'windows.vectors' });
    // A line of the documents that is valid JSON but not a document: named, not a TypeError.
    const third = await copy();
    await editManifest(third, (m) => void delete m.digests);
    await editStored(third, INDEX_FILES.documents, (text) => {
      const [first, ...rest] = text.split('\n');
      return [JSON.stringify('x'.repeat(first!.length - 2)), ...rest].join('\n');
    });
    await expect(loadIndex({ dir: third, encoder })).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field: 'files.documents.jsonl.gz' });
  });
});

describe('format 4', () => {
  it('loads an index of format 4 (plain JSON Lines) as it loads this format, and refuses one missing a plain file; an addition writes format 5', async () => {
    const dir = await copy();
    await asFormat4(dir);
    const old = await loadIndex({ dir, encoder });
    const current = await loadIndex({ dir: built, encoder });
    expect(old.manifest.formatVersion).toBe(4);
    expect(current.manifest.formatVersion).toBe(5);
    expect(old.integrity).toBe('digests');
    expect(old.documents).toEqual(current.documents);
    expect(old.windowIds).toEqual(current.windowIds);
    for (const id of current.windowIds) {
      const window = current.chunks.getWindow(id)!;
      expect(old.chunks.getWindow(id), id).toEqual(window);
      for (const chunkId of window.chunkIds ?? []) expect(old.chunks.getChunk(chunkId), chunkId).toEqual(current.chunks.getChunk(chunkId));
    }
    // Format 4 lists the plain files: one left out is named.
    const missing = await copy();
    await asFormat4(missing);
    await editManifest(missing, (m) => void delete m.files['chunks.jsonl']);
    await expect(loadIndex({ dir: missing, encoder })).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field: 'files.chunks.jsonl' });

    const extractor = createOfflineExtractor();
    await addDocuments({
      dir,
      documents: [{ id: 'added', corpus: 'x', text: 'Herons wade in shallow water and spear fish with their bills.' }],
      encoder,
      extractor,
    });
    const added = await loadIndex({ dir, encoder });
    expect(added.manifest.formatVersion).toBe(5);
    expect(added.documents.map((d) => d.id)).toEqual([...current.documents.map((d) => d.id), 'added']);
    const files = await readdir(dir);
    for (const name of Object.values(storeFileNames(5))) expect(files).toContain(name);
    for (const name of Object.values(storeFileNames(4))) expect(files).not.toContain(name);
  });
});

describe('maxPostingsPerTerm', () => {
  it("reads each BM25 term's list for at most the cap (default 16,384), all of it with false, and refuses a bad cap", async () => {
    const cutOf = (index: Awaited<ReturnType<typeof loadIndex>>) => (index.lexical!.relations as Bm25Index).cutLists;
    const whole = await loadIndex({ dir: built, encoder, maxPostingsPerTerm: false });
    expect(cutOf(whole)).toEqual({ maxPostingsPerTerm: undefined, lists: 0, postings: 0 });
    expect(cutOf(await loadIndex({ dir: built, encoder }))).toEqual({ maxPostingsPerTerm: DEFAULT_MAX_POSTINGS_PER_TERM, lists: 0, postings: 0 });
    const cut = await loadIndex({ dir: built, encoder, maxPostingsPerTerm: 2 });
    expect(cutOf(cut).lists).toBeGreaterThan(0);
    for (const kind of ['entities', 'relations', 'windows'] as const) {
      const query = 'skin cancer surgery tumor Tregeagle';
      const all = whole.lexical![kind]!.scoreAll!(query);
      const some = cut.lexical![kind]!.scoreAll!(query);
      // Each term read for at most 2 labels.
      expect(some.count).toBeLessThanOrEqual(2 * 5);
      expect(some.count).toBeLessThan(all.count);
    }
    for (const maxPostingsPerTerm of [0, 1.5, -3, true as unknown as number]) {
      await expect(loadIndex({ dir: built, encoder, maxPostingsPerTerm })).rejects.toMatchObject({
        name: 'MosaicInvalidArgumentError',
        argument: 'maxPostingsPerTerm',
      });
    }
  });
});

describe('sentence tokens (sentences.bin.gz)', () => {
  it('holds the matching tokens of every sentence the graph cites, given to the stages by the chunk store', async () => {
    const index = await loadIndex({ dir: built, encoder });
    const table = index.chunks.sentenceTokens!;
    expect(table).toBeDefined();
    const nodes = await index.graph.getNodes(index.entityIds);
    const edges = await index.graph.getEdges(index.relationIds);
    const spans = [...nodes, ...edges].flatMap((item) => item.spans ?? []);
    expect(spans.length).toBeGreaterThan(50);
    for (const span of spans) {
      const n = table.sentence(span.chunkId, span.start, span.end);
      expect(n).toBeGreaterThanOrEqual(0);
      const tokens = [...table.tokens.subarray(table.tokenStart[n], table.tokenStart[n + 1])].map((token) => table.vocabulary[token]);
      const text = index.chunks.getChunk(span.chunkId)!.text;
      expect(tokens.sort()).toEqual([...new Set(matchTokens(text.slice(span.start, span.end)))].sort());
    }
  });

  it('loads an index built before them without them (the stages then tokenize the sentences)', async () => {
    const dir = await copy();
    await rm(join(dir, INDEX_FILES.sentences));
    await editManifest(dir, (m) => {
      delete m.files[INDEX_FILES.sentences];
      delete m.digests[INDEX_FILES.sentences];
    });
    const index = await loadIndex({ dir, encoder });
    expect(index.chunks.sentenceTokens).toBeUndefined();
    expect(index.integrity).toBe('digests');
  });

  it('refuses sentence tokens made for other chunks, naming the file', async () => {
    const dir = await copy();
    const path = join(dir, INDEX_FILES.sentences);
    const bytes = gunzipSync(await readFile(path));
    // The chunk digest follows the header (9 numbers) and the padded tokenizer id: change its last character.
    const tokenizerLength = bytes.readInt32LE(8);
    const digestLength = bytes.readInt32LE(12);
    const last = 36 + Math.ceil(tokenizerLength / 4) * 4 + digestLength - 1;
    bytes[last] = bytes[last] === 0x30 ? 0x31 : 0x30;
    const damaged = gzipSync(bytes);
    await writeFile(path, damaged);
    // Its size and digest first; with sizes only (the size made to agree), the reader names what is wrong.
    await expect(loadIndex({ dir, encoder })).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field: `files.${INDEX_FILES.sentences}.bytes` });
    await editManifest(dir, (m) => {
      m.files[INDEX_FILES.sentences] = damaged.length;
    });
    await expect(loadIndex({ dir, encoder })).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field: `digests.${INDEX_FILES.sentences}` });
    const error = await loadIndex({ dir, encoder, verify: 'sizes' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'MosaicIndexMismatchError', path, field: 'sentences' });
    expect(String((error as Error).message)).toMatch(/sentences\.bin\.gz: sentence tokens: made for other chunks/);
  });

  it('refuses a file that is not sentence tokens (decoded in the load worker), naming it', async () => {
    const dir = await copy();
    const path = join(dir, INDEX_FILES.sentences);
    const bytes = gunzipSync(await readFile(path));
    bytes.writeInt32LE(0x12345678, 0);
    const damaged = gzipSync(bytes);
    await writeFile(path, damaged);
    await editManifest(dir, (m) => {
      m.files[INDEX_FILES.sentences] = damaged.length;
    });
    const error = await loadIndex({ dir, encoder, verify: 'sizes' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'MosaicIndexMismatchError', path, field: 'sentences' });
    expect(String((error as Error).message)).toMatch(/sentences\.bin\.gz: sentence tokens: not a sentence token table/);
  });
});
