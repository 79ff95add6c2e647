/**
 * A deterministic bag-of-words embedding: every lowercase `[a-z0-9]+` token is hashed
 * (FNV-1a) to one dimension with a hashed sign, and the sum is L2-normalised. Texts that
 * share words get a positive inner product, so retrieval tests behave sensibly without a
 * model. An empty text maps to the first unit vector.
 */
export function hashEmbedding(text: string, dimension: number): number[] {
  const vector = new Array<number>(dimension).fill(0);
  for (const token of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const hash = fnv1a(token);
    const sign = (hash >>> 31) & 1 ? -1 : 1;
    vector[hash % dimension] += sign;
  }
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  if (norm === 0) {
    vector[0] = 1;
    return vector;
  }
  return vector.map((value) => value / norm);
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
