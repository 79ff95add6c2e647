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
/** Words whose term a tokenizer remembers before it starts again (bounds its memory). */
const TERM_CACHE_LIMIT = 1 << 18;

/**
 * English default: lower-case, strip diacritics (Élodie → elodie), split on anything that is not
 * a letter or digit, drop single letters and wink's English stop words, Porter2-stem.
 */
export function createDefaultBm25Tokenizer(): Bm25Tokenizer {
  // Each word's term (null for a stop word), remembered: stemming is most of a build's BM25 cost
  // and a corpus repeats its words. The same wink functions decide, one word at a time, so the
  // terms are exactly those of stemming the filtered list.
  const terms = new Map<string, string | null>();
  const termOf = (word: string): string | null => {
    let term = terms.get(word);
    if (term === undefined) {
      term = stem(removeWords([word]))[0] ?? null;
      if (terms.size >= TERM_CACHE_LIMIT) terms.clear();
      terms.set(word, term);
    }
    return term;
  };
  return {
    id: 'mosaic-en-porter2-v1',
    tokenize(text: string): string[] {
      const words = text.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase().split(NON_WORD);
      const out: string[] = [];
      for (const word of words) {
        if (word.length <= 1 && !/\d/.test(word)) continue;
        const term = termOf(word);
        if (term !== null) out.push(term);
      }
      return out;
    },
  };
}
