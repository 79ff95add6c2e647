import { describe, expect, it } from 'vitest';
import { AbortedError, ApiCallError, IndexMismatchError, InputError, InvalidArgumentError, MosaicError, throwIfAborted } from '../index.js';

describe('typed errors', () => {
  it('carry stable names and isInstance checks that do not cross types', () => {
    const input = new InputError({ source: 'a.json', message: 'bad' });
    const arg = new InvalidArgumentError({ argument: 'k', message: 'must be positive' });
    expect(input.name).toBe('MosaicInputError');
    expect(InputError.isInstance(input)).toBe(true);
    expect(InputError.isInstance(arg)).toBe(false);
    expect(MosaicError.isInstance(arg)).toBe(true);
    expect(MosaicError.isInstance(new Error('x'))).toBe(false);
    expect(input.source).toBe('a.json');
  });

  it('keeps typed fields and cause', () => {
    const cause = new Error('socket');
    const e = new ApiCallError({ message: 'failed', statusCode: 500, attempts: 3, cause });
    expect(e.cause).toBe(cause);
    expect(e.attempts).toBe(3);
    const m = new IndexMismatchError({ path: '/i', field: 'encoder.dimension', expected: 100, actual: 1024 });
    expect(m.expected).toBe(100);
    expect(IndexMismatchError.isInstance(m)).toBe(true);
  });

  it('throwIfAborted throws only when aborted', () => {
    const c = new AbortController();
    expect(() => throwIfAborted(c.signal, 'x')).not.toThrow();
    c.abort();
    expect(() => throwIfAborted(c.signal, 'x')).toThrowError(expect.objectContaining({ name: 'MosaicAbortedError' }));
    expect(AbortedError.isInstance(new AbortedError())).toBe(true);
  });
});
