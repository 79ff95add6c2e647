/**
 * The BM25 worker thread: answers `{ id, documents }` messages with `{ id, bytes }`, the binary
 * layout (`Bm25Index.toBinary()`) of `createBm25Index({ documents })` with the default tokenizer
 * and parameters, its buffer transferred; or `{ id, error }`. Messages are answered in order.
 */
import { parentPort } from 'node:worker_threads';
import { createBm25Index } from '@mosaic/vector-index';

parentPort?.on('message', (message: { id: number; documents: string[] }) => {
  try {
    const parts = createBm25Index({ documents: message.documents }).toBinary();
    // One unpooled buffer (Buffer.concat may hand out a shared pool slab, which cannot be transferred).
    const bytes = new Uint8Array(parts.reduce((total, part) => total + part.byteLength, 0));
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.byteLength;
    }
    parentPort?.postMessage({ id: message.id, bytes }, [bytes.buffer]);
  } catch (error) {
    const { name, message: text } = error instanceof Error ? error : new Error(String(error));
    parentPort?.postMessage({ id: message.id, error: { name, message: text } });
  }
});
