import { describe, expect, it } from 'vitest';
import { checkTuning } from './check-tuning.js';

interface Tuning {
  alpha: number;
  beta: boolean;
}
const KEYS = ['alpha', 'beta'] as const;

describe('checkTuning', () => {
  it('returns the tuning object, or an empty one when there is none', () => {
    expect(checkTuning<Tuning>({ id: 'x', tuning: { alpha: 2 } }, [...KEYS])).toEqual({ alpha: 2 });
    expect(checkTuning<Tuning>({ id: 'x' }, [...KEYS])).toEqual({});
  });

  it('rejects an unknown tuning key, a tuning option at the top level and a tuning that is not an object', () => {
    expect(() => checkTuning<Tuning>({ tuning: { alpha: 1, gamma: 2 } }, [...KEYS])).toThrow(/tuning\.gamma.*is not a tuning option \(alpha, beta\)/);
    expect(() => checkTuning<Tuning>({ alpha: 1 }, [...KEYS])).toThrow(/alpha.*pass it as tuning\.alpha/);
    for (const tuning of [null, 3, [1]]) expect(() => checkTuning<Tuning>({ tuning }, [...KEYS])).toThrow(/tuning.*must be an object/);
  });
});
