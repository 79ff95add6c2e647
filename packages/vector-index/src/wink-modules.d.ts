// Minimal declaration of wink-nlp-utils (it ships no types). wink-bm25-text-search's is in
// ../../../types/wink-bm25-text-search.d.ts, shared with window-reranker.

declare module 'wink-nlp-utils' {
  const nlp: {
    string: { lowerCase(text: string): string };
    tokens: {
      removeWords(tokens: string[], stopWords?: unknown): string[];
      stem(tokens: string[]): string[];
    };
  };
  export default nlp;
}

declare module 'wink-nlp-utils/src/tokens-remove-words.js' {
  /** The same function as `nlp.tokens.removeWords` (wink's English stop words by default). */
  const removeWords: (tokens: string[], stopWords?: unknown) => string[];
  export default removeWords;
}

declare module 'wink-nlp-utils/src/tokens-stem.js' {
  /** The same function as `nlp.tokens.stem` (Porter2). */
  const stem: (tokens: string[]) => string[];
  export default stem;
}
