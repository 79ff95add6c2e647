import type { IncomingMessage } from 'node:http';
import { ExplorerRequestError } from './explorer-request-error.js';

/** Largest request body accepted (bytes). */
export const DEFAULT_MAX_BODY_BYTES = 4096;

function tooLarge(maxBytes: number): ExplorerRequestError {
  return new ExplorerRequestError({ status: 413, code: 'body-too-large', message: `request body exceeds ${maxBytes} bytes` });
}

/**
 * Read a JSON request body of at most `maxBytes` bytes. Refuses with ExplorerRequestError: a
 * Content-Type other than application/json (415 'unsupported-media-type'), a declared or actual
 * size over the limit (413 'body-too-large'; reading stops at the limit), invalid UTF-8, an empty
 * body or invalid JSON (400 'invalid-json').
 */
export async function readJsonBody(request: IncomingMessage, options: { maxBytes?: number } = {}): Promise<unknown> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new ExplorerRequestError({
      status: 415,
      code: 'unsupported-media-type',
      message: `Content-Type must be application/json, got ${type ? `'${type}'` : 'none'}`,
    });
  }
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);

  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch (cause) {
    throw new ExplorerRequestError({ status: 400, code: 'invalid-json', message: 'request body is not valid UTF-8', cause });
  }
  if (text.trim().length === 0) throw new ExplorerRequestError({ status: 400, code: 'invalid-json', message: 'request body is empty; send a JSON object' });
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new ExplorerRequestError({ status: 400, code: 'invalid-json', message: `request body is not valid JSON (${(cause as Error).message})`, cause });
  }
}
