/** Seeded (mulberry32) random unit vectors for tests. */
export function seededUnitVectors(count: number, dimension: number, seed: number): Float32Array[] {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: count }, () => {
    const vector = Float32Array.from({ length: dimension }, () => next() - 0.5);
    const norm = Math.hypot(...vector);
    return vector.map((value) => value / norm);
  });
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}
