import { STOP_MIN_COMPLETENESS, STOP_THRESHOLDS } from '@mosaic/stage-utils/internal';
import { DEFAULT_STOP_THRESHOLDS } from '@mosaic/traversal';
import { describe, expect, it } from 'vitest';

// The explorer explains the traversal's stops with the thresholds of @mosaic/stage-utils; this
// holds it to the values the traversal stops on by default.
describe('stop thresholds the explorer explains with', () => {
  it('are the traversal defaults', () => {
    expect(DEFAULT_STOP_THRESHOLDS).toEqual(STOP_THRESHOLDS);
    expect(STOP_MIN_COMPLETENESS).toBe(0.35);
  });
});
