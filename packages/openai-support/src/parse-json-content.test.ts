import { describe, expect, it } from 'vitest';
import { parseJsonContent } from './parse-json-content.js';

function errorOf(run: () => unknown): (Error & { cause?: unknown }) | undefined {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  return undefined;
}

describe('parseJsonContent', () => {
  it('parses plain and fenced JSON', () => {
    expect(parseJsonContent('  {"a": 1}  ')).toEqual({ a: 1 });
    expect(parseJsonContent('```json\n{"a": [1, 2]}\n```')).toEqual({ a: [1, 2] });
    expect(parseJsonContent('```JSON {"b": true} ```')).toEqual({ b: true });
    expect(parseJsonContent('```\n[1]\n```')).toEqual([1]);
    expect(parseJsonContent('null')).toBeNull();
  });

  it('throws UnusableOutputError with the SyntaxError as cause for non-JSON', () => {
    for (const bad of ['', 'not json', '{"a": 1', '```json\n{oops}\n```']) {
      const error = errorOf(() => parseJsonContent(bad));
      expect(error?.name).toBe('UnusableOutputError');
      expect(error?.cause).toBeInstanceOf(SyntaxError);
    }
  });
});
