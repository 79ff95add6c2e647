import { InvalidArgumentError } from '@mosaic/spec';

/**
 * The `tuning` object of a factory's options, checked: undefined or a plain object whose keys are
 * all in `keys` (else InvalidArgumentError naming `tuning.<key>`), and none of `keys` given at the
 * top level of `options`, where the tuned options were before they moved under `tuning` (else
 * InvalidArgumentError saying where the key went). A JavaScript caller's misplaced or misspelled
 * tuning option fails instead of being ignored.
 */
export function checkTuning<T extends object>(options: object, keys: readonly (keyof T & string)[]): Partial<T> {
  for (const key of keys) {
    if (Object.hasOwn(options, key)) throw new InvalidArgumentError({ argument: key, message: `is a tuning option: pass it as tuning.${key}` });
  }
  const tuning = (options as { tuning?: unknown }).tuning;
  if (tuning === undefined) return {};
  if (tuning === null || typeof tuning !== 'object' || Array.isArray(tuning)) {
    throw new InvalidArgumentError({ argument: 'tuning', message: 'must be an object' });
  }
  const known = new Set<string>(keys);
  for (const key of Object.keys(tuning)) {
    if (!known.has(key)) throw new InvalidArgumentError({ argument: `tuning.${key}`, message: `is not a tuning option (${keys.join(', ')})` });
  }
  return tuning as Partial<T>;
}
