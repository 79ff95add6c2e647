import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaissVectorIndex } from './faiss-vector-index.js';
import { readFaissStoredVectors } from './faiss-stored-vectors.js';
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
