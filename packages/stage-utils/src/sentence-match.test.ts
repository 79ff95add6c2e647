import { describe, expect, it } from 'vitest';
import { scoreSentences, splitSentences } from './sentence-match.js';

describe('splitSentences', () => {
  it('splits at sentence ends, list items, blank lines and capitalised headings, with offsets into the text', () => {
    const text =
      'rights in the Work:\n\n  i. the right to copy;\n ii. moral rights retained by the author;\nCOPYING IN QUANTITY\nIf you publish copies. You must do this.';
    const sentences = splitSentences({ text, start: 100 });
    expect(sentences.map((s) => s.text)).toEqual([
      'rights in the Work:',
      'i. the right to copy;',
      'ii. moral rights retained by the author;',
      'COPYING IN QUANTITY',
      'If you publish copies.',
      'You must do this.',
    ]);
    for (const s of sentences) expect(text.slice(s.offset, s.offset + s.length).replace(/\s+/g, ' ')).toBe(s.text);
    // The first fragment starts mid-sentence (the window starts at 100, lower-case).
    expect(sentences[0]!.partial).toBe(true);
    expect(sentences[5]!.partial).toBe(false);
  });
});

describe('scoreSentences', () => {
  it('prefers the short sentence holding the rare question words together', () => {
    const { scores, weights } = scoreSentences({
      question: 'What is a Larger Work?',
      sentences: [
        '"Larger Work" means a work that combines Covered Software with other material.',
        'Each Contributor grants You a license to use, reproduce, modify, display and distribute the work, either on an unmodified basis, with Modifications, or as part of a larger or different work of any kind.',
        'Nothing here.',
      ],
    });
    expect(weights.larger).toBeGreaterThan(0);
    expect(scores[0]!.score).toBeGreaterThan(scores[1]!.score);
    expect(scores[2]!.score).toBe(0);
    expect(scores[0]!.matched).toEqual(['larger', 'work']);
  });
});
