import { describe, expect, it } from 'vitest';
import { NameTable } from './name-table.js';

/** Deterministic pseudo-random names (some repeated, some differing in one letter). */
function names(count: number, seed = 7): string[] {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state;
  };
  const letters = 'abcdefghijklmnopqrstuvwxyz- 0123456789éß';
  const out: string[] = [];
  for (let i = 0; i < count; i += 1) {
    if (i > 0 && next() % 10 === 0) {
      out.push(out[next() % out.length]); // a name given twice
      continue;
    }
    const length = 1 + (next() % 14);
    let name = '';
    for (let k = 0; k < length; k += 1) name += letters[next() % letters.length];
    out.push(name);
  }
  return out;
}

describe('NameTable', () => {
  it('finds what a Map of first labels finds, through growth from a small table', () => {
    const keys = names(20000);
    const table = new NameTable(4);
    const reference = new Map<string, number>();
    keys.forEach((key, label) => {
      table.add(key, label);
      if (!reference.has(key)) reference.set(key, label);
    });
    expect(table.size).toBe(reference.size);
    expect(table.slots).toBeGreaterThanOrEqual(2 * table.size);
    for (const [key, label] of reference) expect(table.find(key)).toBe(label);
    // Keys never added, among them near misses of added ones.
    for (const key of ['', 'zz-never', ...[...reference.keys()].slice(0, 500).map((key) => `${key}!`)])
      if (!reference.has(key)) expect(table.find(key)).toBe(-1);
  });

  it('keeps the first label of a name added twice', () => {
    const table = new NameTable();
    table.add('aspirin', 3);
    table.add('aspirin', 1);
    table.add('ibuprofen', 2);
    expect([table.find('aspirin'), table.find('ibuprofen'), table.size]).toEqual([3, 2, 2]);
  });
});
