// Minimal declarations for the CommonJS wink packages this package uses (they ship no types).

declare module 'wink-bm25-text-search' {
  interface WinkBm25Config {
    fldWeights: Record<string, number>;
    bm25Params?: { k1?: number; b?: number; k?: number };
    ovFldNames?: string[];
  }
  interface WinkBm25 {
    defineConfig(config: WinkBm25Config): boolean;
    definePrepTasks(tasks: Array<(input: unknown) => unknown>, field?: string): number;
    addDoc(doc: Record<string, string>, id: string): number;
    consolidate(precision?: number): boolean;
    search(text: string, limit?: number): Array<[string, number]>;
    exportJSON(): string;
    importJSON(json: string): boolean;
    getTotalDocs(): number;
    /** Per-document state; after consolidate(), `freq` maps token index → BM25 weight. */
    getDocs(): Record<string, { freq: Record<string, number> }>;
    /** Token → token index. */
    getTokens(): Record<string, number>;
  }
  function bm25(): WinkBm25;
  export default bm25;
}

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
