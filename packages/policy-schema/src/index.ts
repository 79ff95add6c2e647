export {
  POLICY_RANGES,
  CONTROL_FIELDS,
  DIAGNOSTIC_FIELDS,
  DIAGNOSTIC_LIMITS,
  STOP_THRESHOLDS,
  STOP_MIN_COMPLETENESS,
  policyControls,
  DEFAULT_POLICY,
  defaultPolicy,
  type PolicyRanges,
  type NumericRange,
  type CategoricalRange,
  type BooleanRange,
  type DiagnosticLimit,
} from './policy-ranges.js';
export { policyControlsSchema, policyDiagnosticsSchema, policySchema, type PolicySchemaOutput } from './policy-schema.js';
export { validatePolicy, substantiveChanges, type PolicyValidation } from './validate-policy.js';
export { FIXED_POLICIES, FIXED_POLICY_NAMES, fixedPolicy, type FixedPolicyName } from './fixed-policies.js';
export { policyJsonSchema, type PolicyJsonSchemaOptions } from './policy-json-schema.js';
export { renderValue } from './render-value.js';
