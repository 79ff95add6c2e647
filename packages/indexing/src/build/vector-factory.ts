/**
 * The vector-index factory an index is built with: `'auto'` (the default) picks per vector kind
 * by size; any other string is a faiss `index_factory` descriptor used as given.
 */
export const AUTO_VECTOR_FACTORY = 'auto';

/**
 * The exact index of `'auto'`: faiss `SQfp16`, every vector stored as float16 (half the bytes of
 * float32, 200 bytes for 100 dimensions), searched exhaustively by inner product. Float16 keeps
 * about 3 decimal digits per component (relative error ≤ 2⁻¹¹); on GraphRAG-Bench Medical and
 * Novel the dev evidence recall is unchanged with it (docs/results/issue-31.md, Part B).
 */
export const AUTO_FLAT_FACTORY = 'SQfp16';

/**
 * From this many vectors of one kind on, `'auto'` builds an approximate HNSW index instead of the
 * exact flat one. Below it an exact search of all vectors costs at most ~10 ms per query on one
 * core (100-dimensional vectors: 250,000 × 100 multiply-adds), building an HNSW graph costs more
 * than it saves, and results stay exactly those of an exhaustive search (GraphRAG-Bench Medical
 * and Novel, and the 12 MB Python documentation, stay below it).
 */
export const AUTO_HNSW_FROM = 250_000;

/**
 * The approximate index of `'auto'`: faiss `HNSW16_SQfp16` (16 neighbours per node and level, the
 * vectors stored as float16 as in AUTO_FLAT_FACTORY). 16 rather than 32 keeps the links at ~128
 * bytes a vector, so the index stays within 15× the corpus on disk.
 */
export const AUTO_HNSW_FACTORY = 'HNSW16_SQfp16';

/**
 * Search breadth stored in HNSW indexes built by this package. Measured on 260,962 real float16
 * entity and relation vectors (GraphRAG-Bench and Debian docs indexes) with the 1,214 dev questions
 * as queries, recall@30 of HNSW16_SQfp16 against exact search: efSearch 16 63.2 %, 64 85.9 %,
 * 128 93.0 %, 256 96.3 % (docs/results/issue-31.md, Part B); 256 costs about 1 ms more per query.
 */
export const HNSW_EF_SEARCH = 256;

/** The faiss factory for `count` vectors of one kind: `factory` itself unless it is `'auto'`. */
export function chooseVectorFactory(factory: string, count: number): string {
  if (factory !== AUTO_VECTOR_FACTORY) return factory;
  return count >= AUTO_HNSW_FROM ? AUTO_HNSW_FACTORY : AUTO_FLAT_FACTORY;
}

/** Search parameters set (and saved) when building an index with `factory`. */
export function vectorSearchParameters(factory: string): Record<string, number> | undefined {
  return /^HNSW\d+([,_](Flat|SQfp16|SQ[468]))?$/.test(factory) ? { efSearch: HNSW_EF_SEARCH } : undefined;
}
