import { createBiEncoderReranker } from './bi-encoder-reranker.js';
import { createRerankerFixture, runWindowRerankerConformance } from './conformance.js';
import { createExpandingReranker } from './expanding-reranker.js';
import { createHybridReranker } from './hybrid-reranker.js';

runWindowRerankerConformance({ name: 'bi-encoder', create: () => createBiEncoderReranker() });
runWindowRerankerConformance({
  name: 'bi-encoder over windowIndex (no windowVector)',
  create: () => createBiEncoderReranker(),
  fixture: () => createRerankerFixture({ windowVectors: false }),
});
runWindowRerankerConformance({ name: 'bi-encoder cutting chunks', create: () => createBiEncoderReranker({ cutChunks: { size: 120, stride: 60 } }) });
runWindowRerankerConformance({ name: 'hybrid', create: () => createHybridReranker({ lexicalWeight: 0.3 }) });
runWindowRerankerConformance({ name: 'bi-encoder+expand', create: () => createExpandingReranker(), allowWindowsWithoutEvidence: true });
runWindowRerankerConformance({ name: 'hybrid+expand', create: () => createExpandingReranker({ lexicalWeight: 0.3 }), allowWindowsWithoutEvidence: true });
