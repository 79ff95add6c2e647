// The two functions by their own modules: wink-nlp-utils' index also requires its sentence
// splitter, which loads wink's English model (≈ 0.6 s of CPU in every process that imports this package).
import removeWords from 'wink-nlp-utils/src/tokens-remove-words.js';
import stem from 'wink-nlp-utils/src/tokens-stem.js';

/** Turns text into index terms. `id` is stored with a saved index and checked on load. */
export interface Bm25Tokenizer {
  readonly id: string;
  tokenize(text: string): string[];
}

const COMBINING_MARKS = /[\u0300-\u036f]/g;
const NON_WORD = /[^\p{L}\p{N}]+/u;

/**
 * English default: lower-case, strip diacritics (Élodie → elodie), split on anything that is not
 * a letter or digit, drop single letters and wink's English stop words, Porter2-stem.
 */
export function createDefaultBm25Tokenizer(): Bm25Tokenizer {
  return {
    id: 'mosaic-en-porter2-v1',
    tokenize(text: string): string[] {
      const words = text
        .normalize('NFKD')
        .replace(COMBINING_MARKS, '')
        .toLowerCase()
        .split(NON_WORD)
        .filter((word) => word.length > 1 || /\d/.test(word));
      return stem(removeWords(words));
    },
  };
}
