import { describe, expect, it } from 'vitest';
import { matchStem, matchTokens, normalizeLabel, tokenContainment, tokenJaccard } from './match-tokens.js';
import { seededRandom } from './seeded-random.js';

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

describe('matchTokens and normalizeLabel: words of any script', () => {
  // The reference: the regular expression the word scan replaces.
  const WORD = /[\p{L}\p{N}]+/gu;

  it('splits on what is not a letter or digit of any script, astral letters and lone surrogates included', () => {
    const text = 'İstanbul’s ΑΘΗΝΑ: Straße №5, ٣٤ ①; 𝐀𝐁𝐂-x\uD800y \uDC00z';
    expect(matchTokens(text)).toEqual((text.toLowerCase().match(WORD) ?? []).map(matchStem));
    expect(matchTokens(text)).toContain('straße');
    expect(matchTokens(text)).toContain('𝐀𝐁𝐂'.toLowerCase());
    expect(matchTokens('the effects OF the drugs')).toEqual(['effect', 'drug']);
    expect(normalizeLabel('  Part-of   SPEECH 𝐀\uDC00b ')).toBe('part of speech 𝐀 b'.toLowerCase());
  });

  it('finds the words the regular expression finds, on seeded random text of every plane', () => {
    const random = seededRandom(11);
    for (let k = 0; k < 3000; k += 1) {
      let text = '';
      for (let j = 0; j < 30; j += 1) {
        const r = random();
        if (r < 0.4) text += String.fromCharCode(32 + Math.floor(random() * 95));
        else if (r < 0.7) text += String.fromCharCode(Math.floor(random() * 0xffff));
        else if (r < 0.8) text += String.fromCharCode(0xd800 + Math.floor(random() * 0x800));
        else text += String.fromCodePoint(0x10000 + Math.floor(random() * 0x2ffff));
      }
      expect(normalizeLabel(text)).toBe((text.toLowerCase().match(WORD) ?? []).join(' '));
    }
  });
});
