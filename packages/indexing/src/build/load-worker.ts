/**
 * The load worker thread of `loadIndex`: does the reading of an index directory that needs no parsing
 * into JavaScript objects, beside the thread that parses the rest. `workerData.tasks` are done in
 * order, each answered with one message, its buffer transferred:
 * - `{ gunzip: path }` → `{ path, bytes }`: the file decompressed by `readGzipBytes`;
 * - `{ bm25: path }` → `{ path, bm25 }`: a gzip'd binary BM25 state decompressed and decoded
 *   (`decodeBm25Binary`, in place), for `Bm25Index.fromDecoded`;
 * - `{ sentences: path }` → `{ path, sentences }`: gzip'd sentence tokens decompressed and decoded
 *   (`decodeSentenceTokenParts`), for `sentenceTokensFromParts`;
 * - `{ vectors: path }` → `{ path, vectors, nonFinite }`: the stored vectors of a faiss file, float16
 *   codes kept as they are (`readFaissStoredVectorsFile`), and the first non-finite value, if any.
 * A task that fails is answered `{ path, error }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { decodeSentenceTokenParts } from '@mosaic/stage-utils/internal';
import { decodeBm25Binary, firstNonFiniteVector, readFaissStoredVectorsFile } from '@mosaic/vector-index';
import { readGzipBytes } from './index-files.js';
import { type LoadTask, taskPath } from './load-tasks.js';

/** Only a buffer of its own can be transferred (a small one may share Node's pool): a copy otherwise. */
function own(array: Uint8Array): Uint8Array {
  if (array.byteOffset === 0 && array.buffer.byteLength === array.byteLength) return array;
  return array.slice();
}

/** A gzip file decompressed, as a plain Uint8Array with a buffer of its own. */
async function gunzipped(path: string): Promise<Uint8Array> {
  const bytes = await readGzipBytes(path);
  return own(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

const { tasks } = workerData as { tasks: LoadTask[] };
for (const task of tasks) {
  const path = taskPath(task);
  try {
    if ('gunzip' in task) {
      const bytes = await gunzipped(path);
      parentPort?.postMessage({ path, bytes }, [bytes.buffer as ArrayBuffer]);
    } else if ('bm25' in task) {
      const bm25 = decodeBm25Binary(await gunzipped(path), path, { owned: true });
      const { offsets, labels, weights } = bm25.postings;
      // The labels (and float64 weights) are views of the decompressed bytes: one buffer, sent once.
      parentPort?.postMessage({ path, bm25 }, [...new Set([offsets.buffer, labels.buffer, weights.buffer])] as ArrayBuffer[]);
    } else if ('sentences' in task) {
      const sentences = decodeSentenceTokenParts(await gunzipped(path));
      const { chunkStart, starts, ends, tokenStart, tokens, vocabulary } = sentences;
      // Each array has a buffer of its own (made by the decoding).
      parentPort?.postMessage(
        { path, sentences },
        [chunkStart, starts, ends, tokenStart, tokens, vocabulary].map((array) => array.buffer as ArrayBuffer),
      );
    } else {
      const stored = readFaissStoredVectorsFile(path, { keepFloat16: true });
      const nonFinite = firstNonFiniteVector(stored);
      // The codes or the matrix have an ArrayBuffer of their own (never Node's pool): sent as they are.
      const values = 'float16' in stored ? stored.float16 : stored.matrix;
      parentPort?.postMessage({ path, vectors: stored, nonFinite }, [values.buffer as ArrayBuffer]);
    }
  } catch (error) {
    const { name, message, code } = error as NodeJS.ErrnoException;
    parentPort?.postMessage({ path, error: { name, message: message ?? String(error), code, source: (error as { source?: string }).source } });
  }
}
