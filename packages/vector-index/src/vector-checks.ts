import { DimensionMismatchError, InvalidArgumentError } from '@mosaic/spec';
import type { VectorHit } from '@mosaic/spec';

/** Throw InvalidArgumentError unless `dimension` is a positive integer. */
export function checkDimension(dimension: unknown): asserts dimension is number {
  if (typeof dimension !== 'number' || !Number.isInteger(dimension) || dimension < 1) {
    throw new InvalidArgumentError({ argument: 'dimension', message: `must be a positive integer, got ${String(dimension)}` });
  }
}

/** Throw InvalidArgumentError unless `k` is a non-negative integer. */
export function checkK(k: unknown): asserts k is number {
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 0) {
    throw new InvalidArgumentError({ argument: 'k', message: `must be a non-negative integer, got ${String(k)}` });
  }
}

/**
 * Check one vector: array-like, `dimension` long (else DimensionMismatchError) and finite
 * (else InvalidArgumentError).
 */
export function checkVector(vector: unknown, dimension: number, options: { argument: string; what: string }): asserts vector is Float32Array {
  if (vector === null || typeof vector !== 'object' || typeof (vector as { length?: unknown }).length !== 'number') {
    throw new InvalidArgumentError({ argument: options.argument, message: `${options.what} must be a Float32Array` });
  }
  const values = vector as ArrayLike<number>;
  if (values.length !== dimension) {
    throw new DimensionMismatchError({ expected: dimension, actual: values.length, what: options.what });
  }
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) {
      throw new InvalidArgumentError({ argument: options.argument, message: `${options.what} has a non-finite value at ${i}` });
    }
  }
}

/** Check a batch before anything is added, so a bad batch leaves the index unchanged. */
export function checkVectors(vectors: unknown, dimension: number): asserts vectors is readonly Float32Array[] {
  if (!Array.isArray(vectors)) {
    throw new InvalidArgumentError({ argument: 'vectors', message: 'must be an array of Float32Array' });
  }
  vectors.forEach((vector, i) => {
    checkVector(vector, dimension, { argument: 'vectors', what: `Vector ${i}` });
  });
}

/** Best first; equal scores by lower label first. */
export function compareHits(a: VectorHit, b: VectorHit): number {
  return b.score - a.score || a.label - b.label;
}
