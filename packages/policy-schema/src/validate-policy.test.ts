import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Policy } from '@mosaic/spec';
import { CONTROL_FIELDS, DEFAULT_POLICY, DIAGNOSTIC_LIMITS, POLICY_RANGES } from './policy-ranges.js';
import { policySchema } from './policy-schema.js';
import { substantiveChanges, validatePolicy } from './validate-policy.js';

function changeOf(result: ReturnType<typeof validatePolicy>, field: string) {
  return result.changes.filter((c) => c.field === field && c.kind !== 'defaulted' && !(c.kind === 'coerced' && c.reason.startsWith('snake')));
}

/** Asserts the result is a complete policy inside every range. */
function expectValidPolicy(policy: Policy): void {
  const parsed = policySchema.safeParse(policy);
  expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe(true);
  expect(policy.minEvidence).toBeLessThanOrEqual(policy.evidenceCount);
  expect(Object.keys(policy).sort()).toEqual(Object.keys(DEFAULT_POLICY).sort());
}

type NumericField = 'seedLimit' | 'maxDepth' | 'beamWidth' | 'anchorStrength' | 'evidenceCount' | 'minEvidence';
const NUMERIC: NumericField[] = ['seedLimit', 'maxDepth', 'beamWidth', 'anchorStrength', 'evidenceCount', 'minEvidence'];

describe('validatePolicy: numeric controls', () => {
  const cases = NUMERIC.flatMap((field) => {
    const r = POLICY_RANGES[field];
    const inRange = r.kind === 'integer' ? Math.floor((r.min + r.max) / 2) : 0.5;
    return [
      { field, label: 'in range', input: inRange, used: inRange, kind: undefined },
      { field, label: 'at min', input: r.min, used: r.min, kind: undefined },
      { field, label: 'at max', input: r.max, used: r.max, kind: undefined },
      { field, label: 'below', input: r.min - 3, used: r.min, kind: 'clamped' },
      { field, label: 'above', input: r.max + 100, used: r.max, kind: 'clamped' },
      { field, label: 'huge', input: 1e308, used: r.max, kind: 'clamped' },
      { field, label: 'negative huge', input: -1e308, used: r.min, kind: 'clamped' },
      { field, label: 'NaN', input: Number.NaN, used: r.default, kind: 'rejected' },
      { field, label: 'Infinity', input: Number.POSITIVE_INFINITY, used: r.default, kind: 'rejected' },
      { field, label: 'boolean', input: true, used: r.default, kind: 'rejected' },
      { field, label: 'object', input: { value: 3 }, used: r.default, kind: 'rejected' },
      { field, label: 'null', input: null, used: r.default, kind: 'rejected' },
      { field, label: 'word string', input: 'four', used: r.default, kind: 'rejected' },
      { field, label: 'hex string', input: '0x4', used: r.default, kind: 'rejected' },
      { field, label: 'empty string', input: '', used: r.default, kind: 'rejected' },
      { field, label: 'numeric string', input: ` ${inRange} `, used: inRange, kind: 'coerced' },
      { field, label: 'numeric string above', input: String(r.max + 1), used: r.max, kind: 'clamped' },
    ];
  });
  it.each(cases)('$field $label', ({ field, input, used, kind }) => {
    // Keep the floor ≤ cap rule out of the way for minEvidence cases.
    const result = validatePolicy({ [field]: input, ...(field === 'minEvidence' ? { evidenceCount: 18 } : {}) });
    expect(result.policy[field]).toBe(used);
    const changes = changeOf(result, field);
    if (kind === undefined) expect(changes).toEqual([]);
    else {
      expect(changes).toHaveLength(1);
      expect(changes[0]!.kind).toBe(kind);
      expect(changes[0]!.used).toBe(used);
    }
    expectValidPolicy(result.policy);
  });

  it('rounds integer controls and reports the rounding', () => {
    const result = validatePolicy({ seedLimit: 4.6, maxDepth: 2.2 });
    expect(result.policy.seedLimit).toBe(5);
    expect(result.policy.maxDepth).toBe(2);
    expect(changeOf(result, 'seedLimit')[0]!.kind).toBe('coerced');
  });

  it('keeps anchorStrength real-valued', () => {
    expect(validatePolicy({ anchorStrength: 0.37 }).policy.anchorStrength).toBe(0.37);
    expect(Object.is(validatePolicy({ anchorStrength: -0 }).policy.anchorStrength, 0)).toBe(true);
  });

  it.each(NUMERIC)('%s missing takes its default and is reported as defaulted', (field) => {
    const result = validatePolicy({});
    expect(result.policy[field]).toBe(POLICY_RANGES[field].default);
    const change = result.changes.find((c) => c.field === field);
    expect(change?.kind).toBe('defaulted');
  });
});

describe('validatePolicy: categorical controls', () => {
  const fields = ['seedQueryMode', 'selectionMode', 'stopRegime'] as const;
  const cases = fields.flatMap((field) => {
    const r = POLICY_RANGES[field];
    const other = r.values[r.values.length - 1]!;
    return [
      { field, label: 'valid', input: other, used: other, kind: undefined },
      { field, label: 'case/space variant', input: ` ${other.toUpperCase().replace('-', '_')} `, used: other, kind: 'coerced' },
      { field, label: 'outside allowlist', input: 'exhaustive', used: r.default, kind: 'rejected' },
      { field, label: 'number', input: 2, used: r.default, kind: 'rejected' },
      { field, label: 'array', input: [other], used: r.default, kind: 'rejected' },
      { field, label: 'null', input: null, used: r.default, kind: 'rejected' },
    ];
  });
  it.each(cases)('$field $label', ({ field, input, used, kind }) => {
    const extra = field === 'seedQueryMode' ? { perTargetQueries: ['a'], compactQuery: 'a' } : {};
    const result = validatePolicy({ [field]: input, ...extra });
    expect(result.policy[field]).toBe(used);
    const changes = changeOf(result, field);
    if (kind === undefined) expect(changes).toEqual([]);
    else expect(changes.map((c) => c.kind)).toEqual([kind]);
  });

  it("accepts the report's wording of seed-query modes", () => {
    const result = validatePolicy({ seedQueryMode: 'per-target keywords', targetEntities: ['BCC', 'SCC'] });
    expect(result.policy.seedQueryMode).toBe('per-target');
    expect(result.policy.perTargetQueries).toEqual(['BCC', 'SCC']);
  });

  it("falls back from 'per-target' and 'compact' to 'full' when there is nothing to query with", () => {
    const perTarget = validatePolicy({ seedQueryMode: 'per-target' });
    expect(perTarget.policy.seedQueryMode).toBe('full');
    expect(changeOf(perTarget, 'seedQueryMode')[0]!.kind).toBe('rejected');
    const compact = validatePolicy({ seedQueryMode: 'compact', compactQuery: '   ' });
    expect(compact.policy.seedQueryMode).toBe('full');
    const compactFromTargets = validatePolicy({ seedQueryMode: 'compact', targetEntities: ['fair skin', 'BCC'] });
    expect(compactFromTargets.policy.compactQuery).toBe('fair skin BCC');
  });
});

describe('validatePolicy: boolean controls', () => {
  const fields = ['useConnector', 'adaptiveFinalEvidence'] as const;
  const cases = fields.flatMap((field) => [
    { field, label: 'true', input: true, used: true, kind: undefined },
    { field, label: 'false', input: false, used: false, kind: undefined },
    { field, label: '"true" string', input: 'True', used: true, kind: 'coerced' },
    { field, label: '"false" string', input: ' false ', used: false, kind: 'coerced' },
    { field, label: '"yes" string', input: 'yes', used: false, kind: 'rejected' },
    { field, label: 'number 1', input: 1, used: false, kind: 'rejected' },
    { field, label: 'object', input: {}, used: false, kind: 'rejected' },
  ]);
  it.each(cases)('$field $label', ({ field, input, used, kind }) => {
    const result = validatePolicy({ [field]: input });
    expect(result.policy[field]).toBe(used);
    const changes = changeOf(result, field);
    if (kind === undefined) expect(changes).toEqual([]);
    else expect(changes.map((c) => c.kind)).toEqual([kind]);
  });
});

describe('validatePolicy: diagnostics', () => {
  it('keeps valid diagnostics unchanged', () => {
    const input = {
      targetEntities: ['basal cell carcinoma'],
      targetFacets: ['symptoms'],
      retrievalRisk: 'hub nodes',
      rationale: 'list question',
      compactQuery: 'basal cell carcinoma symptoms',
      perTargetQueries: ['basal cell carcinoma symptoms'],
    };
    const result = validatePolicy(input);
    for (const [k, v] of Object.entries(input)) expect(result.policy[k as keyof Policy]).toEqual(v);
    expect(substantiveChanges(result.changes)).toEqual([]);
  });

  it('drops non-strings, empties and duplicates from lists and reports them', () => {
    const result = validatePolicy({ targetEntities: ['BCC', 3, null, '', 'bcc', { a: 1 }, ' SCC\n'] });
    expect(result.policy.targetEntities).toEqual(['BCC', 'SCC']);
    const dropped = changeOf(result, 'targetEntities').find((c) => c.kind === 'dropped');
    expect(dropped).toBeDefined();
  });

  it('caps list length and item length', () => {
    const items = Array.from({ length: 50 }, (_, i) => `entity ${i} ${'x'.repeat(i * 30)}`);
    const result = validatePolicy({ targetEntities: items });
    expect(result.policy.targetEntities).toHaveLength(DIAGNOSTIC_LIMITS.targetEntities.maxItems!);
    for (const item of result.policy.targetEntities) expect(item.length).toBeLessThanOrEqual(DIAGNOSTIC_LIMITS.targetEntities.maxLength);
    const kinds = changeOf(result, 'targetEntities')
      .map((c) => c.kind)
      .sort();
    expect(kinds).toEqual(['clamped', 'dropped']);
  });

  it('truncates long strings, removes control characters, rejects non-strings', () => {
    const result = validatePolicy({ rationale: 'r'.repeat(100_000), retrievalRisk: 'a\u0000b\n\n c', compactQuery: 42 });
    expect(result.policy.rationale.length).toBeLessThanOrEqual(DIAGNOSTIC_LIMITS.rationale.maxLength);
    expect(changeOf(result, 'rationale')[0]!.kind).toBe('clamped');
    expect(result.policy.retrievalRisk).toBe('a b c');
    expect(changeOf(result, 'retrievalRisk')[0]!.kind).toBe('coerced');
    expect(result.policy.compactQuery).toBe('');
    expect(changeOf(result, 'compactQuery')[0]!.kind).toBe('rejected');
  });

  it('wraps a single string given for a list', () => {
    const result = validatePolicy({ targetFacets: 'symptoms' });
    expect(result.policy.targetFacets).toEqual(['symptoms']);
    expect(changeOf(result, 'targetFacets')[0]!.kind).toBe('coerced');
  });

  it('does not split surrogate pairs when truncating', () => {
    const result = validatePolicy({ compactQuery: '😀'.repeat(400) });
    expect(result.policy.compactQuery.length).toBeLessThanOrEqual(DIAGNOSTIC_LIMITS.compactQuery.maxLength);
    expect(result.policy.compactQuery).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});

describe('validatePolicy: structure', () => {
  it.each([null, undefined, 42, 'seedLimit: 4', [1, 2, 3], true, () => 1])('non-object input %# → all defaults', (raw) => {
    const result = validatePolicy(raw);
    expect(result.policy).toEqual({ ...DEFAULT_POLICY });
    expect(result.changes[0]).toMatchObject({ field: '$', kind: 'rejected' });
  });

  it('drops unknown fields and reads snake_case names', () => {
    const result = validatePolicy({ seed_limit: 12, stop_regime: 'deep', bogus: 1, seedLimit: undefined });
    // camelCase wins when both are present, even when its value is bad.
    expect(result.policy.seedLimit).toBe(7);
    expect(result.policy.stopRegime).toBe('deep');
    expect(
      result.changes
        .filter((c) => c.kind === 'dropped')
        .map((c) => c.field)
        .sort(),
    ).toEqual(['bogus', 'seed_limit']);
  });

  it('ignores __proto__ keys and inherited properties', () => {
    const raw = JSON.parse('{"__proto__": {"seedLimit": 15, "useConnector": true}, "maxDepth": 4}');
    const result = validatePolicy(raw);
    expect(result.policy.seedLimit).toBe(7);
    expect(result.policy.useConnector).toBe(false);
    expect(result.policy.maxDepth).toBe(4);
    expect(result.changes.some((c) => c.field === '__proto__' && c.kind === 'dropped')).toBe(true);
    expect(({} as Record<string, unknown>).seedLimit).toBeUndefined();
    const inherited = Object.create({ seedLimit: 12 }) as object;
    expect(validatePolicy(inherited).policy.seedLimit).toBe(7);
  });

  it('survives throwing getters, proxies and cycles', () => {
    const cyclic: Record<string, unknown> = { maxDepth: 4 };
    cyclic.self = cyclic;
    cyclic.targetEntities = [cyclic];
    expect(validatePolicy(cyclic).policy.maxDepth).toBe(4);
    const getter = Object.defineProperty({}, 'seedLimit', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    expect(validatePolicy(getter).policy.seedLimit).toBe(7);
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('no keys');
        },
        get: () => {
          throw new Error('no');
        },
      },
    );
    const result = validatePolicy(hostile);
    expectValidPolicy(result.policy);
    expect(() => JSON.stringify(result.changes)).not.toThrow();
  });

  it('survives very deep nesting', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { seedLimit: deep };
    const result = validatePolicy(deep);
    expect(result.policy.seedLimit).toBe(7);
    expect(() => JSON.stringify(result.changes)).not.toThrow();
  });

  it('clamps the evidence floor to the cap', () => {
    const result = validatePolicy({ evidenceCount: 5, minEvidence: 12 });
    expect(result.policy.minEvidence).toBe(5);
    expect(changeOf(result, 'minEvidence')[0]!.kind).toBe('clamped');
  });

  it('reports every missing field as defaulted and nothing else for {}', () => {
    const result = validatePolicy({});
    expect(result.changes.every((c) => c.kind === 'defaulted')).toBe(true);
    expect(result.changes).toHaveLength(Object.keys(DEFAULT_POLICY).length);
    expect(substantiveChanges(result.changes)).toEqual([]);
  });

  it('returns fresh arrays that do not alias the defaults', () => {
    const a = validatePolicy({}).policy;
    a.targetEntities.push('x');
    expect(validatePolicy({}).policy.targetEntities).toEqual([]);
  });
});

describe('validatePolicy: property-based', () => {
  const fieldNames = [...Object.keys(DEFAULT_POLICY), 'seed_limit', '__proto__', 'constructor', 'toString'];
  const anyValue = fc.oneof(
    fc.anything({ maxDepth: 3 }),
    fc.double(),
    fc.integer({ min: -1000, max: 1000 }),
    fc.string(),
    fc.constantFrom('full', 'compact', 'per-target', 'hybrid', 'deep', 'medium', 'true', 'false', '4', 'NaN'),
    fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxLength: 20 }),
  );
  const policyLike = fc.dictionary(fc.constantFrom(...fieldNames), anyValue, { maxKeys: 20 });

  it('never throws on arbitrary JSON and always returns an in-range policy', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (raw) => {
        const result = validatePolicy(raw);
        expectValidPolicy(result.policy);
        JSON.stringify(result.changes);
      }),
      { numRuns: 300, seed: 42 },
    );
  });

  it('never throws on arbitrary values (including __proto__ keys) and always returns an in-range policy', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything({ withNullPrototype: true, withBigInt: true, withMap: true }), policyLike), (raw) => {
        const result = validatePolicy(raw);
        expectValidPolicy(result.policy);
        for (const change of result.changes) expect(['defaulted', 'clamped', 'rejected', 'dropped', 'coerced']).toContain(change.kind);
        JSON.stringify(result.changes);
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  it('is idempotent: a validated policy validates to itself with no substantive change', () => {
    fc.assert(
      fc.property(policyLike, (raw) => {
        const once = validatePolicy(raw).policy;
        const twice = validatePolicy(once);
        expect(twice.policy).toEqual(once);
        expect(substantiveChanges(twice.changes)).toEqual([]);
      }),
      { numRuns: 300, seed: 3 },
    );
  });

  it('leaves every in-range control unchanged', () => {
    const controls = fc.record({
      seedLimit: fc.integer({ min: 1, max: 15 }),
      seedQueryMode: fc.constant('full' as const),
      selectionMode: fc.constantFrom('relation-only' as const, 'hybrid' as const),
      maxDepth: fc.integer({ min: 2, max: 5 }),
      beamWidth: fc.integer({ min: 4, max: 12 }),
      anchorStrength: fc.double({ min: 0, max: 1, noNaN: true }),
      useConnector: fc.boolean(),
      stopRegime: fc.constantFrom('shallow' as const, 'medium' as const, 'deep' as const),
      evidenceCount: fc.integer({ min: 12, max: 18 }),
      minEvidence: fc.integer({ min: 1, max: 12 }),
      adaptiveFinalEvidence: fc.boolean(),
    });
    fc.assert(
      fc.property(controls, (raw) => {
        const result = validatePolicy(raw);
        for (const field of CONTROL_FIELDS) expect(Object.is(result.policy[field], raw[field]) || (raw[field] === 0 && result.policy[field] === 0)).toBe(true);
      }),
      { numRuns: 200, seed: 11 },
    );
  });
});
