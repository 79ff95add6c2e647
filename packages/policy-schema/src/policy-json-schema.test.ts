import { describe, expect, it } from 'vitest';
import { CONTROL_FIELDS, DEFAULT_POLICY, DIAGNOSTIC_FIELDS, POLICY_RANGES } from './policy-ranges.js';
import { policyJsonSchema } from './policy-json-schema.js';
import { policySchema } from './policy-schema.js';

type Node = Record<string, unknown> & { properties: Record<string, Record<string, unknown>> };

function walk(node: unknown, visit: (key: string) => void): void {
  if (Array.isArray(node))
    node.forEach((n) => {
      walk(n, visit);
    });
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      visit(k);
      if (k === 'properties')
        Object.values(v as object).forEach((n) => {
          walk(n, visit);
        });
      else walk(v, visit);
    }
  }
}

describe('policyJsonSchema', () => {
  it('lists every policy field, all required, no additional properties', () => {
    const schema = policyJsonSchema() as Node;
    expect(schema.type).toBe('object');
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties).sort()).toEqual([...CONTROL_FIELDS, ...DIAGNOSTIC_FIELDS].sort());
    expect((schema.required as string[]).sort()).toEqual(Object.keys(DEFAULT_POLICY).sort());
  });

  it('carries the Table 3 ranges and allowlists', () => {
    const { properties } = policyJsonSchema() as Node;
    expect(properties.seedLimit).toMatchObject({ type: 'integer', minimum: 1, maximum: 15 });
    expect(properties.maxDepth).toMatchObject({ type: 'integer', minimum: 2, maximum: 5 });
    expect(properties.beamWidth).toMatchObject({ type: 'integer', minimum: 4, maximum: 12 });
    expect(properties.anchorStrength).toMatchObject({ type: 'number', minimum: 0, maximum: 1 });
    expect(properties.evidenceCount).toMatchObject({ type: 'integer', minimum: 5, maximum: 18 });
    expect(properties.minEvidence).toMatchObject({ type: 'integer', minimum: 1, maximum: 12 });
    expect(properties.seedQueryMode!.enum).toEqual(POLICY_RANGES.seedQueryMode.values);
    expect(properties.stopRegime!.enum).toEqual(POLICY_RANGES.stopRegime.values);
    expect(properties.useConnector!.type).toBe('boolean');
    for (const field of CONTROL_FIELDS) expect(typeof properties[field]!.description).toBe('string');
  });

  it("'openai-strict' strips keywords strict structured outputs reject", () => {
    const seen = new Set<string>();
    walk(policyJsonSchema(), (k) => seen.add(k));
    for (const k of ['default', 'maxLength', '$schema']) expect(seen.has(k)).toBe(false);
    const full = new Set<string>();
    walk(policyJsonSchema({ dialect: 'json-schema' }), (k) => full.add(k));
    expect(full.has('maxLength')).toBe(true);
    expect(full.has('$schema')).toBe(true);
  });

  it('accepts the default policy under the zod schema it was derived from', () => {
    expect(policySchema.safeParse({ ...DEFAULT_POLICY }).success).toBe(true);
    expect(policySchema.safeParse({ ...DEFAULT_POLICY, extra: 1 }).success).toBe(false);
    expect(policySchema.safeParse({ ...DEFAULT_POLICY, maxDepth: 6 }).success).toBe(false);
  });
});
