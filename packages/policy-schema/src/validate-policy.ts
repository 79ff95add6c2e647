import type { Policy, ValidationChange } from '@mosaic/spec';
import {
  CONTROL_FIELDS,
  DIAGNOSTIC_FIELDS,
  DIAGNOSTIC_LIMITS,
  POLICY_RANGES,
  defaultPolicy,
  type BooleanRange,
  type CategoricalRange,
  type DiagnosticLimit,
  type NumericRange,
} from './policy-ranges.js';
import { renderValue, truncate } from './render-value.js';

/** The validated policy and every change made on the way. */
export interface PolicyValidation {
  policy: Policy;
  /** One entry per changed field; `kind: 'defaulted'` marks a missing field that took its default. */
  changes: ValidationChange[];
}

/** Number-like strings we coerce: plain decimal notation only ("4", " 0.5 ", "1e1"); not hex, not empty. */
const NUMERIC_STRING = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
/** The report's own wording of the seed-query modes, accepted as aliases. */
const CATEGORICAL_ALIASES: Record<string, string> = {
  'full-query': 'full',
  'compact-keywords': 'compact',
  'per-target-keywords': 'per-target',
};
/** Items of a diagnostic list examined at most (the rest are dropped unread). */
const MAX_LIST_SCAN = 1000;
/** Unknown keys reported one by one before they are summarised in one change. */
const MAX_UNKNOWN_REPORTED = 20;
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it removes
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

type Field = keyof Policy;
const ALL_FIELDS: readonly Field[] = [...CONTROL_FIELDS, ...DIAGNOSTIC_FIELDS];
const SNAKE_ALIASES = new Map<string, Field>(ALL_FIELDS.map((f) => [f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), f]));

/**
 * Validate raw analyzer output into a complete policy (report §"Validation").
 *
 * - missing field → default (`defaulted`)
 * - number outside its range → clamped (`clamped`); integers are rounded (`coerced` when only rounding changed it)
 * - NaN, ±Infinity, booleans, objects for a number → default (`rejected`)
 * - decimal strings such as "4" or "0.5" → parsed (`coerced`, then clamped if needed)
 * - categorical value outside the allowlist → default (`rejected`); case, spaces and '_' are normalised
 *   first (`coerced`), and the report's wording ("full query", "per-target keywords") is accepted
 * - booleans: true/false; the strings "true"/"false" (any case) → `coerced`; anything else → default
 * - snake_case names of known fields (`seed_limit`) → `coerced` onto the camelCase field
 * - unknown fields → `dropped`
 * - diagnostics: non-strings dropped, control characters removed, whitespace collapsed, strings and
 *   lists capped to DIAGNOSTIC_LIMITS, duplicate list items dropped
 * - cross-field: minEvidence is clamped to evidenceCount; 'per-target' without queries uses the
 *   target entities (or falls back to 'full'); 'compact' without a compact query likewise
 *
 * Never throws, whatever the input.
 */
export function validatePolicy(raw: unknown): PolicyValidation {
  try {
    return validate(raw);
  } catch (error) {
    return {
      policy: defaultPolicy(),
      changes: [
        {
          field: '$',
          kind: 'rejected',
          received: renderValue(raw),
          used: 'defaults',
          reason: `validation could not read the input (${errorName(error)}); all defaults used`,
        },
      ],
    };
  }
}

/** Changes other than plain defaults for missing fields (what the analyzer got wrong). */
export function substantiveChanges(changes: readonly ValidationChange[]): ValidationChange[] {
  return changes.filter((c) => c.kind !== 'defaulted');
}

type FieldEntry = { value: unknown; alias?: string };

function validate(raw: unknown): PolicyValidation {
  const changes: ValidationChange[] = [];
  const policy = defaultPolicy();
  let source: Record<string, unknown> = {};
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    source = raw as Record<string, unknown>;
  } else {
    changes.push({
      field: '$',
      kind: 'rejected',
      received: renderValue(raw),
      used: 'defaults',
      reason: 'analyzer output is not a JSON object; every field takes its default',
    });
  }
  const values = readFields(source, changes);
  validateControls(policy, values, changes);
  sanitizeDiagnostics(policy, values, changes);
  applyCrossFieldRules(policy, changes);
  return { policy, changes };
}

/** The known fields of the source (camelCase, or their snake_case alias); unknown fields are reported as dropped. */
function readFields(source: Record<string, unknown>, changes: ValidationChange[]): Map<Field, FieldEntry> {
  const keys = ownKeys(source);
  const known = new Set<string>(ALL_FIELDS);
  const values = new Map<Field, FieldEntry>();
  for (const field of ALL_FIELDS) if (keys.has(field)) values.set(field, { value: read(source, field) });
  let unknownCount = 0;
  for (const key of keys) {
    if (known.has(key)) continue;
    const aliased = SNAKE_ALIASES.get(key);
    if (aliased && !values.has(aliased)) {
      values.set(aliased, { value: read(source, key), alias: key });
      continue;
    }
    unknownCount++;
    if (unknownCount <= MAX_UNKNOWN_REPORTED) {
      changes.push({
        field: truncate(key, 80),
        kind: 'dropped',
        received: renderValue(read(source, key)),
        used: undefined,
        reason: aliased ? `duplicate of '${aliased}' (the camelCase field wins)` : 'unknown field',
      });
    }
  }
  if (unknownCount > MAX_UNKNOWN_REPORTED) {
    changes.push({
      field: '$',
      kind: 'dropped',
      received: unknownCount - MAX_UNKNOWN_REPORTED,
      used: undefined,
      reason: `${unknownCount - MAX_UNKNOWN_REPORTED} further unknown fields dropped`,
    });
  }
  return values;
}

/**
 * The entry of a field, after recording how it was read: a missing field is 'defaulted' (to
 * `defaultUsed`) and gives undefined; a snake_case name is recorded as 'coerced'.
 */
function presentEntry(field: Field, entry: FieldEntry | undefined, defaultUsed: unknown, changes: ValidationChange[]): FieldEntry | undefined {
  if (!entry) {
    changes.push({ field, kind: 'defaulted', received: undefined, used: defaultUsed, reason: 'missing; default used' });
    return undefined;
  }
  if (entry.alias) {
    changes.push({
      field,
      kind: 'coerced',
      received: entry.alias,
      used: field,
      reason: `snake_case name '${entry.alias}' read as '${field}'`,
    });
  }
  return entry;
}

/** Every control checked against its range (Table 3): clamped, coerced or rejected to the default. */
function validateControls(policy: Policy, values: ReadonlyMap<Field, FieldEntry>, changes: ValidationChange[]): void {
  for (const field of CONTROL_FIELDS) {
    const entry = presentEntry(field, values.get(field), policy[field], changes);
    if (!entry) continue;
    const range = POLICY_RANGES[field];
    const outcome =
      range.kind === 'categorical' ? categorical(entry.value, range) : range.kind === 'boolean' ? boolean(entry.value, range) : numeric(entry.value, range);
    Object.assign(policy, { [field]: outcome.value }); // checked against the field's range above
    if (outcome.kind) {
      changes.push({ field, kind: outcome.kind, received: renderValue(entry.value), used: outcome.value, reason: outcome.reason });
    }
  }
}

/** Every diagnostic bounded to its length limits. */
function sanitizeDiagnostics(policy: Policy, values: ReadonlyMap<Field, FieldEntry>, changes: ValidationChange[]): void {
  for (const field of DIAGNOSTIC_FIELDS) {
    const entry = presentEntry(field, values.get(field), renderValue(policy[field]), changes);
    if (!entry) continue;
    const limit = DIAGNOSTIC_LIMITS[field];
    const value = limit.kind === 'string' ? sanitizeString(field, entry.value, limit, changes) : sanitizeList(field, entry.value, limit, changes);
    Object.assign(policy, { [field]: value });
  }
}

function applyCrossFieldRules(policy: Policy, changes: ValidationChange[]): void {
  if (policy.minEvidence > policy.evidenceCount) {
    changes.push({
      field: 'minEvidence',
      kind: 'clamped',
      received: policy.minEvidence,
      used: policy.evidenceCount,
      reason: `floor L (${policy.minEvidence}) cannot exceed the evidence cap B (${policy.evidenceCount})`,
    });
    policy.minEvidence = policy.evidenceCount;
  }
  if (policy.seedQueryMode === 'per-target' && policy.perTargetQueries.length === 0) {
    queryFromTargets(policy, changes, {
      field: 'perTargetQueries',
      received: [],
      fill: () => {
        policy.perTargetQueries = policy.targetEntities.slice(0, DIAGNOSTIC_LIMITS.perTargetQueries.maxItems);
        return [...policy.perTargetQueries];
      },
      coerced: "'per-target' mode without per-target queries; the target entities are used as queries",
      rejected: "'per-target' mode needs per-target queries or target entities; none given",
    });
  }
  if (policy.seedQueryMode === 'compact' && policy.compactQuery === '') {
    queryFromTargets(policy, changes, {
      field: 'compactQuery',
      received: '',
      fill: () => {
        policy.compactQuery = truncate(policy.targetEntities.join(' '), DIAGNOSTIC_LIMITS.compactQuery.maxLength);
        return policy.compactQuery;
      },
      coerced: "'compact' mode without a compact query; the target entities are joined",
      rejected: "'compact' mode needs a compact query or target entities; none given",
    });
  }
}

/**
 * A seed query mode whose query is missing: filled from the target entities ('coerced'), or,
 * without targets, the mode falls back to 'full' ('rejected').
 */
function queryFromTargets(
  policy: Policy,
  changes: ValidationChange[],
  rule: { field: 'perTargetQueries' | 'compactQuery'; received: unknown; fill: () => unknown; coerced: string; rejected: string },
): void {
  if (policy.targetEntities.length > 0) {
    const used = rule.fill();
    changes.push({ field: rule.field, kind: 'coerced', received: rule.received, used, reason: rule.coerced });
    return;
  }
  const mode = policy.seedQueryMode;
  policy.seedQueryMode = 'full';
  changes.push({ field: 'seedQueryMode', kind: 'rejected', received: mode, used: 'full', reason: rule.rejected });
}

interface Outcome<T> {
  value: T;
  kind?: ValidationChange['kind'];
  reason: string;
}

function numeric(value: unknown, range: NumericRange): Outcome<number> {
  let n: number;
  let coerced = false;
  if (typeof value === 'number') {
    n = value;
  } else if (typeof value === 'string' && NUMERIC_STRING.test(value.trim())) {
    n = Number(value.trim());
    coerced = true;
  } else {
    return { value: range.default, kind: 'rejected', reason: `expected a number, got ${describeType(value)}; default used` };
  }
  if (!Number.isFinite(n)) {
    return { value: range.default, kind: 'rejected', reason: `${String(n)} is not a finite number; default used` };
  }
  let v = n;
  let rounded = false;
  if (range.kind === 'integer') {
    v = Math.round(n);
    rounded = v !== n;
  }
  const clamped = Math.min(range.max, Math.max(range.min, v));
  const result = clamped === 0 ? 0 : clamped; // normalise -0
  const notes: string[] = [];
  if (coerced) notes.push('parsed from a string');
  if (rounded) notes.push('rounded to an integer');
  if (clamped !== v) {
    notes.push(`${v} is outside ${range.min}–${range.max}`);
    return { value: result, kind: 'clamped', reason: `${notes.join('; ')}; clamped to ${result}` };
  }
  if (notes.length > 0) return { value: result, kind: 'coerced', reason: notes.join('; ') };
  return { value: result, reason: '' };
}

function categorical<T extends string>(value: unknown, range: CategoricalRange<T>): Outcome<T> {
  if (typeof value !== 'string') {
    return { value: range.default, kind: 'rejected', reason: `expected one of ${range.values.join(', ')}, got ${describeType(value)}; default used` };
  }
  if ((range.values as readonly string[]).includes(value)) return { value: value as T, reason: '' };
  const normalised = value
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  const candidate = CATEGORICAL_ALIASES[normalised] ?? normalised;
  if ((range.values as readonly string[]).includes(candidate)) {
    return { value: candidate as T, kind: 'coerced', reason: `'${truncate(value, 40)}' normalised to '${candidate}'` };
  }
  return {
    value: range.default,
    kind: 'rejected',
    reason: `'${truncate(value, 40)}' is not one of ${range.values.join(', ')}; default used`,
  };
}

function boolean(value: unknown, range: BooleanRange): Outcome<boolean> {
  if (typeof value === 'boolean') return { value, reason: '' };
  if (typeof value === 'string') {
    const s = value.trim().toLowerCase();
    if (s === 'true' || s === 'false') return { value: s === 'true', kind: 'coerced', reason: `string '${s}' read as a boolean` };
  }
  return { value: range.default, kind: 'rejected', reason: `expected a boolean, got ${describeType(value)}; default used` };
}

/** Control characters removed, whitespace collapsed; `cut` when the input was too long to clean whole. */
function cleanText(value: string, maxLength: number): { text: string; cut: boolean } {
  // Bound the work on huge inputs before the regexes run; the result is capped to maxLength anyway.
  const bound = maxLength * 4 + 64;
  const cut = value.length > bound;
  const head = cut ? value.slice(0, bound) : value;
  return { text: head.replace(CONTROL_CHARS, ' ').replace(/\s+/g, ' ').trim(), cut };
}

function sanitizeString(field: string, value: unknown, limit: DiagnosticLimit, changes: ValidationChange[]): string {
  if (typeof value !== 'string') {
    changes.push({ field, kind: 'rejected', received: renderValue(value), used: '', reason: `expected a string, got ${describeType(value)}` });
    return '';
  }
  const { text: clean, cut } = cleanText(value, limit.maxLength);
  const capped = truncate(clean, limit.maxLength);
  if (cut || capped.length < clean.length) {
    changes.push({
      field,
      kind: 'clamped',
      received: renderValue(value),
      used: renderValue(capped),
      reason: `longer than ${limit.maxLength} characters; truncated`,
    });
  } else if (clean !== value) {
    changes.push({ field, kind: 'coerced', received: renderValue(value), used: capped, reason: 'whitespace/control characters normalised' });
  }
  return capped;
}

function sanitizeList(field: string, value: unknown, limit: DiagnosticLimit, changes: ValidationChange[]): string[] {
  const maxItems = limit.maxItems ?? 8;
  let items: unknown[];
  if (Array.isArray(value)) {
    items = value;
  } else if (typeof value === 'string') {
    items = value.trim() === '' ? [] : [value];
    changes.push({ field, kind: 'coerced', received: renderValue(value), used: 'one-item list', reason: 'a single string was given for a list' });
  } else {
    changes.push({ field, kind: 'rejected', received: renderValue(value), used: [], reason: `expected a list of strings, got ${describeType(value)}` });
    return [];
  }
  const out: string[] = [];
  const seen = new Set<string>();
  let nonString = 0;
  let empty = 0;
  let duplicate = 0;
  let overLimit = 0;
  let truncated = 0;
  const scan = Math.min(items.length, MAX_LIST_SCAN);
  for (let i = 0; i < scan; i++) {
    let item: unknown;
    try {
      item = items[i];
    } catch {
      item = undefined;
    }
    if (typeof item !== 'string') {
      nonString++;
      continue;
    }
    const { text: clean, cut } = cleanText(item, limit.maxLength);
    if (clean === '') {
      empty++;
      continue;
    }
    const capped = truncate(clean, limit.maxLength);
    const key = capped.toLowerCase();
    if (seen.has(key)) {
      duplicate++;
      continue;
    }
    if (out.length >= maxItems) {
      overLimit++;
      continue;
    }
    if (cut || capped.length < clean.length) truncated++;
    seen.add(key);
    out.push(capped);
  }
  overLimit += items.length - scan;
  const dropped = nonString + empty + duplicate + overLimit;
  if (dropped > 0) {
    const parts: string[] = [];
    if (nonString) parts.push(`${nonString} non-string`);
    if (empty) parts.push(`${empty} empty`);
    if (duplicate) parts.push(`${duplicate} duplicate`);
    if (overLimit) parts.push(`${overLimit} beyond the ${maxItems}-item limit`);
    changes.push({
      field,
      kind: 'dropped',
      received: renderValue(value),
      used: [...out],
      reason: `${parts.join(', ')} item(s) dropped`,
    });
  }
  if (truncated > 0) {
    changes.push({
      field,
      kind: 'clamped',
      received: renderValue(value),
      used: [...out],
      reason: `${truncated} item(s) longer than ${limit.maxLength} characters truncated`,
    });
  }
  return out;
}

function ownKeys(source: Record<string, unknown>): Set<string> {
  try {
    return new Set(Object.keys(source));
  } catch {
    return new Set();
  }
}

function read(source: Record<string, unknown>, key: string): unknown {
  try {
    return Object.hasOwn(source, key) ? source[key] : undefined;
  } catch {
    return undefined;
  }
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isFinite(value) ? 'a number' : String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function errorName(error: unknown): string {
  try {
    return error instanceof Error ? error.name : typeof error;
  } catch {
    return 'unknown error';
  }
}
