import { defaultPolicy } from '@mosaic/policy-schema';
import type { Policy } from '@mosaic/spec';

/** Test helper: the Table 3 defaults (from @mosaic/policy-schema) with overrides. */
export function makePolicy(overrides: Partial<Policy> = {}): Policy {
  return { ...defaultPolicy(), ...overrides };
}
