import { z } from 'zod';

/** The longest question the API accepts, in characters. */
export const MAX_QUESTION_CHARS = 4_000;
/** The most windows one request may ask for. */
export const MAX_WINDOWS = 100;

const question = z
  .string()
  .trim()
  .min(1, 'must be a non-empty string')
  .max(MAX_QUESTION_CHARS, `must be at most ${MAX_QUESTION_CHARS} characters`)
  .describe('The question.');
const id = z.string().max(200).optional().describe('Your id of the question, echoed back.');

/** `POST /v1/policy`: the policy the analyzer chooses for a question (no retrieval). */
export const PolicyRequestSchema = z.strictObject({ question, id });

/** `POST /v1/retrieve`: ranked source windows for a question. */
export const RetrieveRequestSchema = z.strictObject({
  question,
  id,
  policy: z.enum(['adaptive', 'narrow', 'medium', 'wide']).optional().describe('adaptive (default: the analyzer decides) or a fixed policy.'),
  windows: z.int().min(1).max(MAX_WINDOWS).optional().describe('Windows to return (default: the server’s, 15).'),
  graph: z.boolean().optional().describe('Use graph evidence (default true; false is the no-graph ablation).'),
  trace: z.boolean().optional().describe('Include the full retrieval trace (large).'),
});

/** `POST /v1/ask`: retrieval, then an answer with citations. */
export const AskRequestSchema = RetrieveRequestSchema;

export type PolicyRequest = z.output<typeof PolicyRequestSchema>;
export type RetrieveRequest = z.output<typeof RetrieveRequestSchema>;
export type AskRequest = z.output<typeof AskRequestSchema>;

const span = z.object({ start: z.int(), end: z.int() });
const SourceLocationSchema = z
  .object({
    documentId: z.string(),
    title: z.string().optional(),
    section: z.array(z.string()).optional(),
    start: z.int(),
    end: z.int(),
    lines: span.optional(),
    pages: span.optional(),
  })
  .describe('Where the window sits in its source (set when the index keeps document outlines).');

export const WindowSchema = z.object({
  rank: z.int(),
  id: z.string(),
  documentId: z.string(),
  start: z.int(),
  end: z.int(),
  score: z.number(),
  text: z.string(),
  evidenceIds: z.array(z.string()),
  scores: z.record(z.string(), z.number()).optional(),
  source: SourceLocationSchema.optional(),
});

export const PolicySchema = z.record(z.string(), z.unknown()).describe('The validated policy (see @mosaic/policy-schema).');

export const PolicyResponseSchema = z.object({
  question: z.string(),
  id: z.string().optional(),
  policy: PolicySchema,
  analyzer: z.string(),
  changes: z.array(z.unknown()).describe('What validation changed in the analyzer’s raw output.'),
  fallback: z.object({ from: z.string(), reason: z.string() }).optional(),
  latencyMs: z.number(),
});

export const RetrieveResponseSchema = z.object({
  question: z.string(),
  id: z.string().optional(),
  policy: PolicySchema,
  windows: z.array(WindowSchema),
  seeds: z.array(z.object({ nodeId: z.string(), score: z.number() }).loose()),
  effort: z.record(z.string(), z.number()),
  timings: z.record(z.string(), z.number()),
  stopReason: z.string().optional(),
  trace: z.unknown().optional(),
});

export const AnswerSchema = z
  .looseObject({
    text: z.string(),
    citations: z.array(z.object({ window: z.int(), windowId: z.string() })),
    generator: z.string(),
    extractive: z.boolean(),
  })
  .describe('The Answer object of the generator, passed through as is.');

export const AskResponseSchema = RetrieveResponseSchema.extend({ answer: AnswerSchema });

export const DocumentResponseSchema = z.object({
  id: z.string(),
  corpus: z.string(),
  text: z.string(),
  outline: z.unknown().optional(),
});

export const ErrorResponseSchema = z.object({
  error: z.object({
    code: z
      .string()
      .describe(
        'A stable code: invalid_json, invalid_request, body_too_large, unsupported_media_type, unauthorized, not_found, method_not_allowed, timeout, unavailable, internal.',
      ),
    message: z.string(),
    field: z.string().optional().describe('The field at fault, as a dotted path (e.g. "windows", "body", "path").'),
    issues: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  }),
});

export type PolicyResponse = z.output<typeof PolicyResponseSchema>;
export type RetrieveResponse = z.output<typeof RetrieveResponseSchema>;
export type AskResponse = z.output<typeof AskResponseSchema>;
export type WindowResponse = z.output<typeof WindowSchema>;
export type DocumentResponse = z.output<typeof DocumentResponseSchema>;
export type ErrorResponse = z.output<typeof ErrorResponseSchema>;
