import { afterAll, describe, expect, it } from 'vitest';
import { createBm25Index } from '@mosaic/vector-index';
import { GARDEN_TEXT, MEDICAL_TEXT, NOVEL_TEXT } from '../__fixtures__/fixture-documents.js';
import { createBm25WorkerBuilder } from './bm25-in-worker.js';

const bytesOf = (parts: Uint8Array[]) => Buffer.concat(parts);

/** Sentences of the fixture texts, repeated with variations: a few hundred documents. */
function documents(): string[] {
  const sentences = [MEDICAL_TEXT, NOVEL_TEXT, GARDEN_TEXT].join(' ').split(/(?<=[.!?])\s+/);
  return Array.from({ length: 400 }, (_, i) => `${sentences[i % sentences.length]} ${sentences[(i * 7) % sentences.length]} item ${i % 13}`);
}

describe('createBm25WorkerBuilder', () => {
  const builder = createBm25WorkerBuilder({ workers: 2 });
  afterAll(() => builder.close());

  it('builds, in a worker, exactly the index createBm25Index builds here (same binary layout, same scores)', async () => {
    const texts = documents();
    const [inWorker, small] = await Promise.all([builder.build(texts), builder.build(['alpha beta', 'beta gamma'])]);
    const here = createBm25Index({ documents: texts });
    expect(bytesOf(inWorker.toBinary()).equals(bytesOf(here.toBinary()))).toBe(true);
    expect(inWorker.size).toBe(texts.length);
    for (const query of ['insulin dose', 'garden roses', 'the harbour at night', 'item 7']) {
      expect(inWorker.search(query, 20)).toEqual(here.search(query, 20));
    }
    // Fewer than wink's minimum of 3 documents: built by the TypeScript formula, also identical.
    expect(bytesOf(small.toBinary()).equals(bytesOf(createBm25Index({ documents: ['alpha beta', 'beta gamma'] }).toBinary()))).toBe(true);
  });

  it('refuses documents that are not strings, with a typed error, and keeps working', async () => {
    await expect(builder.build([1 as unknown as string, 'x'])).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
    expect((await builder.build(['one', 'two', 'three'])).size).toBe(3);
  });

  it('refuses a worker count that is not a positive integer', () => {
    expect(() => createBm25WorkerBuilder({ workers: 0 })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError', argument: 'workers' }));
  });

  it('gives the same indexes with one worker as with two (several builds in flight)', async () => {
    const one = createBm25WorkerBuilder({ workers: 1 });
    try {
      const texts = documents();
      const sets = [texts, texts.slice(0, 150), texts.slice(100).reverse()];
      const [a, b] = await Promise.all([Promise.all(sets.map((set) => one.build(set))), Promise.all(sets.map((set) => builder.build(set)))]);
      for (const [i, index] of a.entries()) expect(bytesOf(index.toBinary()).equals(bytesOf(b[i].toBinary()))).toBe(true);
    } finally {
      await one.close();
    }
  });

  it('rejects builds after close', async () => {
    const closing = createBm25WorkerBuilder();
    await closing.close();
    await expect(closing.build(['a b'])).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
  });
});
