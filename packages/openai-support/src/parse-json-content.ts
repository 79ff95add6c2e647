import { UnusableOutputError } from './unusable-output-error.js';

/**
 * Parse a model's JSON content: trims it, strips a surrounding Markdown code fence (```json … ```),
 * and `JSON.parse`s the rest. Not JSON → UnusableOutputError (with the SyntaxError as `cause`), so
 * that a `completeChat` `parse` callback built on it is retried like other unusable output.
 */
export function parseJsonContent(content: string): unknown {
  const body = content
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  try {
    return JSON.parse(body);
  } catch (error) {
    throw new UnusableOutputError('content is not valid JSON', { cause: error });
  }
}
