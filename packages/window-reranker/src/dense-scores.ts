import { DimensionMismatchError, throwIfAborted } from '@mosaic/spec';
import type { AbortOptions, CorpusIndex, SourceWindow } from '@mosaic/spec';

/** Where the dense scores came from. */
export type DenseSource = 'window-vector' | 'window-index' | 'encoded' | 'none';

export interface DenseScores {
  /** Cosine similarity per window id. */
  scores: Map<string, number>;
  source: DenseSource;
  /** Windows that had no stored vector and were encoded at query time (an incomplete index). */
  encoded: number;
}

/** Cosine similarity; 0 when either vector is all zeros. */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new DimensionMismatchError({ expected: a.length, actual: b.length, what: 'Window vector' });
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

function normalised(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const v of vector) norm += v * v;
  if (norm === 0) return vector;
  const out = new Float32Array(vector.length);
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < vector.length; i += 1) out[i] = vector[i] * scale;
  return out;
}

/**
 * Cosine similarity between the question vector and each window's precomputed vector.
 *
 * Fast path: `index.windowVector(id)` (one dot product per candidate, O(candidates · d)).
 * Otherwise one exhaustive `index.windowIndex.search(queryVector, size)` whose hits are mapped to window
 * ids through `index.windowIds` (inner product = cosine for the normalised vectors an index stores);
 * O(windows · d) but a single call into the vector index, cheaper than re-encoding candidates.
 * A window with neither (an incomplete index, or a window cut at query time) is encoded with `index.encoder`.
 */
export async function denseScores(
  options: {
    index: CorpusIndex;
    queryVector: Float32Array;
    windows: readonly SourceWindow[];
    /** False for windows cut at query time: they have no stored vector and are encoded directly. */
    precomputed?: boolean;
  } & AbortOptions,
): Promise<DenseScores> {
  const { index, windows, abortSignal } = options;
  const scores = new Map<string, number>();
  if (windows.length === 0) return { scores, source: 'none', encoded: 0 };
  const dimension = index.windowIndex.dimension;
  if (options.queryVector.length !== dimension) {
    throw new DimensionMismatchError({ expected: dimension, actual: options.queryVector.length, what: 'Query vector' });
  }
  const query = normalised(options.queryVector);
  const missing: SourceWindow[] = [];
  let source: DenseSource;
  if (options.precomputed === false) {
    source = 'encoded';
    missing.push(...windows);
  } else if (index.windowVector) {
    source = 'window-vector';
    for (const window of windows) {
      const vector = index.windowVector(window.id);
      if (vector) scores.set(window.id, cosine(query, vector));
      else missing.push(window);
    }
  } else {
    source = 'window-index';
    const wanted = new Set(windows.map((window) => window.id));
    const hits = await index.windowIndex.search(query, index.windowIndex.size);
    throwIfAborted(abortSignal, 'rerank');
    for (const hit of hits) {
      if (hit.label < 0) continue;
      const id = index.windowIds[hit.label];
      if (id !== undefined && wanted.has(id)) scores.set(id, hit.score);
    }
    for (const window of windows) if (!scores.has(window.id)) missing.push(window);
  }
  if (missing.length > 0) {
    const vectors = await index.encoder.encode(
      missing.map((window) => window.text),
      { abortSignal },
    );
    throwIfAborted(abortSignal, 'rerank');
    missing.forEach((window, i) => {
      scores.set(window.id, cosine(query, vectors[i]));
    });
  }
  return { scores, source, encoded: missing.length };
}
