/**
 * The gunzip worker thread: reads the gzip files of `workerData.paths` in order, each with
 * `readGzipBytes`, and posts `{ path, bytes }` for each (its buffer transferred), or
 * `{ path, error }`. Decompressing here keeps the copying (and the first touch of the output's
 * memory) off the thread that parses the rest of an index.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readGzipBytes } from './index-files.js';

const { paths } = workerData as { paths: string[] };
for (const path of paths) {
  try {
    let bytes: Uint8Array = await readGzipBytes(path);
    // Only a buffer of its own can be transferred (a small one may share Node's pool).
    if (bytes.byteOffset !== 0 || bytes.buffer.byteLength !== bytes.byteLength) bytes = Uint8Array.prototype.slice.call(bytes);
    parentPort?.postMessage({ path, bytes }, [bytes.buffer as ArrayBuffer]);
  } catch (error) {
    const { name, message, code } = error as NodeJS.ErrnoException;
    parentPort?.postMessage({ path, error: { name, message: message ?? String(error), code } });
  }
}
