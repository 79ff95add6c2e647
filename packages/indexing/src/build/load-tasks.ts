import { decodeSentenceTokenParts, type SentenceTokenParts } from '@mosaic/stage-utils/internal';
import {
  type DecodedBm25Binary,
  decodeBm25Binary,
  type FaissFloat16Vectors,
  type FaissLayout,
  type FaissStoredVectors,
  firstNonFiniteVector,
  readFaissStoredVectorsFile,
} from '@mosaic/vector-index';
import { readGzipBytes } from './index-files.js';

/** How often a load worker (and the digest worker) says it is alive while its event loop is free. */
export const LOAD_SIGN_OF_LIFE_MS = 1_000;

/** A task of the index load worker (see load-worker.ts): a faiss file's stored vectors, a gzip file, a gzip'd BM25 state, or gzip'd sentence tokens. */
export type LoadTask = { gunzip: string } | { bm25: string } | { vectors: string } | { sentences: string };

/** The answer to one load task (see `runLoadTask`): what the file held, or the error reading it met. */
export interface LoadAnswer {
  path: string;
  bytes?: Uint8Array;
  bm25?: DecodedBm25Binary;
  sentences?: SentenceTokenParts;
  vectors?: StoredKindVectors;
  nonFinite?: { row: number; value: number };
  error?: { name: string; message: string; code?: string; source?: string };
}

/** The stored vectors of one faiss file (float32 rows, or float16 codes as they are), with the file's layout. */
export type StoredKindVectors = (FaissStoredVectors | FaissFloat16Vectors) & { layout: FaissLayout };

/** The file a task reads. */
export function taskPath(task: LoadTask): string {
  if ('gunzip' in task) return task.gunzip;
  if ('bm25' in task) return task.bm25;
  return 'sentences' in task ? task.sentences : task.vectors;
}

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

/**
 * Do one load task, on whichever thread calls it (the load worker, or `loadIndex`'s own thread when
 * the worker is given up on): its answer, and the buffers a worker transfers with it.
 * - `{ gunzip: path }` → `{ path, bytes }`: the file decompressed by `readGzipBytes`;
 * - `{ bm25: path }` → `{ path, bm25 }`: a gzip'd binary BM25 state decompressed and decoded
 *   (`decodeBm25Binary`, in place), for `Bm25Index.fromDecoded`;
 * - `{ sentences: path }` → `{ path, sentences }`: gzip'd sentence tokens decompressed and decoded
 *   (`decodeSentenceTokenParts`), for `sentenceTokensFromParts`;
 * - `{ vectors: path }` → `{ path, vectors, nonFinite }`: the stored vectors of a faiss file, float16
 *   codes kept as they are (`readFaissStoredVectorsFile`), and the first non-finite value, if any.
 * A task that fails is answered `{ path, error }` (the error as plain fields, as a message carries it).
 */
export async function runLoadTask(task: LoadTask): Promise<{ answer: LoadAnswer; transfer: ArrayBuffer[] }> {
  const path = taskPath(task);
  try {
    if ('gunzip' in task) {
      const bytes = await gunzipped(path);
      return { answer: { path, bytes }, transfer: [bytes.buffer as ArrayBuffer] };
    }
    if ('bm25' in task) {
      const bm25 = decodeBm25Binary(await gunzipped(path), path, { owned: true });
      const { offsets, labels, weights } = bm25.postings;
      // The labels (and float64 weights) are views of the decompressed bytes: one buffer, sent once.
      return { answer: { path, bm25 }, transfer: [...new Set([offsets.buffer, labels.buffer, weights.buffer])] as ArrayBuffer[] };
    }
    if ('sentences' in task) {
      const sentences = decodeSentenceTokenParts(await gunzipped(path));
      const { chunkStart, starts, ends, tokenStart, tokens, vocabulary } = sentences;
      // Each array has a buffer of its own (made by the decoding).
      return { answer: { path, sentences }, transfer: [chunkStart, starts, ends, tokenStart, tokens, vocabulary].map((array) => array.buffer as ArrayBuffer) };
    }
    const stored = readFaissStoredVectorsFile(path, { keepFloat16: true });
    const nonFinite = firstNonFiniteVector(stored);
    // The codes or the matrix have an ArrayBuffer of their own (never Node's pool): sent as they are.
    const values = 'float16' in stored ? stored.float16 : stored.matrix;
    return { answer: { path, vectors: stored, nonFinite }, transfer: [values.buffer as ArrayBuffer] };
  } catch (error) {
    const { name, message, code } = error as NodeJS.ErrnoException;
    return { answer: { path, error: { name, message: message ?? String(error), code, source: (error as { source?: string }).source } }, transfer: [] };
  }
}
