import { runVectorIndexConformance } from './conformance.js';
import { createFaissVectorIndex, loadFaissVectorIndex } from './faiss-vector-index.js';
import { createInMemoryVectorIndex, loadInMemoryVectorIndex } from './in-memory-vector-index.js';

runVectorIndexConformance('InMemoryVectorIndex', createInMemoryVectorIndex, { load: loadInMemoryVectorIndex });

runVectorIndexConformance('FaissVectorIndex Flat', ({ dimension }) => createFaissVectorIndex({ dimension }), {
  load: loadFaissVectorIndex,
});

runVectorIndexConformance('FaissVectorIndex HNSW32', ({ dimension }) => createFaissVectorIndex({ dimension, factory: 'HNSW32' }), {
  load: loadFaissVectorIndex,
  exact: false,
});

// nprobe = nlist visits every list, so IVF is exact here.
runVectorIndexConformance(
  'FaissVectorIndex IVF4,Flat nprobe 4',
  ({ dimension }) => createFaissVectorIndex({ dimension, factory: 'IVF4,Flat', searchParameters: { nprobe: 4 } }),
  { load: loadFaissVectorIndex },
);
