import { describe, expect, it } from 'vitest';
import { AsciiTokenNumbers, matchStem, matchTokens, normalizeLabel, TokenNumbering, tokenContainment, tokenJaccard } from './match-tokens.js';
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

describe('AsciiTokenNumbers', () => {
  /** A numbering of tokens in order of first sight, as the sentence tables keep it. */
  function numbering() {
    const numbers = new Map<string, number>();
    const calls: string[] = [];
    const numberOf = (token: string) => {
      calls.push(token);
      let number = numbers.get(token);
      if (number === undefined) numbers.set(token, (number = numbers.size));
      return number;
    };
    return { numbers, calls, numberOf };
  }

  it('gives the numbers of matchTokens of the slice, in order, for ASCII ranges, and asks for each word once', () => {
    const random = seededRandom(31);
    const pieces = [
      'The',
      'the',
      'THE',
      'items',
      'Item',
      'running',
      'classes',
      'a',
      'Is',
      'x9',
      '42',
      'SPDX',
      'License',
      'Identifier',
      'GPL-2.0',
      'data',
      'of',
    ];
    const separators = [' ', ', ', '. ', '-', '_', '\n', '\t', '(', ')', '/', ':', "'", '"', '='];
    const { numbers, calls, numberOf } = numbering();
    const reference = new Map<string, number>();
    const tokensAsNumbers = new AsciiTokenNumbers(numberOf);
    for (let round = 0; round < 400; round += 1) {
      let text = '';
      const words = 1 + Math.floor(random() * 30);
      for (let w = 0; w < words; w += 1) {
        text += pieces[Math.floor(random() * pieces.length)];
        text += separators[Math.floor(random() * separators.length)];
      }
      // Ranges that cut words in two, and ranges past either end (clamped as slice clamps).
      const start = Math.floor(random() * (text.length + 4)) - 2;
      const end = start + Math.floor(random() * (text.length + 4));
      const got: number[] = [];
      expect(tokensAsNumbers.forEachNumber(text, start, end, (number) => got.push(number))).toBe(true);
      const expected = matchTokens(text.slice(Math.max(0, start), Math.max(0, end))).map((token) => {
        if (!reference.has(token)) reference.set(token, numbers.get(token) ?? -1);
        return numbers.get(token);
      });
      expect(got).toEqual(expected);
    }
    // Each distinct lower-case word was turned into a token once ('item' and 'items' both ask for 'item').
    expect(calls.length).toBeLessThanOrEqual(tokensAsNumbers.size);
    expect(calls.length).toBeGreaterThan(numbers.size);
    expect(reference.size).toBe(numbers.size);
    expect(tokensAsNumbers.size).toBeGreaterThan(15);
    expect(numbers.has('the')).toBe(false);
    expect(numbers.has('item')).toBe(true);
    expect(numbers.has('items')).toBe(false);
  });

  it('gives nothing, and false, for a range with a character above U+007F, and reads only the range', () => {
    const { numberOf, calls } = numbering();
    const tokensAsNumbers = new AsciiTokenNumbers(numberOf);
    const got: number[] = [];
    const text = 'Plain words here. Café au lait. More plain words.';
    expect(tokensAsNumbers.forEachNumber(text, 0, 17, (number) => got.push(number))).toBe(true);
    expect(got).toEqual([0, 1, 2]);
    expect(tokensAsNumbers.forEachNumber(text, 18, 31, (number) => got.push(number))).toBe(false);
    expect(got).toEqual([0, 1, 2]);
    expect(calls).toEqual(['plain', 'word', 'here']);
    expect(tokensAsNumbers.forEachNumber('𝄞 note', 0, 7, () => got.push(-1))).toBe(false);
    expect(tokensAsNumbers.forEachNumber(text, 32, 200, (number) => got.push(number))).toBe(true);
    expect(got).toEqual([0, 1, 2, 3, 0, 1]);
  });

  it('keeps every word apart as its table grows past many rehashes', () => {
    const { numbers, numberOf } = numbering();
    const tokensAsNumbers = new AsciiTokenNumbers(numberOf);
    const words = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}z`);
    const text = words.join(' ');
    const got: number[] = [];
    expect(tokensAsNumbers.forEachNumber(text, 0, text.length, (number) => got.push(number))).toBe(true);
    expect(tokensAsNumbers.forEachNumber(text.toUpperCase(), 0, text.length, (number) => got.push(number))).toBe(true);
    expect(got).toEqual([...words.map((word) => numbers.get(word)), ...words.map((word) => numbers.get(word))]);
    expect(new Set(got).size).toBe(20_000);
    expect(tokensAsNumbers.size).toBe(20_000);
  });
});

describe('TokenNumbering', () => {
  it('visits each distinct matchTokens token of a range once, in order of first occurrence, ASCII or not, range after range', () => {
    const numbering = new TokenNumbering();
    const random = seededRandom(11);
    const words = ['Kernel', 'kernels', 'the', 'page', 'Pages', 'café', 'x86', 'İstanbul', 'tree', 'of'];
    for (let n = 0; n < 300; n += 1) {
      const text = Array.from({ length: 3 + Math.floor(random() * 20) }, () => words[Math.floor(random() * words.length)]).join(random() < 0.5 ? ' ' : ', ');
      const start = Math.floor(random() * 5);
      const end = text.length - Math.floor(random() * 5);
      const visited: number[] = [];
      numbering.forEachDistinct(text, start, end, (number) => visited.push(number));
      expect(visited.map((number) => numbering.vocabulary[number])).toEqual([...new Set(matchTokens(text.slice(start, end)))]);
    }
    expect(new Set(numbering.vocabulary).size).toBe(numbering.vocabulary.length);
    expect(numbering.numberIfKnown('kernel')).toBe(numbering.vocabulary.indexOf('kernel'));
    expect(numbering.numberIfKnown('absent')).toBeUndefined();
    expect(numbering.numberOf('absent')).toBe(numbering.vocabulary.length - 1);
  });
});
