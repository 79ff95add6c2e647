import { FIXED_POLICY_NAMES, POLICY_RANGES, defaultPolicy, fixedPolicy, type FixedPolicyName } from '@mosaic/policy-schema';
import { InvalidArgumentError } from '@mosaic/spec';
import type { Analysis, Policy } from '@mosaic/spec';

/** A policy forced on every question instead of asking the analyzer: a Table 6 name or a (partial) policy. */
export type PolicyChoice = FixedPolicyName | Partial<Policy>;

const POSITIVE_INTEGERS = ['seedLimit', 'maxDepth', 'beamWidth', 'evidenceCount'] as const;

/**
 * The Analysis of a forced policy: a fixed baseline by name (analyzer 'fixed:<name>'), or a policy object
 * whose missing fields take the Table 3 defaults (analyzer 'fixed:custom'). Like the Table 6 baselines, a
 * forced policy may leave the analyzer's ranges (e.g. width 16); values that cannot execute (non-integer
 * or non-positive budgets, unknown modes, anchor strength outside [0, 1]) throw InvalidArgumentError.
 */
export function forcedAnalysis(choice: PolicyChoice): Analysis {
  if (typeof choice === 'string') {
    if (!(FIXED_POLICY_NAMES as readonly string[]).includes(choice)) {
      throw new InvalidArgumentError({ argument: 'policy', message: `unknown fixed policy '${choice}' (${FIXED_POLICY_NAMES.join(', ')})` });
    }
    return { policy: fixedPolicy(choice), changes: [], analyzer: `fixed:${choice}`, latencyMs: 0 };
  }
  if (typeof choice !== 'object' || choice === null) {
    throw new InvalidArgumentError({ argument: 'policy', message: 'must be a fixed policy name or a policy object' });
  }
  const defaults = defaultPolicy();
  const changes: Analysis['changes'] = [];
  for (const key of Object.keys(defaults) as (keyof Policy)[]) {
    if (choice[key] === undefined)
      changes.push({ field: key, kind: 'defaulted', received: undefined, used: defaults[key], reason: 'not set in the forced policy' });
  }
  const policy: Policy = { ...defaults, ...stripUndefined(choice) };
  checkExecutable(policy);
  return { policy, changes, analyzer: 'fixed:custom', latencyMs: 0 };
}

function stripUndefined(choice: Partial<Policy>): Partial<Policy> {
  return Object.fromEntries(Object.entries(choice).filter(([, value]) => value !== undefined)) as Partial<Policy>;
}

function checkExecutable(policy: Policy): void {
  const fail = (field: string, message: string): never => {
    throw new InvalidArgumentError({ argument: `policy.${field}`, message });
  };
  for (const field of POSITIVE_INTEGERS) {
    if (!Number.isInteger(policy[field]) || policy[field] < 1) fail(field, `must be a positive integer, got ${String(policy[field])}`);
  }
  if (!Number.isInteger(policy.minEvidence) || policy.minEvidence < 0) fail('minEvidence', `must be a non-negative integer, got ${String(policy.minEvidence)}`);
  if (!(policy.anchorStrength >= 0 && policy.anchorStrength <= 1)) fail('anchorStrength', `must lie in [0, 1], got ${String(policy.anchorStrength)}`);
  for (const field of ['seedQueryMode', 'selectionMode', 'stopRegime'] as const) {
    const allowed = POLICY_RANGES[field].values as readonly string[];
    if (!allowed.includes(policy[field])) fail(field, `must be one of ${allowed.join(', ')}, got ${String(policy[field])}`);
  }
  for (const field of ['useConnector', 'adaptiveFinalEvidence'] as const) {
    if (typeof policy[field] !== 'boolean') fail(field, `must be a boolean, got ${String(policy[field])}`);
  }
}
