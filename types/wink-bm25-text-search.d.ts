// The one type declaration of wink-bm25-text-search (the package ships none), for every package
// that uses it: vector-index (the BM25 index) and window-reranker (BM25 over candidate windows).
// A package includes it from its tsconfig.json ("include": ["src", "../../types/wink-bm25-text-search.d.ts"]).

declare module 'wink-bm25-text-search' {
  interface WinkBm25Config {
    fldWeights: Record<string, number>;
    bm25Params?: { k1?: number; b?: number; k?: number };
    ovFldNames?: string[];
  }
  interface WinkBm25 {
    defineConfig(config: WinkBm25Config): boolean;
    /** Preparation of a field's text and of a query: here always one task, text → tokens. */
    definePrepTasks(tasks: ReadonlyArray<(text: string) => string[]>, field?: string): number;
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
