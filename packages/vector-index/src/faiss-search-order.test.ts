import { describe, expect, it } from 'vitest';
import { createFaissVectorIndex } from './faiss-vector-index.js';
import { seededUnitVectors } from './test-vectors.js';
import { compareHits } from './vector-checks.js';

const DIMENSION = 8;

describe('FaissVectorIndex search order (performance: faiss order kept, only tie runs reordered)', () => {
  it('equals sorting every hit by score, then label, with long runs of exact ties', async () => {
    const base = seededUnitVectors(6, DIMENSION, 11);
    // 600 vectors drawn from 6 distinct ones: every score occurs about 100 times.
    const vectors = Array.from({ length: 600 }, (_, i) => base[(i * 7) % 6]);
    const index = createFaissVectorIndex({ dimension: DIMENSION });
    await index.add(vectors);
    for (const query of [...seededUnitVectors(5, DIMENSION, 12), new Float32Array(DIMENSION)]) {
      for (const k of [1, 7, 150, 600]) {
        const hits = await index.search(query, k);
        expect(hits).toHaveLength(k);
        // (Which tied hits make the cut at k is faiss's choice; their order is ours.)
        expect(hits).toEqual([...hits].sort(compareHits));
      }
    }
    // A zero query ties everything at 0: labels in order.
    const zero = await index.search(new Float32Array(DIMENSION), 600);
    expect(zero.map((hit) => hit.label)).toEqual(Array.from({ length: 600 }, (_, i) => i));
  });
});
