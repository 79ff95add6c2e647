import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaissVectorIndex, FaissVectorIndex, faissReadsItself, flatIndexBytes, loadFaissVectorIndex } from './faiss-vector-index.js';
import { type FaissNativeIndex, loadFaissNode } from './load-faiss-node.js';
import { readFaissStoredVectors } from './faiss-stored-vectors.js';
import { dot, seededUnitVectors } from './test-vectors.js';

const DIMENSION = 16;
const vectors = seededUnitVectors(300, DIMENSION, 1);
const queries = seededUnitVectors(20, DIMENSION, 2);

function bruteForceLabels(query: Float32Array, k: number): number[] {
  return vectors
    .map((vector, label) => ({ label, score: dot(vector, query) }))
    .sort((a, b) => b.score - a.score || a.label - b.label)
    .slice(0, k)
    .map((hit) => hit.label);
}

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'mosaic-faiss-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('FaissVectorIndex (real faiss)', () => {
  it('adds, searches exactly by inner product, saves and loads', async () => {
    const index = createFaissVectorIndex({ dimension: DIMENSION });
    expect(index.factory).toBe('Flat');
    await index.add(vectors);
    expect(index.size).toBe(300);
    const hits = await index.search(queries[0], 5);
    expect(hits.map((hit) => hit.label)).toEqual(bruteForceLabels(queries[0], 5));
    hits.forEach((hit) => {
      expect(hit.score).toBeCloseTo(dot(vectors[hit.label], queries[0]), 5);
    });

    const path = join(folder, 'flat.faiss');
    await index.save(path);
    const loaded = await loadFaissVectorIndex({ path, dimension: DIMENSION });
    expect(loaded.size).toBe(300);
    expect(loaded.factory).toBeUndefined();
    expect(await loaded.search(queries[0], 5)).toEqual(hits);
  });

  it('builds an HNSW index byte for byte the same twice (one add thread by default)', async () => {
    const many = seededUnitVectors(3000, DIMENSION, 3);
    const bytes = async (index: FaissVectorIndex, name: string) => {
      const path = join(folder, name);
      await index.save(path);
      return readFile(path);
    };
    const build = async (name: string, parts: number) => {
      const index = createFaissVectorIndex({ dimension: DIMENSION, factory: 'HNSW16' });
      const step = Math.ceil(many.length / parts);
      for (let start = 0; start < many.length; start += step) await index.add(many.slice(start, start + step));
      return bytes(index, name);
    };
    // With faiss's own threads (every core) two builds differ on a multi-core machine (checked on 2 cores).
    expect((await build('hnsw-a.faiss', 1)).equals(await build('hnsw-b.faiss', 1))).toBe(true);
    expect((await build('hnsw-c.faiss', 3)).equals(await build('hnsw-d.faiss', 3))).toBe(true);
    // Appending to a loaded index (as `mosaic index --add` does).
    const half = createFaissVectorIndex({ dimension: DIMENSION, factory: 'HNSW16' });
    await half.add(many.slice(0, 1500));
    const saved = join(folder, 'hnsw-half.faiss');
    await half.save(saved);
    const appended = async (name: string) => {
      const loaded = await loadFaissVectorIndex({ path: saved });
      await loaded.add(many.slice(1500));
      return bytes(loaded, name);
    };
    expect((await appended('hnsw-e.faiss')).equals(await appended('hnsw-f.faiss'))).toBe(true);
  });

  it('rejects an addThreads that is not an integer ≥ 0', async () => {
    for (const addThreads of [-1, 1.5, Number.NaN]) {
      expect(() => createFaissVectorIndex({ dimension: DIMENSION, addThreads })).toThrow(/addThreads.*integer ≥ 0/);
    }
    await expect(loadFaissVectorIndex({ path: join(folder, 'missing.faiss'), addThreads: -2 })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
  });

  it("searches off the JS thread with the addon's searchAsync: the same hits, side by side, and an add waits for them", async () => {
    const index = createFaissVectorIndex({ dimension: DIMENSION });
    await index.add(vectors);
    const faiss = loadFaissNode();
    expect(typeof faiss.Index.fromFactory(DIMENSION, 'Flat', faiss.MetricType.METRIC_INNER_PRODUCT).searchAsync).toBe('function');
    // Twenty searches in flight at once, then an add issued before any of them is awaited.
    const searches = queries.map((query) => index.search(query, 7));
    const added = index.add(seededUnitVectors(50, DIMENSION, 9));
    const hits = await Promise.all(searches);
    hits.forEach((list, q) => {
      expect(list.map((hit) => hit.label)).toEqual(bruteForceLabels(queries[q], 7));
      for (const hit of list) expect(hit.score).toBeCloseTo(dot(vectors[hit.label], queries[q]), 5);
    });
    await added;
    expect(index.size).toBe(350);
    // The add waits for searches still running: searches held open here by a gate.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let running = 0;
    const addsWhileRunning: number[] = [];
    const native = faiss.Index.fromFactory(DIMENSION, 'Flat', faiss.MetricType.METRIC_INNER_PRODUCT);
    native.add(vectors.flatMap((vector) => Array.from(vector)));
    const gated = new Proxy(native, {
      get(target, name) {
        if (name === 'searchAsync')
          return (query: Float32Array, k: number, threads: number) => {
            running += 1;
            return target.searchAsync!(query, k, threads).then(async (result) => {
              await gate;
              running -= 1;
              return result;
            });
          };
        if (name === 'add')
          return (x: number[]) => {
            addsWhileRunning.push(running);
            target.add(x);
          };
        const value = Reflect.get(target, name);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as FaissNativeIndex;
    const waiting = FaissVectorIndex.wrap({ native: gated, dimension: DIMENSION, factory: 'Flat' });
    const held = [waiting.search(queries[0], 3), waiting.search(queries[1], 3)];
    const adding = waiting.add(seededUnitVectors(5, DIMENSION, 10));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(addsWhileRunning).toEqual([]);
    open();
    await Promise.all([...held, adding]);
    expect(addsWhileRunning).toEqual([0]);
    expect(waiting.size).toBe(305);
    // A view into a larger buffer is read at its own offset.
    const buffer = new Float32Array(DIMENSION * 3);
    buffer.set(queries[4], DIMENSION);
    expect((await index.search(buffer.subarray(DIMENSION, 2 * DIMENSION), 3)).map((hit) => hit.label)).toEqual(
      (await index.search(queries[4], 3)).map((hit) => hit.label),
    );
  });

  it("searchAsync searches an HNSW index of float16 vectors with the addon's own kernel: faiss's own search's hits and distances, to the bit", async () => {
    const faiss = loadFaissNode();
    // 100 dimensions: twelve blocks of eight and a tail of four, as the embedded encoder's vectors.
    const dimension = 100;
    const stored = seededUnitVectors(4000, dimension, 21).flatMap((vector) => Array.from(vector));
    const hnsw = faiss.Index.fromFactory(dimension, 'HNSW16_SQfp16', faiss.MetricType.METRIC_INNER_PRODUCT);
    hnsw.train(stored.slice(0, 1000 * dimension));
    hnsw.add(stored);
    hnsw.setParameter!('efSearch', 48);
    const asked = seededUnitVectors(60, dimension, 22);
    let compared = 0;
    // k above efSearch too: the walk's queue is then k long, its stop still counts efSearch.
    for (const k of [1, 10, 64]) {
      for (const query of asked) {
        const own = hnsw.search(Array.from(query), k);
        const result = await hnsw.searchAsync!(query, k, 1);
        expect(result.kernel).toBe('hnsw-fp16');
        expect(Array.from(result.labels)).toEqual(own.labels);
        expect(Array.from(result.distances)).toEqual(own.distances);
        compared += 1;
      }
    }
    expect(compared).toBe(180);
    // Other indexes are searched by faiss: a flat one, and an HNSW one by L2 distance.
    const flat = faiss.Index.fromFactory(dimension, 'SQfp16', faiss.MetricType.METRIC_INNER_PRODUCT);
    flat.train(stored.slice(0, 1000 * dimension));
    flat.add(stored.slice(0, 200 * dimension));
    expect((await flat.searchAsync!(asked[0], 5, 1)).kernel).toBe('faiss');
    const l2 = faiss.Index.fromFactory(dimension, 'HNSW16_SQfp16', faiss.MetricType.METRIC_L2);
    l2.train(stored.slice(0, 1000 * dimension));
    l2.add(stored.slice(0, 500 * dimension));
    const byL2 = await l2.searchAsync!(asked[1], 5, 1);
    expect(byL2.kernel).toBe('faiss');
    expect(Array.from(byL2.labels)).toEqual(l2.search(Array.from(asked[1]), 5).labels);
  });

  it("without searchAsync, searches on searchThreads OpenMP threads (default 1), then gives the caller's count back", async () => {
    const faiss = loadFaissNode();
    const native = faiss.Index.fromFactory(DIMENSION, 'Flat', faiss.MetricType.METRIC_INNER_PRODUCT);
    native.add(vectors.flatMap((vector) => Array.from(vector)));
    const setThreads = native.setThreads!.bind(native);
    expect(typeof setThreads).toBe('function');
    // The count the search runs with, read inside faiss-node's search (setThreads answers the count before);
    // searchAsync hidden, as an addon built elsewhere lacks it.
    const during: number[] = [];
    const observed = new Proxy(native, {
      get(target, name) {
        if (name === 'searchAsync') return undefined;
        if (name === 'search')
          return (x: number[], k: number) => {
            const now = setThreads(5);
            setThreads(now);
            during.push(now);
            return target.search(x, k);
          };
        const value = Reflect.get(target, name);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as FaissNativeIndex;
    const before = setThreads(3);
    try {
      for (const searchThreads of [undefined, 2, 0]) {
        during.length = 0;
        const index = FaissVectorIndex.wrap({ native: observed, dimension: DIMENSION, factory: 'Flat', searchThreads });
        const hits = await index.search(queries[1], 4);
        expect(hits.map((hit) => hit.label)).toEqual(bruteForceLabels(queries[1], 4));
        expect(during).toEqual([searchThreads === 0 ? 3 : (searchThreads ?? 1)]);
        expect(setThreads(3)).toBe(3);
      }
    } finally {
      setThreads(before);
    }
    for (const searchThreads of [-1, 0.5]) {
      expect(() => createFaissVectorIndex({ dimension: DIMENSION, searchThreads })).toThrow(/searchThreads.*integer ≥ 0/);
    }
    await expect(loadFaissVectorIndex({ path: join(folder, 'missing.faiss'), searchThreads: -1 })).rejects.toMatchObject({
      name: 'MosaicInvalidArgumentError',
    });
  });

  it("loads a file through the addon's readAsync (off the JS thread) when it has one, else through read: the same index; readAsync rejects a file faiss cannot read", async () => {
    const faiss = loadFaissNode();
    const real = faiss.Index;
    expect(typeof real.readAsync).toBe('function');
    const built = createFaissVectorIndex({ dimension: DIMENSION, factory: 'HNSW16' });
    await built.add(vectors);
    const path = join(folder, 'read-async.faiss');
    await built.save(path);
    const direct = real.read(path);
    const read = await real.readAsync!(path);
    expect(read.ntotal()).toBe(300);
    for (const query of queries.slice(0, 5)) expect(read.search(Array.from(query), 5)).toEqual(direct.search(Array.from(query), 5));
    await expect(real.readAsync!(join(folder, 'missing.faiss'))).rejects.toThrow(/could not open/);
    expect(() => (real.readAsync as unknown as (path: unknown) => unknown)(3)).toThrow(/Expected \(path: string\)/);

    // Which of the two loadFaissVectorIndex calls, with and without readAsync (an addon built elsewhere lacks it).
    const asked: string[] = [];
    const index = (withAsync: boolean): typeof real => ({
      fromFactory: real.fromFactory.bind(real),
      fromBuffer: real.fromBuffer.bind(real),
      read: (file) => {
        asked.push(`read ${file}`);
        return real.read(file);
      },
      ...(withAsync
        ? {
            readAsync: (file: string) => {
              asked.push(`readAsync ${file}`);
              return real.readAsync!(file);
            },
          }
        : {}),
    });
    try {
      faiss.Index = index(true);
      const viaAsync = await loadFaissVectorIndex({ path, dimension: DIMENSION });
      expect(asked).toEqual([`readAsync ${path}`]);
      faiss.Index = index(false);
      const viaRead = await loadFaissVectorIndex({ path, dimension: DIMENSION });
      expect(asked).toEqual([`readAsync ${path}`, `read ${path}`]);
      for (const query of queries) expect(await viaAsync.search(query, 10)).toEqual(await viaRead.search(query, 10));
      faiss.Index = index(true);
      await expect(loadFaissVectorIndex({ path: join(folder, 'missing.faiss') })).rejects.toMatchObject({ name: 'MosaicInputError' });
    } finally {
      faiss.Index = real;
    }
  });

  it('faissReadsItself: a file loadFaissVectorIndex leaves to faiss (HNSW, Flat), not a flat scalar-quantised one it decodes; InputError for a missing file', async () => {
    for (const [factory, itself] of [
      ['HNSW16', true],
      ['Flat', true],
      ['SQfp16', false],
    ] as const) {
      const index = createFaissVectorIndex({ dimension: DIMENSION, factory });
      await index.add(vectors);
      const path = join(folder, `reads-itself-${factory}.faiss`);
      await index.save(path);
      expect(faissReadsItself(path)).toBe(itself);
    }
    const missing = join(folder, 'missing.faiss');
    expect(() => faissReadsItself(missing)).toThrow(expect.objectContaining({ name: 'MosaicInputError', source: missing }));
  });

  it('rejects a wrong-dimension query with DimensionMismatchError instead of crashing', async () => {
    const index = createFaissVectorIndex({ dimension: DIMENSION });
    await index.add(vectors.slice(0, 10));
    // 2 × DIMENSION would pass faiss-node's own length check as two queries.
    await expect(index.search(new Float32Array(DIMENSION * 2), 1)).rejects.toMatchObject({
      name: 'MosaicDimensionMismatchError',
      expected: DIMENSION,
      actual: DIMENSION * 2,
    });
    await expect(index.add([new Float32Array(3)])).rejects.toMatchObject({ name: 'MosaicDimensionMismatchError' });
    expect(index.size).toBe(10);
  });

  it('HNSW factory finds the true nearest neighbours on a small set', async () => {
    const index = createFaissVectorIndex({ dimension: DIMENSION, factory: 'HNSW32', searchParameters: { efSearch: 64 } });
    await index.add(vectors);
    let found = 0;
    for (const query of queries) {
      const truth = new Set(bruteForceLabels(query, 10));
      found += (await index.search(query, 10)).filter((hit) => truth.has(hit.label)).length;
    }
    expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.95);
  });

  it('IVF factory trains on the first add and persists nprobe', async () => {
    const index = createFaissVectorIndex({ dimension: DIMENSION, factory: 'IVF8,Flat', searchParameters: { nprobe: 8 } });
    expect(index.isTrained).toBe(false);
    await index.add(vectors.slice(0, 200));
    expect(index.isTrained).toBe(true);
    await index.add(vectors.slice(200));
    expect(index.size).toBe(300);
    for (const query of queries.slice(0, 5)) {
      expect((await index.search(query, 5)).map((hit) => hit.label)).toEqual(bruteForceLabels(query, 5));
    }
    const path = join(folder, 'ivf.faiss');
    await index.save(path);
    const loaded = await loadFaissVectorIndex({ path });
    for (const query of queries.slice(0, 5)) {
      expect((await loaded.search(query, 5)).map((hit) => hit.label)).toEqual(bruteForceLabels(query, 5));
    }
  });

  it('IVF with fewer vectors than lists is an InvalidArgumentError, and the index stays usable', async () => {
    const index = createFaissVectorIndex({ dimension: DIMENSION, factory: 'IVF64,Flat' });
    await expect(index.add(vectors.slice(0, 10))).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError', argument: 'vectors' });
    expect(index.size).toBe(0);
    await index.add(vectors.slice(0, 64));
    expect(index.size).toBe(64);
  });

  it('IVF-PQ training failure from faiss surfaces as InvalidArgumentError, not a crash', async () => {
    // PQ needs 256 training points per sub-quantizer; faiss throws for fewer.
    const index = createFaissVectorIndex({ dimension: DIMENSION, factory: 'IVF2,PQ4' });
    await expect(index.add(vectors.slice(0, 20))).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
    expect(index.size).toBe(0);
  });

  it('rejects an unknown factory, bad dimension and bad search parameters', () => {
    expect(() => createFaissVectorIndex({ dimension: DIMENSION, factory: 'NoSuchIndex' })).toThrowError(
      expect.objectContaining({ name: 'MosaicInvalidArgumentError', argument: 'factory' }),
    );
    expect(() => createFaissVectorIndex({ dimension: 0 })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
    expect(() => createFaissVectorIndex({ dimension: DIMENSION, factory: 'Flat', searchParameters: { nprobe: 4 } })).toThrowError(
      expect.objectContaining({ name: 'MosaicInvalidArgumentError', argument: 'searchParameters.nprobe' }),
    );
  });

  it('flatIndexBytes writes exactly what faiss writes for a Flat inner-product index of the same vectors', async () => {
    const data = seededUnitVectors(257, DIMENSION, 21);
    const flat = createFaissVectorIndex({ dimension: DIMENSION, factory: 'Flat' });
    await flat.add(data);
    const path = join(folder, 'flat-written-by-faiss.faiss');
    await flat.save(path);
    const written = await readFile(path);
    const { dimension, count, matrix } = readFaissStoredVectors(written);
    const bytes = flatIndexBytes(dimension, count, matrix);
    expect(bytes.equals(written)).toBe(true);
    // A matrix read by readFaissStoredVectors has room for the header: the bytes share its memory.
    expect(bytes.buffer).toBe(matrix.buffer);
    expect(new Float32Array(bytes.buffer, bytes.byteOffset + 45, matrix.length)).toEqual(matrix);
    // Any other matrix (here a copy, and a view into a larger array) is copied, the same bytes.
    const copy = flatIndexBytes(dimension, count, matrix.slice());
    expect(copy.buffer).not.toBe(matrix.buffer);
    expect(copy.equals(written)).toBe(true);
    const larger = new Float32Array(matrix.length + 20);
    larger.set(matrix, 12);
    const view = larger.subarray(12, 12 + matrix.length);
    expect(flatIndexBytes(dimension, count, view).equals(written)).toBe(true);
    expect(larger.subarray(0, 12).every((x) => x === 0)).toBe(true);
    expect(() => flatIndexBytes(DIMENSION, 3, new Float32Array(DIMENSION * 2))).toThrowError(expect.objectContaining({ argument: 'matrix' }));
  });

  it('decodeToFlat with the stored vectors given gives the index decoding the file gives, and refuses vectors of another file', async () => {
    const data = seededUnitVectors(500, DIMENSION, 31);
    const sq = createFaissVectorIndex({ dimension: DIMENSION, factory: 'SQfp16' });
    await sq.add(data);
    const path = join(folder, 'fp16-stored.faiss');
    await sq.save(path);
    const buffer = await readFile(path);
    const stored = readFaissStoredVectors(buffer, path);
    const given = await loadFaissVectorIndex({ path, buffer, decodeToFlat: true, stored });
    const decoded = await loadFaissVectorIndex({ path, buffer, decodeToFlat: true });
    for (const query of seededUnitVectors(10, DIMENSION, 32)) expect(await given.search(query, 25)).toEqual(await decoded.search(query, 25));
    const other = { ...stored, count: stored.count - 1, matrix: stored.matrix.subarray(DIMENSION) };
    await expect(loadFaissVectorIndex({ path, buffer, decodeToFlat: true, stored: other })).rejects.toMatchObject({ argument: 'stored' });
    // By path, with the vectors given: only the file's header is read, the same index results.
    const byPath = await loadFaissVectorIndex({ path, decodeToFlat: true, stored: readFaissStoredVectors(buffer, path) });
    for (const query of seededUnitVectors(10, DIMENSION, 33)) expect(await byPath.search(query, 25)).toEqual(await decoded.search(query, 25));
    await expect(loadFaissVectorIndex({ path, decodeToFlat: true, stored: other })).rejects.toMatchObject({ argument: 'stored' });
    const truncated = join(folder, 'fp16-truncated.faiss');
    await writeFile(truncated, buffer.subarray(0, 20));
    await expect(loadFaissVectorIndex({ path: truncated, decodeToFlat: true, stored })).rejects.toMatchObject({ name: 'MosaicInputError', source: truncated });
  });

  it('decodeToFlat: an SQfp16 file searched through a float32 Flat of its decoded vectors gives the same hits; the file is unchanged', async () => {
    const data = seededUnitVectors(3000, DIMENSION, 11);
    const sq = createFaissVectorIndex({ dimension: DIMENSION, factory: 'SQfp16' });
    await sq.add(data);
    const path = join(folder, 'fp16.faiss');
    await sq.save(path);
    const before = await readFile(path);
    const asStored = await loadFaissVectorIndex({ path });
    const decoded = await loadFaissVectorIndex({ path, decodeToFlat: true, dimension: DIMENSION });
    expect(decoded.size).toBe(3000);
    const flatPath = join(folder, 'decoded.faiss');
    await decoded.save(flatPath);
    expect((await readFile(flatPath)).subarray(0, 4).toString('latin1')).toBe('IxFI');
    expect((await readFile(path)).equals(before)).toBe(true);
    for (const query of seededUnitVectors(20, DIMENSION, 12)) {
      const a = await asStored.search(query, 10);
      const b = await decoded.search(query, 10);
      expect(b.map((hit) => hit.label)).toEqual(a.map((hit) => hit.label));
      for (let i = 0; i < a.length; i++) expect(b[i]!.score).toBeCloseTo(a[i]!.score, 5);
    }
    // An HNSW file loads as stored.
    const hnsw = createFaissVectorIndex({ dimension: DIMENSION, factory: 'HNSW16_SQfp16' });
    await hnsw.add(data.slice(0, 500));
    await hnsw.save(join(folder, 'hnsw-fp16.faiss'));
    const loaded = await loadFaissVectorIndex({ path: join(folder, 'hnsw-fp16.faiss'), decodeToFlat: true });
    await loaded.save(join(folder, 'hnsw-again.faiss'));
    expect((await readFile(join(folder, 'hnsw-again.faiss'))).subarray(0, 4).toString('latin1')).toBe('IHNs');
  }, 60_000);

  it('save has faiss write the file itself: the same bytes as its in-memory serialisation, no temporary left; an unwritable path is an InputError', async () => {
    const index = createFaissVectorIndex({ dimension: DIMENSION, factory: 'HNSW16_SQfp16' });
    await index.add(seededUnitVectors(2000, DIMENSION, 51));
    const path = join(folder, 'saved', 'nested', 'hnsw.faiss');
    await index.save(path);
    const native = createRequire(import.meta.url)('faiss-node').Index.fromBuffer(await readFile(path));
    expect((await readFile(path)).equals(native.toBuffer())).toBe(true);
    expect((await readdir(join(folder, 'saved', 'nested'))).filter((name) => name.includes('.tmp-'))).toEqual([]);
    const blocked = join(folder, 'blocked');
    await writeFile(blocked, 'a file, not a folder');
    await expect(index.save(join(blocked, 'x.faiss'))).rejects.toThrow();
    await mkdir(join(folder, 'directory-here.faiss'), { recursive: true });
    await expect(index.save(join(folder, 'directory-here.faiss'))).rejects.toMatchObject({ name: 'MosaicInputError' });
  });

  it('train then several adds builds what one add does (the same training sample), for an index that trains (SQ8)', async () => {
    const data = seededUnitVectors(3000, DIMENSION, 41);
    const whole = createFaissVectorIndex({ dimension: DIMENSION, factory: 'SQ8' });
    await whole.add(data);
    const split = createFaissVectorIndex({ dimension: DIMENSION, factory: 'SQ8' });
    expect(split.isTrained).toBe(false);
    await split.train(data);
    expect(split.isTrained).toBe(true);
    expect(split.size).toBe(0);
    await split.add(data.slice(0, 1000));
    await split.add(data.slice(1000));
    const [a, b] = [join(folder, 'sq8-whole.faiss'), join(folder, 'sq8-split.faiss')];
    await whole.save(a);
    await split.save(b);
    expect((await readFile(b)).equals(await readFile(a))).toBe(true);
    // Trained on the first slice alone instead, the codes differ: the test can tell.
    const firstOnly = createFaissVectorIndex({ dimension: DIMENSION, factory: 'SQ8' });
    await firstOnly.add(data.slice(0, 1000));
    await firstOnly.add(data.slice(1000));
    const c = join(folder, 'sq8-first.faiss');
    await firstOnly.save(c);
    expect((await readFile(c)).equals(await readFile(a))).toBe(false);
  });

  it('refuses to load a non-inner-product index, a corrupt file, or a wrong dimension', async () => {
    const faiss = createRequire(import.meta.url)('faiss-node');
    const l2 = faiss.Index.fromFactory(DIMENSION, 'Flat', faiss.MetricType.METRIC_L2);
    const l2Path = join(folder, 'l2.faiss');
    await writeFile(l2Path, l2.toBuffer());
    await expect(loadFaissVectorIndex({ path: l2Path })).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field: 'metric' });

    const corruptPath = join(folder, 'corrupt.faiss');
    await writeFile(corruptPath, Buffer.from('definitely not a faiss index'));
    await expect(loadFaissVectorIndex({ path: corruptPath })).rejects.toMatchObject({ name: 'MosaicInputError', source: corruptPath });
    await expect(loadFaissVectorIndex({ path: corruptPath, decodeToFlat: true })).rejects.toMatchObject({ name: 'MosaicInputError' });
    const missing = join(folder, 'missing.faiss');
    await expect(loadFaissVectorIndex({ path: missing })).rejects.toMatchObject({ name: 'MosaicInputError', source: missing });
    await expect(loadFaissVectorIndex({ path: missing, decodeToFlat: true })).rejects.toMatchObject({ name: 'MosaicInputError', source: missing });

    const index = createFaissVectorIndex({ dimension: DIMENSION });
    const path = join(folder, 'dim.faiss');
    await index.save(path);
    await expect(loadFaissVectorIndex({ path, dimension: 32 })).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field: 'dimension' });
  });
});
