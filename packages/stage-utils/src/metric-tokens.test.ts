import { describe, expect, it } from 'vitest';
import {
  METRIC_STOP_WORDS,
  joinSplitWords,
  metricStem,
  metricTokenSet,
  metricTokenWords,
  metricTokens,
  splitJoinedWords,
  wordsAsWritten,
  writtenApartIn,
} from './metric-tokens.js';

describe('METRICS.md tokens', () => {
  it('keeps repeats in text order; the set keeps first occurrences', () => {
    expect(metricTokens('Treated patients, treated again: X-ray of 2 patients')).toEqual(['treat', 'patient', 'treat', 'ray', 'patient']);
    expect([...metricTokenSet('Treated patients, treated again: X-ray of 2 patients')]).toEqual(['treat', 'patient', 'ray']);
  });

  it('reads each token back as the first word it comes from, lower-cased, in text order', () => {
    const text = 'Treated patients, treated again: X-ray of 2 patients';
    expect([...metricTokenWords(text)]).toEqual([
      ['treat', 'treated'],
      ['patient', 'patients'],
      ['ray', 'ray'],
    ]);
    expect([...metricTokenWords(text).keys()]).toEqual([...metricTokenSet(text)]);
  });

  it('reads only [a-z0-9] runs (other scripts split words) and drops 1-character tokens', () => {
    expect(metricTokens('Élodie saw 3 CT scans')).toEqual(['lodie', 'saw', 'ct', 'scan']);
  });

  it('gives what the METRICS.md pattern /[a-z0-9]+/g over the lower-cased text gives, on random text', () => {
    const reference = (text: string) =>
      [...text.toLowerCase().matchAll(/[a-z0-9]+/g)]
        .map((match) => match[0])
        .filter((token) => token.length >= 2 && !METRIC_STOP_WORDS.has(token))
        .map(metricStem);
    const alphabet = ['a', 'B', 'z', 'Z', '0', '9', ' ', '-', '.', 'É', 'İ', 'ß', 'ﬁ', 'K', '\u212a', 's', 'ing', 'ations', 'The ', 'upon '];
    let state = 11;
    const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let round = 0; round < 500; round += 1) {
      const text = Array.from({ length: Math.floor(random() * 40) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      expect(metricTokens(text), JSON.stringify(text)).toEqual(reference(text));
    }
  });

  it('strips the first matching suffix only when the word is longer than suffix + 3', () => {
    expect(['relations', 'nation', 'radiation', 'dies', 'studies', 'quickly'].map(metricStem)).toEqual(['relation', 'nation', 'radi', 'dies', 'stud', 'quick']);
  });

  it('has the METRICS.md stop-word list', () => {
    expect(METRIC_STOP_WORDS.size).toBe(127);
    for (const word of ['a', 'upon', 'like', 'don', 's', 't']) expect(METRIC_STOP_WORDS.has(word)).toBe(true);
  });
});

describe('joinSplitWords', () => {
  // A corpus that writes "rollback", "database" and "set", but neither "roll" nor "data".
  const corpus = new Set(['rollback', 'back', 'database', 'base', 'set', 'release', 'setup']);
  const occurs = (word: string) => corpus.has(word);

  it('writes two words as one where the text knows only the joined word', () => {
    expect(joinSplitWords('How do I roll back a release?', occurs)).toBe('How do I rollback a release?');
    expect(joinSplitWords('Which Data-Base holds it?', occurs)).toBe('Which database holds it?');
  });

  it('keeps words the text knows apart, words whose joining it does not know, and words not adjacent', () => {
    // "set" occurs and "up" is a stop word: nothing is missing, though "setup" occurs.
    expect(joinSplitWords('How do I set up a release?', occurs)).toBe('How do I set up a release?');
    // "roll" is missing, but "rolldice" does not occur.
    expect(joinSplitWords('Can I roll dice?', occurs)).toBe('Can I roll dice?');
    // Separated by a comma, by two hyphens, or by a digit.
    expect(joinSplitWords('roll, back; roll--back; roll2back', occurs)).toBe('roll, back; roll--back; roll2back');
  });

  it('joins a word with one neighbour only, left first, and asks each word once', () => {
    const asked: string[] = [];
    const counting = (word: string) => {
      asked.push(word);
      return occurs(word) || word === 'backdata';
    };
    expect(joinSplitWords('roll back data base', counting)).toBe('rollback database');
    expect(new Set(asked).size).toBe(asked.length);
  });
});

describe('splitJoinedWords', () => {
  // A corpus that writes "roll back" and "data base" apart, and "release" and "database" never.
  const texts = ['Roll back the release with make undo.', 'The data-base is copied nightly.', 'Make a backup first.'];
  const words = new Set(texts.flatMap((text) => text.toLowerCase().match(/[a-z]+/g) ?? []));
  const occurs = (word: string) => words.has(word);
  const apart = writtenApartIn(texts);

  it('writes a word the corpus does not know as the two words it writes apart', () => {
    expect(splitJoinedWords('How do I do a Rollback of a release?', occurs, apart)).toBe('How do I do a roll back of a release?');
    expect(splitJoinedWords('Is the database copied?', occurs, apart)).toBe('Is the data base copied?');
  });

  it('keeps words the corpus knows, words it never writes apart, and parts shorter than three letters', () => {
    // "backup" occurs; "rolldice" is never written apart; "undo" would split into parts of two letters.
    expect(splitJoinedWords('Is a backup made before a rolldice or an undo?', occurs, apart)).toBe('Is a backup made before a rolldice or an undo?');
    const asked: string[] = [];
    splitJoinedWords('rolldice rolldice', occurs, (left, right) => {
      asked.push(`${left} ${right}`);
      return false;
    });
    expect(asked).toEqual(['rol ldice', 'roll dice', 'rolld ice']); // every cut once, for the word asked twice
  });

  it('finds words apart across a line break or one hyphen, not across other text', () => {
    const across = writtenApartIn(['roll\nback', 'data--base', 'set, up']);
    expect(across('roll', 'back')).toBe(true);
    expect(across('data', 'base')).toBe(false);
    expect(across('set', 'up')).toBe(false);
    expect(writtenApartIn(['a (b c'])('(b', 'c')).toBe(true); // a part is read as text, not as a pattern
  });
});

describe('wordsAsWritten', () => {
  it('joins what the corpus writes as one, then splits what it writes as two, asking each word once', () => {
    const texts = ['Run make rollback to restore it.', 'The data base is copied nightly.'];
    const words = new Set(texts.flatMap((text) => text.toLowerCase().match(/[a-z]+/g) ?? []));
    const asked: string[] = [];
    const occurs = (word: string) => {
      asked.push(word);
      return words.has(word);
    };
    expect(wordsAsWritten('Can I roll back the database?', occurs, writtenApartIn(texts))).toBe('Can I rollback the data base?');
    expect(new Set(asked).size).toBe(asked.length);
  });
});
