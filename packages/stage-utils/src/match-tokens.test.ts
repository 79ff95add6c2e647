import { describe, expect, it } from 'vitest';
import { matchStem, matchTokens, normalizeLabel, tokenContainment, tokenJaccard } from './match-tokens.js';

describe('matching tokens', () => {
  it('stems plurals, -ing and -ed, but not -ss/-us/-is words', () => {
    expect(['treatments', 'therapies', 'classes', 'bleeding', 'caused', 'glass', 'virus', 'diagnosis'].map(matchStem)).toEqual([
      'treatment',
      'therapy',
      'class',
      'bleed',
      'caus',
      'glass',
      'virus',
      'diagnosis',
    ]);
  });

  it('keeps letters and digits of any script, drops stop words', () => {
    expect(matchTokens('What are the Symptoms of Type 2 Diabetes in Élodie?')).toEqual(['symptom', 'type', '2', 'diabete', 'élodie']);
  });

  it('measures containment and Jaccard on token sets', () => {
    const a = new Set(['basal', 'cell']);
    const b = new Set(['basal', 'cell', 'carcinoma']);
    expect(tokenContainment(a, b)).toBe(1);
    expect(tokenContainment(b, a)).toBeCloseTo(2 / 3);
    expect(tokenContainment(new Set(), b)).toBe(0);
    expect(tokenJaccard(a, b)).toBeCloseTo(2 / 3);
    expect(tokenJaccard(new Set(), new Set())).toBe(0);
  });

  it('normalises labels for repetition checks', () => {
    expect(normalizeLabel('  Causes,  LEADS-to ')).toBe('causes leads to');
  });
});
