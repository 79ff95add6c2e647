import type { StopRegime } from '@mosaic/spec';

/**
 * Low-gain thresholds ε_r of the cumulative-gain stopping rule, equation (9) (report §5.5), per
 * stop regime. The traversal stops on them, policy-schema publishes them, the explorer explains
 * stops with them: one source.
 */
export const STOP_THRESHOLDS: Readonly<Record<StopRegime, number>> = Object.freeze({
  shallow: 5.0,
  medium: 0.35,
  deep: 0.24,
});

/** Minimum cumulative completeness c_d before a low-gain stop may fire (report §5.5). */
export const STOP_MIN_COMPLETENESS = 0.35;
