import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VectorHit, VectorIndex } from '@mosaic/spec';
import { afterAll, describe, expect, it } from 'vitest';
import { dot, seededUnitVectors } from './test-vectors.js';

export type VectorIndexFactory = (options: { dimension: number }) => VectorIndex | Promise<VectorIndex>;

export interface VectorIndexConformanceOptions {
  /** Shown in the suite title. */
  name: string;
  /** A fresh, empty index of the given dimension; called once per check. */
  create: VectorIndexFactory;
  /** Load what `save` wrote; when given, persistence is checked too. */
  load?: (options: { path: string; dimension?: number }) => Promise<VectorIndex>;
  /**
   * True (default) when search is exact: results must equal brute-force inner product, with ties
   * broken by lower label. False for approximate indexes, which are held to recall instead.
   */
  exact?: boolean;
  /** Minimum top-10 recall against brute force for approximate indexes. Default 0.8. */
  minimumRecall?: number;
}

const DIMENSION = 8;
const COUNT = 96;

/**
 * Vitest suite that any VectorIndex implementation should pass: empty behaviour, label order,
 * best-first scores, k clamping, typed errors for bad input (index left unchanged), determinism,
 * and (with `load`) a save/load round trip.
 */
export function runVectorIndexConformance(options: VectorIndexConformanceOptions): void {
  const { name, create: factory } = options;
  const exact = options.exact ?? true;
  const minimumRecall = options.minimumRecall ?? 0.8;
  const vectors = seededUnitVectors(COUNT, DIMENSION, 7);
  const queries = seededUnitVectors(12, DIMENSION, 11);

  describe(`VectorIndex conformance: ${name}`, () => {
    it('starts empty with its dimension and specification version', async () => {
      const index = await factory({ dimension: DIMENSION });
      expect(index.specificationVersion).toBe('v1');
      expect(index.dimension).toBe(DIMENSION);
      expect(index.size).toBe(0);
      expect(await index.search(queries[0], 5)).toEqual([]);
    });

    it('labels vectors by insertion order across batches', async () => {
      const index = await factory({ dimension: DIMENSION });
      await index.add(vectors.slice(0, 60));
      expect(index.size).toBe(60);
      await index.add([]);
      expect(index.size).toBe(60);
      await index.add(vectors.slice(60));
      expect(index.size).toBe(COUNT);
      for (const label of [0, 59, 60, COUNT - 1]) {
        const [top] = await index.search(vectors[label], 1);
        expect(top.label).toBe(label);
        expect(top.score).toBeCloseTo(1, 4);
      }
    });

    it('returns hits best first with inner-product scores', async () => {
      const index = await factory({ dimension: DIMENSION });
      await index.add(vectors);
      for (const query of queries) {
        const hits = await index.search(query, 10);
        expect(hits.length).toBeGreaterThan(0);
        expect(hits.length).toBeLessThanOrEqual(10);
        for (let i = 1; i < hits.length; i++) expect(hits[i - 1].score).toBeGreaterThanOrEqual(hits[i].score);
        for (const hit of hits) {
          expect(Number.isInteger(hit.label) && hit.label >= 0 && hit.label < COUNT).toBe(true);
          expect(hit.score).toBeCloseTo(dot(vectors[hit.label], query), 4);
        }
      }
    });

    if (exact) {
      it('matches brute force exactly', async () => {
        const index = await factory({ dimension: DIMENSION });
        await index.add(vectors);
        for (const query of queries) {
          const hits = await index.search(query, 10);
          expect(hits.map((hit) => hit.label)).toEqual(bruteForce(vectors, query, 10).map((hit) => hit.label));
        }
      });

      it('breaks score ties by lower label', async () => {
        const index = await factory({ dimension: DIMENSION });
        const [a, b] = vectors;
        await index.add([b, a, a, b, a]);
        expect((await index.search(a, 5)).map((hit) => hit.label)).toEqual([1, 2, 4, 0, 3]);
        expect((await index.search(a, 2)).map((hit) => hit.label)).toEqual([1, 2]);
      });
    } else {
      it(`reaches top-10 recall >= ${minimumRecall} against brute force`, async () => {
        const index = await factory({ dimension: DIMENSION });
        await index.add(vectors);
        let found = 0;
        for (const query of queries) {
          const truth = new Set(bruteForce(vectors, query, 10).map((hit) => hit.label));
          found += (await index.search(query, 10)).filter((hit) => truth.has(hit.label)).length;
        }
        expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(minimumRecall);
      });
    }

    it('clamps k to the size and returns nothing for k = 0', async () => {
      const index = await factory({ dimension: DIMENSION });
      await index.add(vectors.slice(0, 5));
      const all = await index.search(queries[0], 50);
      if (exact) expect(all).toHaveLength(5);
      expect(all.length).toBeLessThanOrEqual(5);
      expect(new Set(all.map((hit) => hit.label)).size).toBe(all.length);
      expect(await index.search(queries[0], 0)).toEqual([]);
    });

    it('rejects a malformed k with InvalidArgumentError', async () => {
      const index = await factory({ dimension: DIMENSION });
      await index.add(vectors.slice(0, 5));
      for (const k of [-1, 1.5, Number.NaN]) {
        await expect(index.search(queries[0], k)).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
      }
    });

    it('rejects wrong-dimension vectors with DimensionMismatchError and stays unchanged', async () => {
      const index = await factory({ dimension: DIMENSION });
      await index.add(vectors.slice(0, 4));
      await expect(index.search(new Float32Array(DIMENSION + 1), 3)).rejects.toMatchObject({
        name: 'MosaicDimensionMismatchError',
        expected: DIMENSION,
        actual: DIMENSION + 1,
      });
      await expect(index.search(new Float32Array(DIMENSION * 2), 3)).rejects.toMatchObject({ name: 'MosaicDimensionMismatchError' });
      await expect(index.add([vectors[4], new Float32Array(DIMENSION - 1)])).rejects.toMatchObject({ name: 'MosaicDimensionMismatchError' });
      expect(index.size).toBe(4);
      const [top] = await index.search(vectors[3], 1);
      expect(top.label).toBe(3);
    });

    it('rejects non-finite values with InvalidArgumentError', async () => {
      const index = await factory({ dimension: DIMENSION });
      await index.add(vectors.slice(0, 4));
      const bad = Float32Array.from(vectors[0]);
      bad[2] = Number.NaN;
      await expect(index.add([bad])).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
      await expect(index.search(bad, 2)).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
      expect(index.size).toBe(4);
    });

    it('is deterministic for identical input', async () => {
      const first = await factory({ dimension: DIMENSION });
      const second = await factory({ dimension: DIMENSION });
      await first.add(vectors);
      await second.add(vectors);
      for (const query of queries.slice(0, 4)) {
        const hits = await first.search(query, 7);
        expect(await first.search(query, 7)).toEqual(hits);
        expect(await second.search(query, 7)).toEqual(hits);
      }
    });

    const load = options.load;
    if (load) {
      const folders: string[] = [];
      const scratch = async () => {
        const folder = await mkdtemp(join(tmpdir(), 'mosaic-vector-index-'));
        folders.push(folder);
        return folder;
      };
      afterAll(async () => {
        await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
      });

      it('saves and loads with identical results, and keeps labelling after load', async () => {
        const index = await factory({ dimension: DIMENSION });
        await index.add(vectors.slice(0, 80));
        const path = join(await scratch(), 'nested', 'index.bin');
        await index.save(path);
        const loaded = await load({ path, dimension: DIMENSION });
        expect(loaded.dimension).toBe(DIMENSION);
        expect(loaded.size).toBe(80);
        for (const query of queries.slice(0, 4)) {
          const expected = await index.search(query, 6);
          const actual = await loaded.search(query, 6);
          expect(actual.map((hit) => hit.label)).toEqual(expected.map((hit) => hit.label));
          actual.forEach((hit, i) => {
            expect(hit.score).toBeCloseTo(expected[i].score, 5);
          });
        }
        await loaded.add(vectors.slice(80));
        expect(loaded.size).toBe(COUNT);
        expect((await loaded.search(vectors[90], 1))[0].label).toBe(90);
      });

      it('refuses to load with another dimension (IndexMismatchError) or a missing file (InputError)', async () => {
        const index = await factory({ dimension: DIMENSION });
        await index.add(vectors.slice(0, 10));
        const folder = await scratch();
        const path = join(folder, 'index.bin');
        await index.save(path);
        await expect(load({ path, dimension: DIMENSION + 2 })).rejects.toMatchObject({ name: 'MosaicIndexMismatchError', field: 'dimension' });
        await expect(load({ path: join(folder, 'missing.bin'), dimension: DIMENSION })).rejects.toMatchObject({ name: 'MosaicInputError' });
        const loaded = await load({ path });
        expect(loaded.dimension).toBe(DIMENSION);
        await expect(loaded.search(new Float32Array(DIMENSION + 1), 1)).rejects.toMatchObject({ name: 'MosaicDimensionMismatchError' });
      });
    }
  });
}

function bruteForce(vectors: readonly Float32Array[], query: Float32Array, k: number): VectorHit[] {
  return vectors
    .map((vector, label) => ({ label, score: dot(vector, query) }))
    .sort((a, b) => b.score - a.score || a.label - b.label)
    .slice(0, k);
}
