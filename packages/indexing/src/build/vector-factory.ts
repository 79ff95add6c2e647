import type { VectorKind } from '@mosaic/stage-utils/internal';

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
 * From this many entity or relation vectors on, `'auto'` builds an approximate HNSW index instead
 * of the exact flat one. Below it an exact search costs at most ~10–30 ms per query (100
 * dimensions, float32 in memory), and HNSW's links (about 144 bytes a vector) would cost more disk
 * than the index has to spare: a corpus holds about 17 relations and 5 entities per KB of text, so
 * links for them from 50,000 on would take a 10 MB documentation corpus from 12.3× to 16.0× its
 * size (docs/results/issue-31.md, session 10; the index is asked to stay within 15×).
 */
export const AUTO_HNSW_FROM = 250_000;

/**
 * From this many window vectors on, `'auto'` builds the window index as HNSW. The reranker searches
 * every window once a question, and the exact search is linear in them: about 15 ms at 112,247
 * windows (100 MB of documentation), as much as a whole GraphRAG-Bench Medical question, against
 * 1–2 ms for HNSW16 at efSearch 256. A corpus holds about one window per KB of text, so their links
 * cost about 1 % of an index. Below 50,000 the exact search costs a few milliseconds.
 * GraphRAG-Bench Medical and Novel (at most 1,315 windows, and 20,826 vectors of any kind) stay
 * exact. (Windows followed AUTO_HNSW_FROM until session 10 of issue 31.)
 */
export const AUTO_HNSW_WINDOWS_FROM = 50_000;

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

/**
 * The faiss factory for `count` vectors of one kind: `factory` itself unless it is `'auto'`, which
 * builds HNSW from AUTO_HNSW_WINDOWS_FROM windows, or from AUTO_HNSW_FROM vectors of another kind
 * (also when no kind is given).
 */
export function chooseVectorFactory(factory: string, count: number, kind?: VectorKind): string {
  if (factory !== AUTO_VECTOR_FACTORY) return factory;
  return count >= (kind === 'windows' ? AUTO_HNSW_WINDOWS_FROM : AUTO_HNSW_FROM) ? AUTO_HNSW_FACTORY : AUTO_FLAT_FACTORY;
}

/** Search parameters set (and saved) when building an index with `factory`. */
export function vectorSearchParameters(factory: string): Record<string, number> | undefined {
  return /^HNSW\d+([,_](Flat|SQfp16|SQ[468]))?$/.test(factory) ? { efSearch: HNSW_EF_SEARCH } : undefined;
}
