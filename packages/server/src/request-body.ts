import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { HttpError } from './http-error.js';

/** The dotted path of a zod issue (`windows`, `policy`), or `body` for the whole object. */
function fieldOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys' && issue.keys.length > 0) return [...issue.path, issue.keys[0]].join('.');
  return issue.path.length > 0 ? issue.path.join('.') : 'body';
}

/** Reads a JSON body of at most `limit` bytes: 415 when not JSON, 413 when larger, 400 when it does not parse. */
export async function readJsonBody(request: IncomingMessage, limit: number): Promise<unknown> {
  const type = request.headers['content-type'] ?? '';
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new HttpError({
      status: 415,
      code: 'unsupported_media_type',
      field: 'content-type',
      message: `the body must be application/json, got '${type || 'none'}'`,
    });
  }
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  const tooLarge = () => new HttpError({ status: 413, code: 'body_too_large', field: 'body', message: `the body is larger than ${limit} bytes` });
  if (declared > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim().length === 0) throw new HttpError({ status: 400, code: 'invalid_json', field: 'body', message: 'the body is empty; send a JSON object' });
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError({ status: 400, code: 'invalid_json', field: 'body', message: `the body is not valid JSON (${(error as Error).message})` });
  }
}

/** Validates a parsed body against a schema: 400 naming the first field at fault, every issue listed. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({ field: fieldOf(issue), message: issue.message }));
  const first = issues[0]!;
  const message = value === null || typeof value !== 'object' || Array.isArray(value) ? 'the body must be a JSON object' : `${first.field}: ${first.message}`;
  return (() => {
    throw new HttpError({ status: 400, code: 'invalid_request', field: first.field, message, issues });
  })();
}
