import { hashingVector } from './hashing-encoder.js';

/**
 * The hashing encoder's vector (`createHashingEncoder`, `hashingVector`) as a plain array, for
 * servers that answer with JSON numbers (the OpenAI stub's embeddings). Texts that share words get a
 * positive inner product. A text without tokens maps to the first unit vector (never a zero vector).
 */
export function hashEmbedding(text: string, dimension: number): number[] {
  const vector: number[] = Array.from(hashingVector(text, dimension));
  if (!vector.some((value) => value !== 0)) vector[0] = 1;
  return vector;
}
