import winkBm25 from 'wink-bm25-text-search';
import { createDefaultBm25Tokenizer } from '../bm25-tokenizer.js';

/**
 * For tests: a consolidated wink-bm25-text-search engine over `documents` (labels "0" … n − 1),
 * configured as Bm25Index builds one (k1 1.2 and b 0.75 unless given, the default tokenizer, 4 decimals): the
 * reference that the postings and the binary layout are compared with.
 */
export function winkReferenceEngine(documents: readonly string[], parameters = { k1: 1.2, b: 0.75 }): ReturnType<typeof winkBm25> {
  const tokenizer = createDefaultBm25Tokenizer();
  const engine = winkBm25();
  engine.defineConfig({ fldWeights: { body: 1 }, bm25Params: { k1: parameters.k1, b: parameters.b, k: 1 } });
  engine.definePrepTasks([(text) => tokenizer.tokenize(String(text))]);
  documents.forEach((document, label) => {
    engine.addDoc({ body: document }, String(label));
  });
  engine.consolidate(4);
  return engine;
}
