import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaissVectorIndex } from './faiss-vector-index.js';
import { createInMemoryVectorIndex, loadInMemoryVectorIndex } from './in-memory-vector-index.js';
import { seededUnitVectors } from './test-vectors.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'mosaic-in-memory-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('InMemoryVectorIndex', () => {
  it('agrees with faiss exact search on labels and scores', async () => {
    const vectors = seededUnitVectors(500, 24, 3);
    const memory = createInMemoryVectorIndex({ dimension: 24 });
    const faiss = createFaissVectorIndex({ dimension: 24 });
    await memory.add(vectors);
    await faiss.add(vectors);
    for (const query of seededUnitVectors(10, 24, 4)) {
      const expected = await faiss.search(query, 8);
      const actual = await memory.search(query, 8);
      expect(actual.map((hit) => hit.label)).toEqual(expected.map((hit) => hit.label));
      actual.forEach((hit, i) => {
        expect(hit.score).toBeCloseTo(expected[i].score, 5);
      });
    }
  });

  it('writes the documented binary layout', async () => {
    const index = createInMemoryVectorIndex({ dimension: 2 });
    await index.add([Float32Array.of(1, 0.5), Float32Array.of(-2, 0.25)]);
    const path = join(folder, 'layout.bin');
    await index.save(path);
    const bytes = await readFile(path);
    expect(bytes.toString('latin1', 0, 8)).toBe('MOSAICVI');
    expect([bytes.readUInt32LE(8), bytes.readUInt32LE(12), bytes.readUInt32LE(16)]).toEqual([1, 2, 2]);
    expect([0, 1, 2, 3].map((i) => bytes.readFloatLE(24 + i * 4))).toEqual([1, 0.5, -2, 0.25]);
    expect(bytes.length).toBe(24 + 16);
  });

  it('rejects truncated, foreign and future-version files', async () => {
    const index = createInMemoryVectorIndex({ dimension: 3 });
    await index.add(seededUnitVectors(4, 3, 5));
    const path = join(folder, 'good.bin');
    await index.save(path);
    const bytes = await readFile(path);

    const truncated = join(folder, 'truncated.bin');
    await writeFile(truncated, bytes.subarray(0, bytes.length - 4));
    await expect(loadInMemoryVectorIndex({ path: truncated })).rejects.toMatchObject({ name: 'MosaicInputError' });

    const foreign = join(folder, 'foreign.bin');
    await writeFile(foreign, Buffer.from('hello world, this is not an index'));
    await expect(loadInMemoryVectorIndex({ path: foreign })).rejects.toMatchObject({ name: 'MosaicInputError' });

    const future = join(folder, 'future.bin');
    const copy = Buffer.from(bytes);
    copy.writeUInt32LE(2, 8);
    await writeFile(future, copy);
    await expect(loadInMemoryVectorIndex({ path: future })).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field: 'formatVersion' });
  });

  it('grows storage across many small batches without losing vectors', async () => {
    const vectors = seededUnitVectors(130, 5, 6);
    const index = createInMemoryVectorIndex({ dimension: 5 });
    for (const vector of vectors) await index.add([vector]);
    expect(index.size).toBe(130);
    for (const label of [0, 64, 129]) expect((await index.search(vectors[label], 1))[0].label).toBe(label);
  });
});
