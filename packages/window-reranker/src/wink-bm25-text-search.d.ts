declare module 'wink-bm25-text-search' {
  interface Bm25Engine {
    defineConfig(config: { fldWeights: Record<string, number>; bm25Params?: { k1?: number; b?: number; k?: number } }): boolean;
    definePrepTasks(tasks: Array<(input: any) => any>, field?: string): number;
    addDoc(doc: Record<string, string>, id: string | number): number;
    consolidate(precision?: number): boolean;
    search(text: string, limit?: number): Array<[string, number]>;
  }
  function bm25(): Bm25Engine;
  export default bm25;
}
