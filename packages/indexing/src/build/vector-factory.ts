/**
 * The vector-index factory an index is built with: `'auto'` (the default) picks per vector kind
 * by size; any other string is a faiss `index_factory` descriptor used as given.
 */
export const AUTO_VECTOR_FACTORY = 'auto';

/**
 * From this many vectors of one kind on, `'auto'` builds an approximate HNSW index instead of the
 * exact flat one. Below it an exact search of all vectors costs at most ~10 ms per query on one
 * core (100-dimensional vectors: 250,000 × 100 multiply-adds), building an HNSW graph costs more
 * than it saves, and results stay exactly those of an exhaustive search (GraphRAG-Bench Medical
 * and Novel, and the 12 MB Python documentation, stay below it).
 */
export const AUTO_HNSW_FROM = 250_000;

/** HNSW graph degree used by `'auto'` (faiss `HNSW32`: 32 neighbours per node, vectors stored flat). */
export const AUTO_HNSW_FACTORY = 'HNSW32';

/** Search breadth stored in HNSW indexes built by this package (faiss' default of 16 misses neighbours). */
export const HNSW_EF_SEARCH = 128;

/** The faiss factory for `count` vectors of one kind: `factory` itself unless it is `'auto'`. */
export function chooseVectorFactory(factory: string, count: number): string {
  if (factory !== AUTO_VECTOR_FACTORY) return factory;
  return count >= AUTO_HNSW_FROM ? AUTO_HNSW_FACTORY : 'Flat';
}

/** Search parameters set (and saved) when building an index with `factory`. */
export function vectorSearchParameters(factory: string): Record<string, number> | undefined {
  return /^HNSW\d+(,Flat)?$/.test(factory) ? { efSearch: HNSW_EF_SEARCH } : undefined;
}
