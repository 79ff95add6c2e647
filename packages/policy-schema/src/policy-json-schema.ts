import { z } from 'zod';
import { policySchema } from './policy-schema.js';

export interface PolicyJsonSchemaOptions {
  /**
   * 'openai-strict' (default): the subset OpenAI structured outputs accept with `strict: true` — every
   * field required, `additionalProperties: false`, no `default`, no `maxLength`, no `$schema`; ranges
   * stay as `minimum`/`maximum`/`maxItems`/`enum` and in each description.
   * 'json-schema': the full draft 2020-12 schema zod derives.
   */
  dialect?: 'openai-strict' | 'json-schema';
}

type JsonObject = { [key: string]: unknown };

/** JSON Schema of a complete policy, derived from `policySchema` (for LLM structured output). */
export function policyJsonSchema(options: PolicyJsonSchemaOptions = {}): JsonObject {
  const schema = z.toJSONSchema(policySchema, { target: 'draft-2020-12' }) as JsonObject;
  if ((options.dialect ?? 'openai-strict') === 'json-schema') return schema;
  return strip(schema) as JsonObject;
}

const STRICT_UNSUPPORTED = new Set(['$schema', 'default', 'maxLength', 'minLength']);

function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (typeof node !== 'object' || node === null) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node as JsonObject)) {
    if (STRICT_UNSUPPORTED.has(key)) continue;
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as JsonObject).map(([k, v]) => [k, strip(v)])) : strip(value);
  }
  return out;
}
