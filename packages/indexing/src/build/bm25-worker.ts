/**
 * The BM25 worker thread: answers a `{ documents }` message with `{ bytes }`, the binary layout
 * (`Bm25Index.toBinary()`) of `createBm25Index({ documents })` with the default tokenizer and
 * parameters, its buffer transferred; or `{ error }`. One build per worker: it ends once its answer
 * is posted (a message posted before the end is delivered), so its heap is given back then, even
 * while the thread that started it is busy (a faiss add holds the build's main thread for minutes
 * at 100 MB of text, and would otherwise stop it only afterwards).
 */
import { parentPort } from 'node:worker_threads';
import { createBm25Index } from '@mosaic/vector-index';

parentPort?.on('message', (message: { documents: string[] }) => {
  try {
    const parts = createBm25Index({ documents: message.documents }).toBinary();
    // One unpooled buffer (Buffer.concat may hand out a shared pool slab, which cannot be transferred).
    const bytes = new Uint8Array(parts.reduce((total, part) => total + part.byteLength, 0));
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.byteLength;
    }
    parentPort?.postMessage({ bytes }, [bytes.buffer]);
  } catch (error) {
    const { name, message: text } = error instanceof Error ? error : new Error(String(error));
    parentPort?.postMessage({ error: { name, message: text } });
  }
  process.exit(0);
});
