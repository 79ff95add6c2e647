import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaissVectorIndex } from './faiss-vector-index.js';
import {
  type FaissFloat16Vectors,
  type FaissStoredVectors,
  firstNonFiniteVector,
  float16Matrix,
  float16Row,
  halfToFloat,
  readFaissStoredVectors,
  readFaissStoredVectorsFile,
} from './faiss-stored-vectors.js';
import { seededUnitVectors } from './test-vectors.js';

const DIMENSION = 12;
const vectors = seededUnitVectors(9000, DIMENSION, 7);

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'mosaic-faiss-vectors-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('readFaissStoredVectors (real faiss files)', () => {
  for (const factory of ['Flat', 'HNSW16']) {
    it(`returns exactly the vectors added to a saved ${factory} index, in label order`, async () => {
      const index = createFaissVectorIndex({ dimension: DIMENSION, factory });
      await index.add(vectors);
      const path = join(folder, `${factory}.faiss`);
      await index.save(path);
      const stored = readFaissStoredVectors(await readFile(path), path);
      expect(stored.dimension).toBe(DIMENSION);
      expect(stored.count).toBe(vectors.length);
      for (const row of [0, 1, 8191, 8192, 8999]) {
        expect(Array.from(stored.matrix.subarray(row * DIMENSION, (row + 1) * DIMENSION))).toEqual(Array.from(vectors[row]!));
      }
    }, 60_000);
  }

  for (const factory of ['SQfp16', 'HNSW16_SQfp16', 'SQ8', 'HNSW16_SQ8']) {
    it(`returns the vectors of a saved ${factory} index as faiss scores them (basis queries), close to those added`, async () => {
      const index = createFaissVectorIndex({ dimension: DIMENSION, factory, searchParameters: factory.startsWith('HNSW') ? { efSearch: 256 } : undefined });
      await index.add(vectors);
      const path = join(folder, `${factory}.faiss`);
      await index.save(path);
      const stored = readFaissStoredVectors(await readFile(path), path);
      expect(stored.dimension).toBe(DIMENSION);
      expect(stored.count).toBe(vectors.length);
      const tolerance = factory.endsWith('fp16') ? 2 ** -11 : 2 / 255;
      for (const row of [0, 1, 4500, 8999]) {
        const decoded = stored.matrix.subarray(row * DIMENSION, (row + 1) * DIMENSION);
        for (let i = 0; i < DIMENSION; i++) expect(Math.abs(decoded[i]! - vectors[row]![i]!)).toBeLessThanOrEqual(tolerance);
      }
      // What faiss itself scores with: the inner product with a basis vector is one stored component.
      const exact = createFaissVectorIndex({ dimension: DIMENSION, factory: factory.endsWith('fp16') ? 'SQfp16' : 'SQ8' });
      await exact.add(vectors);
      for (let i = 0; i < DIMENSION; i++) {
        const basis = new Float32Array(DIMENSION);
        basis[i] = 1;
        const [best] = await exact.search(basis, 1);
        let column = Number.NEGATIVE_INFINITY;
        for (let row = 0; row < vectors.length; row++) column = Math.max(column, stored.matrix[row * DIMENSION + i]!);
        expect(best!.score).toBe(column);
        expect(stored.matrix[best!.label * DIMENSION + i]).toBe(best!.score);
      }
    }, 60_000);
  }

  it('decodes float16 bit patterns exactly', () => {
    expect(halfToFloat(0x3c00)).toBe(1);
    expect(halfToFloat(0xc000)).toBe(-2);
    expect(halfToFloat(0x3555)).toBe(0.333251953125);
    expect(halfToFloat(0x0001)).toBe(2 ** -24);
    expect(halfToFloat(0x7bff)).toBe(65504);
    expect(halfToFloat(0x7c00)).toBe(Number.POSITIVE_INFINITY);
    expect(halfToFloat(0x7e00)).toBeNaN();
    expect(Object.is(halfToFloat(0x8000), -0)).toBe(true);
  });

  it('refuses an index that does not store its vectors exactly, and a truncated file, with InputError', async () => {
    const index = createFaissVectorIndex({ dimension: DIMENSION, factory: 'IVF4,Flat' });
    await index.add(vectors.slice(0, 400));
    const path = join(folder, 'ivf.faiss');
    await index.save(path);
    const ivf = await readFile(path);
    expect(() => readFaissStoredVectors(ivf, path)).toThrow(expect.objectContaining({ name: 'MosaicInputError' }));
    const flat = createFaissVectorIndex({ dimension: DIMENSION });
    await flat.add(vectors.slice(0, 10));
    await flat.save(join(folder, 'flat.faiss'));
    const bytes = await readFile(join(folder, 'flat.faiss'));
    expect(() => readFaissStoredVectors(bytes.subarray(0, bytes.length - 3))).toThrow(expect.objectContaining({ name: 'MosaicInputError' }));
  }, 30_000);
});

describe('readFaissStoredVectorsFile (real faiss files, read in place)', () => {
  const layouts: Record<string, string> = {
    Flat: 'flat',
    HNSW16: 'hnsw',
    SQfp16: 'scalar-quantized',
    HNSW16_SQfp16: 'hnsw',
    SQ8: 'scalar-quantized',
    HNSW16_SQ8: 'hnsw',
  };
  for (const [factory, layout] of Object.entries(layouts)) {
    it(`reads the vectors of a ${factory} file as readFaissStoredVectors does on its bytes, with its layout`, async () => {
      const index = createFaissVectorIndex({ dimension: DIMENSION, factory });
      await index.add(vectors.slice(0, 3000));
      const path = join(folder, `in-place-${factory}.faiss`);
      await index.save(path);
      const fromBytes = readFaissStoredVectors(await readFile(path), path);
      const decoded = readFaissStoredVectorsFile(path) as FaissStoredVectors & { layout: string };
      expect(decoded.layout).toBe(layout);
      expect([decoded.dimension, decoded.count]).toEqual([DIMENSION, 3000]);
      expect(decoded.matrix).toEqual(fromBytes.matrix);
      const kept = readFaissStoredVectorsFile(path, { keepFloat16: true });
      if (factory.endsWith('fp16')) {
        // Codes kept as they are: rows decode to the very floats of the decoded matrix.
        const float16 = kept as FaissFloat16Vectors;
        expect(float16.float16).toBeInstanceOf(Uint16Array);
        expect(float16.float16.length).toBe(3000 * DIMENSION);
        for (const row of [0, 1, 1499, 2999]) expect(float16Row(float16, row)).toEqual(fromBytes.matrix.subarray(row * DIMENSION, (row + 1) * DIMENSION));
        expect(float16Matrix(float16).matrix).toEqual(fromBytes.matrix);
      } else {
        expect((kept as FaissStoredVectors).matrix).toEqual(fromBytes.matrix);
      }
    }, 60_000);
  }

  it('finds a non-finite float16 code without decoding, and a non-finite float', () => {
    const float16 = new Uint16Array(3 * 4).fill(0x3c00);
    expect(firstNonFiniteVector({ dimension: 4, count: 3, float16 })).toBeUndefined();
    float16[9] = 0xfc00; // −infinity, row 2
    expect(firstNonFiniteVector({ dimension: 4, count: 3, float16 })).toEqual({ row: 2, value: Number.NEGATIVE_INFINITY });
    float16[5] = 0x7e01; // NaN, row 1
    expect(firstNonFiniteVector({ dimension: 4, count: 3, float16 })?.row).toBe(1);
    float16[4] = 0x7c00; // +infinity, the first code of row 1
    expect(firstNonFiniteVector({ dimension: 4, count: 3, float16 })).toEqual({ row: 1, value: Number.POSITIVE_INFINITY });
    // An odd number of codes, the last one non-finite; and codes not 4-byte aligned.
    const odd = new Uint16Array(3 * 3).fill(0x3c00);
    odd[8] = 0x7c00;
    expect(firstNonFiniteVector({ dimension: 3, count: 3, float16: odd })?.row).toBe(2);
    const shifted = new Uint16Array(new ArrayBuffer(2 + 9 * 2), 2, 9).fill(0x3c00);
    shifted[7] = 0xfe00;
    expect(firstNonFiniteVector({ dimension: 3, count: 3, float16: shifted })?.row).toBe(2);
    const matrix = new Float32Array(8).fill(0.5);
    expect(firstNonFiniteVector({ dimension: 4, count: 2, matrix })).toBeUndefined();
    matrix[6] = Number.NaN;
    expect(firstNonFiniteVector({ dimension: 4, count: 2, matrix })?.row).toBe(1);
  });

  it('refuses a missing file and a truncated one with InputError naming the path', async () => {
    const missing = join(folder, 'nowhere.faiss');
    expect(() => readFaissStoredVectorsFile(missing)).toThrow(expect.objectContaining({ name: 'MosaicInputError', source: missing }));
    const index = createFaissVectorIndex({ dimension: DIMENSION, factory: 'HNSW16_SQfp16' });
    await index.add(vectors.slice(0, 200));
    const path = join(folder, 'whole.faiss');
    await index.save(path);
    const bytes = await readFile(path);
    const truncated = join(folder, 'truncated.faiss');
    await writeFile(truncated, bytes.subarray(0, bytes.length - 5));
    expect(() => readFaissStoredVectorsFile(truncated, { keepFloat16: true })).toThrow(
      expect.objectContaining({ name: 'MosaicInputError', source: truncated, message: expect.stringMatching(/truncated/) }),
    );
  }, 30_000);
});
