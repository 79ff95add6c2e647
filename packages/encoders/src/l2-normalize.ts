/**
 * Scale a vector to unit L2 length, in place, and return it. A zero vector stays zero
 * (its cosine with anything is 0) instead of becoming NaN.
 */
export function l2Normalize(vector: Float32Array): Float32Array {
  let sumOfSquares = 0;
  for (let index = 0; index < vector.length; index += 1) sumOfSquares += vector[index] * vector[index];
  if (sumOfSquares > 0) {
    const scale = 1 / Math.sqrt(sumOfSquares);
    for (let index = 0; index < vector.length; index += 1) vector[index] *= scale;
  }
  return vector;
}
