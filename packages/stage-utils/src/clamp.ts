/** `value` clamped to [0, 1]; NaN, ±Infinity below 0 and negatives give 0. Scores and similarities use it. */
export function clamp01(value: number): number {
  if (!Number.isFinite(value) || value <= 0) return 0;
  return value >= 1 ? 1 : value;
}
