import { runVectorIndexConformance } from './conformance.js';
import { createFaissVectorIndex, loadFaissVectorIndex } from './faiss-vector-index.js';
import { createInMemoryVectorIndex, loadInMemoryVectorIndex } from './in-memory-vector-index.js';

runVectorIndexConformance({ name: 'InMemoryVectorIndex', create: createInMemoryVectorIndex, load: loadInMemoryVectorIndex });

runVectorIndexConformance({ name: 'FaissVectorIndex Flat', create: ({ dimension }) => createFaissVectorIndex({ dimension }), load: loadFaissVectorIndex });

runVectorIndexConformance({
  name: 'FaissVectorIndex HNSW32',
  create: ({ dimension }) => createFaissVectorIndex({ dimension, factory: 'HNSW32' }),
  load: loadFaissVectorIndex,
  exact: false,
});

// nprobe = nlist visits every list, so IVF is exact here.
runVectorIndexConformance({
  name: 'FaissVectorIndex IVF4,Flat nprobe 4',
  create: ({ dimension }) => createFaissVectorIndex({ dimension, factory: 'IVF4,Flat', searchParameters: { nprobe: 4 } }),
  load: loadFaissVectorIndex,
});
