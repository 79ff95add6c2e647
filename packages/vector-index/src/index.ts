export { FaissVectorIndex, createFaissVectorIndex, faissReadsItself, loadFaissVectorIndex } from './faiss-vector-index.js';
export type { FaissVectorIndexOptions, LoadFaissVectorIndexOptions } from './faiss-vector-index.js';
export {
  type FaissFloat16Vectors,
  type FaissLayout,
  type FaissStoredVectors,
  firstNonFiniteVector,
  float16Matrix,
  float16Row,
  readFaissStoredVectors,
  readFaissStoredVectorsFile,
} from './faiss-stored-vectors.js';
export { InMemoryVectorIndex, createInMemoryVectorIndex, loadInMemoryVectorIndex } from './in-memory-vector-index.js';
export type { InMemoryVectorIndexOptions, LoadInMemoryVectorIndexOptions } from './in-memory-vector-index.js';
export { Bm25Index, createBm25Index, DEFAULT_MAX_POSTINGS_PER_TERM, resolveMaxPostingsPerTerm } from './bm25-index.js';
export type {
  Bm25IndexFromBinaryOptions,
  Bm25IndexFromDecodedOptions,
  Bm25IndexFromJsonOptions,
  DecodedBm25Binary,
  Bm25IndexJson,
  Bm25IndexJsonV1,
  Bm25IndexJsonV2,
  Bm25IndexOptions,
} from './bm25-index.js';
export { decodeBm25Binary, isBm25Binary, BM25_BINARY_VERSION, type Bm25BinaryHeader } from './bm25-binary.js';
export type { Bm25PostingArrays } from './bm25-postings.js';
export { createDefaultBm25Tokenizer } from './bm25-tokenizer.js';
export type { Bm25Tokenizer } from './bm25-tokenizer.js';
export type { Bm25Parameters } from './bm25-scoring.js';
export { FaissUnavailableError } from './faiss-unavailable-error.js';
