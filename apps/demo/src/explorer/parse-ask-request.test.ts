import { describe, expect, it } from 'vitest';
import { parseAskRequest } from './parse-ask-request.js';

function refusal(body: unknown, options?: { maxQuestionChars?: number }) {
  try {
    parseAskRequest(body, options);
  } catch (error) {
    return error as { name: string; status: number; code: string; field?: string };
  }
  throw new Error('expected a refusal');
}

describe('parseAskRequest', () => {
  it('accepts a question, trims it and defaults the policy to adaptive', () => {
    expect(parseAskRequest({ question: '  What is Morrow syndrome?  ' })).toEqual({ question: 'What is Morrow syndrome?', policy: 'adaptive' });
    expect(parseAskRequest({ question: 'q', policy: 'wide', corpus: 'Medical' })).toEqual({ question: 'q', policy: 'wide', corpus: 'Medical' });
    expect(parseAskRequest({ question: 'q', policy: null, corpus: null })).toEqual({ question: 'q', policy: 'adaptive' });
  });

  it.each([
    ['an array', ['What?'], 'body'],
    ['null', null, 'body'],
    ['a string', 'What?', 'body'],
    ['no question', { policy: 'wide' }, 'question'],
    ['a numeric question', { question: 42 }, 'question'],
    ['a blank question', { question: ' \n\t ' }, 'question'],
    ['an unknown policy', { question: 'q', policy: 'deep' }, 'policy'],
    ['a policy object', { question: 'q', policy: { maxDepth: 9 } }, 'policy'],
    ['an empty corpus', { question: 'q', corpus: '' }, 'corpus'],
    ['a numeric corpus', { question: 'q', corpus: 3 }, 'corpus'],
    ['an unknown field', { question: 'q', polcy: 'wide' }, 'polcy'],
  ])('refuses %s with a 400 naming the field', (_label, body, field) => {
    const error = refusal(body);
    expect(error.name).toBe('MosaicExplorerRequestError');
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid-field');
    expect(error.field).toBe(field);
  });

  it('refuses a question over the length limit, counted after trimming', () => {
    expect(parseAskRequest({ question: `  ${'a'.repeat(10)}  ` }, { maxQuestionChars: 10 }).question).toHaveLength(10);
    expect(refusal({ question: 'a'.repeat(11) }, { maxQuestionChars: 10 }).field).toBe('question');
  });
});
