import type { Policy, PolicyControls, PolicyDiagnostics, SelectionMode, SeedQueryMode, StopRegime } from '@mosaic/spec';

/** A bounded numeric control. */
export interface NumericRange {
  kind: 'integer' | 'real';
  min: number;
  max: number;
  default: number;
}

/** A categorical control with its allowlist. */
export interface CategoricalRange<T extends string> {
  kind: 'categorical';
  values: readonly T[];
  default: T;
}

/** A boolean control. */
export interface BooleanRange {
  kind: 'boolean';
  default: boolean;
}

/** The valid values of every control (report Table 3). */
export interface PolicyRanges {
  seedLimit: NumericRange;
  seedQueryMode: CategoricalRange<SeedQueryMode>;
  selectionMode: CategoricalRange<SelectionMode>;
  maxDepth: NumericRange;
  beamWidth: NumericRange;
  anchorStrength: NumericRange;
  useConnector: BooleanRange;
  stopRegime: CategoricalRange<StopRegime>;
  evidenceCount: NumericRange;
  minEvidence: NumericRange;
  adaptiveFinalEvidence: BooleanRange;
}

/** Report Table 3: valid values and defaults of the analyzer-facing controls. */
export const POLICY_RANGES: Readonly<PolicyRanges> = Object.freeze({
  seedLimit: { kind: 'integer', min: 1, max: 15, default: 7 },
  seedQueryMode: { kind: 'categorical', values: ['full', 'compact', 'per-target'], default: 'full' },
  selectionMode: { kind: 'categorical', values: ['relation-only', 'hybrid'], default: 'relation-only' },
  maxDepth: { kind: 'integer', min: 2, max: 5, default: 3 },
  beamWidth: { kind: 'integer', min: 4, max: 12, default: 8 },
  anchorStrength: { kind: 'real', min: 0, max: 1, default: 0 },
  useConnector: { kind: 'boolean', default: false },
  stopRegime: { kind: 'categorical', values: ['shallow', 'medium', 'deep'], default: 'shallow' },
  evidenceCount: { kind: 'integer', min: 5, max: 18, default: 8 },
  minEvidence: { kind: 'integer', min: 1, max: 12, default: 3 },
  adaptiveFinalEvidence: { kind: 'boolean', default: false },
} satisfies PolicyRanges);

/** Control names in Table 3 order. */
export const CONTROL_FIELDS = Object.freeze([
  'seedLimit',
  'seedQueryMode',
  'selectionMode',
  'maxDepth',
  'beamWidth',
  'anchorStrength',
  'useConnector',
  'stopRegime',
  'evidenceCount',
  'minEvidence',
  'adaptiveFinalEvidence',
] as const satisfies readonly (keyof PolicyControls)[]);

/** The controls of a policy (its diagnostics left out), as a new object. */
export function policyControls(policy: PolicyControls): PolicyControls {
  const controls: Partial<Record<keyof PolicyControls, unknown>> = {};
  for (const field of CONTROL_FIELDS) controls[field] = policy[field];
  return controls as PolicyControls;
}

/** Length bounds of a diagnostic field (characters per string, items per list). */
export interface DiagnosticLimit {
  kind: 'string' | 'string-list';
  /** Maximum characters of the string (or of each item). */
  maxLength: number;
  /** Maximum items (lists only). */
  maxItems?: number;
}

/** Our choice: bounds that keep diagnostics small enough for logs and prompts. */
export const DIAGNOSTIC_LIMITS: Readonly<Record<keyof PolicyDiagnostics, DiagnosticLimit>> = Object.freeze({
  targetEntities: { kind: 'string-list', maxLength: 120, maxItems: 8 },
  targetFacets: { kind: 'string-list', maxLength: 60, maxItems: 8 },
  retrievalRisk: { kind: 'string', maxLength: 400 },
  rationale: { kind: 'string', maxLength: 1200 },
  compactQuery: { kind: 'string', maxLength: 300 },
  perTargetQueries: { kind: 'string-list', maxLength: 200, maxItems: 8 },
});

/** Diagnostic names in declaration order. */
export const DIAGNOSTIC_FIELDS = Object.freeze([
  'targetEntities',
  'targetFacets',
  'retrievalRisk',
  'rationale',
  'compactQuery',
  'perTargetQueries',
] as const satisfies readonly (keyof PolicyDiagnostics)[]);

/** The stop thresholds of equation (9), from @mosaic/stage-utils (the traversal's source too). */
export { STOP_MIN_COMPLETENESS, STOP_THRESHOLDS } from '@mosaic/stage-utils/internal';

/** An empty list frozen at run time (pushing to it throws), typed as the Policy's lists are. */
function frozenEmptyList(): string[] {
  const list: string[] = [];
  Object.freeze(list);
  return list;
}

/** The default controls of Table 3 with empty diagnostics. */
export const DEFAULT_POLICY: Readonly<Policy> = Object.freeze({
  seedLimit: POLICY_RANGES.seedLimit.default,
  seedQueryMode: POLICY_RANGES.seedQueryMode.default,
  selectionMode: POLICY_RANGES.selectionMode.default,
  maxDepth: POLICY_RANGES.maxDepth.default,
  beamWidth: POLICY_RANGES.beamWidth.default,
  anchorStrength: POLICY_RANGES.anchorStrength.default,
  useConnector: POLICY_RANGES.useConnector.default,
  stopRegime: POLICY_RANGES.stopRegime.default,
  evidenceCount: POLICY_RANGES.evidenceCount.default,
  minEvidence: POLICY_RANGES.minEvidence.default,
  adaptiveFinalEvidence: POLICY_RANGES.adaptiveFinalEvidence.default,
  targetEntities: frozenEmptyList(),
  targetFacets: frozenEmptyList(),
  retrievalRisk: '',
  rationale: '',
  compactQuery: '',
  perTargetQueries: frozenEmptyList(),
});

/** A fresh, mutable copy of the default policy. */
export function defaultPolicy(): Policy {
  return {
    ...DEFAULT_POLICY,
    targetEntities: [],
    targetFacets: [],
    perTargetQueries: [],
  };
}
