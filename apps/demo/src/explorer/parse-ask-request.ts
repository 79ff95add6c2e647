import { ExplorerRequestError } from './explorer-request-error.js';
import { POLICY_REQUESTS, type AskRequest, type PolicyRequest } from './explorer-types.js';

/** Longest question accepted (characters, after trimming). */
export const DEFAULT_MAX_QUESTION_CHARS = 1000;

const FIELDS = new Set(['question', 'policy', 'corpus']);

function invalid(field: string, message: string): ExplorerRequestError {
  return new ExplorerRequestError({ status: 400, code: 'invalid-field', field, message: `${field}: ${message}` });
}

/**
 * Check the parsed JSON body of POST /api/ask: an object with a non-empty `question` string (at most
 * `maxQuestionChars` after trimming), an optional `policy` ('adaptive' | 'narrow' | 'medium' | 'wide',
 * default 'adaptive') and an optional `corpus` name. Unknown fields are refused, so typos do not pass
 * silently. Throws ExplorerRequestError (status 400, code 'invalid-field', `field` set).
 */
export function parseAskRequest(body: unknown, options: { maxQuestionChars?: number } = {}): AskRequest {
  const maxQuestionChars = options.maxQuestionChars ?? DEFAULT_MAX_QUESTION_CHARS;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid(
      'body',
      `must be a JSON object like {"question": "…", "policy": "adaptive"}, got ${Array.isArray(body) ? 'an array' : body === null ? 'null' : typeof body}`,
    );
  }
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !FIELDS.has(key));
  if (unknown.length > 0) throw invalid(unknown[0]!, `unknown field (allowed: ${[...FIELDS].join(', ')})`);

  const { question, policy, corpus } = record;
  if (typeof question !== 'string') throw invalid('question', `must be a string, got ${question === null ? 'null' : typeof question}`);
  const text = question.trim();
  if (text.length === 0) throw invalid('question', 'must not be empty');
  if (text.length > maxQuestionChars) throw invalid('question', `must be at most ${maxQuestionChars} characters, got ${text.length}`);

  let chosen: PolicyRequest = 'adaptive';
  if (policy !== undefined && policy !== null) {
    if (typeof policy !== 'string' || !(POLICY_REQUESTS as readonly string[]).includes(policy)) {
      throw invalid('policy', `must be one of ${POLICY_REQUESTS.join(', ')}, got ${JSON.stringify(policy)}`);
    }
    chosen = policy as PolicyRequest;
  }

  const request: AskRequest = { question: text, policy: chosen };
  if (corpus !== undefined && corpus !== null) {
    if (typeof corpus !== 'string' || corpus.length === 0 || corpus.length > 200)
      throw invalid('corpus', 'must be a corpus name (a non-empty string of at most 200 characters)');
    request.corpus = corpus;
  }
  return request;
}
