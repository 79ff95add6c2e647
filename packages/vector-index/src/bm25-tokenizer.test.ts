import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import nlp from 'wink-nlp-utils';
import { describe, expect, it } from 'vitest';
import { createDefaultBm25Tokenizer } from './bm25-tokenizer.js';

// The dataset is read by path, never copied: MOSAIC_DATASETS_DIR, else ../shared beside the repository.
const MEDICAL = join(process.env.MOSAIC_DATASETS_DIR ?? fileURLToPath(new URL('../../../../shared/datasets/graphrag-bench', import.meta.url)), 'medical.json');

/** The terms as the tokenizer made them before it remembered words: wink's list functions over the filtered words. */
function referenceTerms(text: string): string[] {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1 || /\d/.test(word));
  return nlp.tokens.stem(nlp.tokens.removeWords(words));
}

function medicalSentences(): string[] {
  try {
    const corpus = JSON.parse(readFileSync(MEDICAL, 'utf8')) as { context: string }[];
    return corpus
      .map((entry) => entry.context)
      .join('\n')
      .split(/(?<=[.!?])\s+/)
      .slice(0, 8000);
  } catch {
    return [];
  }
}

describe('createDefaultBm25Tokenizer', () => {
  it('lower-cases, strips accents, splits on non-words, drops single letters and stop words, stems', () => {
    const tokenizer = createDefaultBm25Tokenizer();
    expect(tokenizer.tokenize('Élodie was running to the 2 hospitals; a B-cell test')).toEqual(['elodi', 'run', '2', 'hospit', 'cell', 'test']);
    expect(tokenizer.tokenize('')).toEqual([]);
    expect(tokenizer.tokenize('the and of')).toEqual([]);
  });

  it('gives the terms of stemming the whole filtered list, for repeated words too (real sentences)', () => {
    const sentences = medicalSentences();
    const texts =
      sentences.length > 0
        ? sentences
        : ['Patients with diabetes mellitus (DM) received insulin.', 'Insulin dosing in diabetic patients; the patients were dosed.'];
    const tokenizer = createDefaultBm25Tokenizer();
    // Twice: the second pass reads every word from the tokenizer's memory.
    for (let pass = 0; pass < 2; pass += 1) {
      for (const text of texts) expect(tokenizer.tokenize(text)).toEqual(referenceTerms(text));
    }
  });
});
