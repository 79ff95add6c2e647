import { InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type { AbortOptions, Encoder } from '@mosaic/spec';
import { matchTokens } from '@mosaic/stage-utils';

// The one hashing encoder of the tests (the fixture index's vectors, the OpenAI stub's embeddings,
// @mosaic/indexing's build tests): real, tiny and deterministic, no model.

/**
 * The tokens the hashing encoder counts: the matching tokens of @mosaic/stage-utils (lower-case
 * runs of letters/digits, English stop words removed, light suffix stemming).
 */
export const hashingTokens: (text: string) => string[] = matchTokens;

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  // murmur3 finaliser: spreads the weak low bits of FNV-1a before the modulo.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/**
 * The vector of one text: feature hashing of its `hashingTokens` (FNV-1a with a murmur3 finaliser,
 * weight 1 + ln tf), L2-normalised; the zero vector for a text without tokens.
 */
export function hashingVector(text: string, dimension: number): Float32Array {
  const counts = new Map<number, number>();
  for (const token of hashingTokens(text)) {
    const slot = fnv1a(token) % dimension;
    counts.set(slot, (counts.get(slot) ?? 0) + 1);
  }
  const vector = new Float32Array(dimension);
  let norm = 0;
  for (const [slot, count] of counts) {
    const weight = 1 + Math.log(count);
    vector[slot] = weight;
    norm += weight * weight;
  }
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < dimension; i += 1) vector[i] *= scale;
  }
  return vector;
}

export interface HashingEncoderOptions {
  /** Vector length (default 256). */
  dimension?: number;
}

/**
 * A real, tiny, deterministic Encoder: feature hashing of a bag of `hashingTokens` (FNV-1a with
 * a murmur3 finaliser, unsigned, weight 1 + ln tf), L2-normalised. Texts sharing words have positive cosine; texts
 * without tokens map to the zero vector (cosine 0 with everything).
 */
export function createHashingEncoder(options: HashingEncoderOptions = {}): Encoder {
  const dimension = options.dimension ?? 256;
  if (!Number.isInteger(dimension) || dimension < 1) {
    throw new InvalidArgumentError({ argument: 'dimension', message: 'must be a positive integer' });
  }
  return {
    specificationVersion: 'v1',
    id: `hashing:${dimension}`,
    dimension,
    async encode(texts: readonly string[], encodeOptions?: AbortOptions): Promise<Float32Array[]> {
      throwIfAborted(encodeOptions?.abortSignal, 'encode');
      return texts.map((text) => hashingVector(String(text), dimension));
    },
  };
}
