import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readFile, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { SourceDocument } from '@mosaic/spec';

/**
 * Write values as JSON Lines (one JSON value per line), streamed: no string holds more than one
 * line. A path ending in `.gz` is gzip-compressed on the way.
 */
export async function writeJsonl(path: string, values: Iterable<unknown> | AsyncIterable<unknown>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const file = createWriteStream(path);
  const gzip = path.endsWith('.gz') ? createGzip({ level: 6 }) : undefined;
  const out: Writable = gzip ?? file;
  const streams: (Readable | Writable)[] = gzip ? [gzip, file] : [file];
  let failure: unknown;
  const failed = new Promise<never>((_, reject) => {
    for (const stream of streams) stream.once('error', (error) => reject((failure = error)));
  });
  failed.catch(() => undefined);
  gzip?.pipe(file);
  try {
    let pending = '';
    for await (const value of values) {
      pending += `${JSON.stringify(value)}\n`;
      if (pending.length < 1 << 16) continue;
      const flushed = out.write(pending);
      pending = '';
      if (!flushed) await Promise.race([once(out, 'drain'), failed]);
    }
    if (pending !== '') out.write(pending);
    out.end();
    await Promise.race([once(file, 'close'), failed]);
  } catch (error) {
    for (const stream of streams) stream.destroy();
    throw failure ?? error;
  }
}

/**
 * Read a JSON Lines file (blank lines skipped) line by line, gunzipping a `.gz` path. The bytes are
 * split at their newline bytes, each line decoded once (no line reader's string concatenation: a
 * line may be a whole document of several megabytes).
 */
export async function* readJsonlStream<T>(path: string): AsyncGenerator<T> {
  if (!path.endsWith('.gz')) {
    const handle = await open(path, 'r');
    try {
      yield* jsonlOfBlocks<T>(blocksOf(handle));
    } finally {
      await handle.close();
    }
    return;
  }
  const file = createReadStream(path);
  await new Promise<void>((resolve, reject) => {
    file.once('open', () => resolve());
    file.once('error', reject);
  });
  const input = file.pipe(createGunzip({ chunkSize: 1 << 20 }));
  // A read error reaches the gunzip stream, whose iterator then throws it.
  file.once('error', (error) => input.destroy(error));
  try {
    yield* jsonlOfBlocks<T>(input as AsyncIterable<Buffer>);
  } finally {
    file.destroy();
    input.destroy();
  }
}

/** Bytes read at a time from a plain JSON Lines file. */
const JSONL_BLOCK = 8 * 1024 * 1024;
const NEWLINE = 0x0a;

/** A file's bytes in blocks of JSONL_BLOCK, each a view of one buffer that the next block overwrites. */
async function* blocksOf(handle: FileHandle): AsyncGenerator<Buffer> {
  const block = Buffer.allocUnsafeSlow(JSONL_BLOCK);
  for (;;) {
    const { bytesRead } = await handle.read(block, 0, JSONL_BLOCK, null);
    if (bytesRead === 0) return;
    yield block.subarray(0, bytesRead);
  }
}

/** The JSON values of the lines of `blocks` (blank lines skipped); a block may be reused once the next one is asked for. */
async function* jsonlOfBlocks<T>(blocks: AsyncIterable<Buffer>): AsyncGenerator<T> {
  // The start of a line that runs past the blocks read so far (copies: a block may be reused).
  let pending: Buffer[] = [];
  const parse = (bytes: Buffer): T | undefined => {
    const line = bytes.toString('utf8');
    return line.trim() === '' ? undefined : (JSON.parse(line) as T);
  };
  for await (const block of blocks) {
    let at = 0;
    for (let newline = block.indexOf(NEWLINE, 0); newline !== -1; newline = block.indexOf(NEWLINE, at)) {
      const value = pending.length > 0 ? parse(Buffer.concat([...pending, block.subarray(at, newline)])) : parse(block.subarray(at, newline));
      pending = [];
      if (value !== undefined) yield value;
      at = newline + 1;
    }
    if (at < block.length) pending.push(Buffer.from(block.subarray(at)));
  }
  if (pending.length > 0) {
    const value = parse(Buffer.concat(pending));
    if (value !== undefined) yield value;
  }
}

/** Read a JSON Lines file (blank lines skipped) into an array, streamed line by line. */
export async function readJsonl<T>(path: string): Promise<T[]> {
  const out: T[] = [];
  for await (const value of readJsonlStream<T>(path)) out.push(value);
  return out;
}

export async function writeJson(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(value), 'utf8');
}

/** Write byte ranges one after the other into a gzip file (level 3), streamed: no buffer of the whole. */
export async function writeGzipParts(path: string, parts: Iterable<Uint8Array>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const gzip = createGzip({ level: 3 });
  const file = createWriteStream(path);
  await pipeline(
    (async function* () {
      for (const part of parts) {
        // Slices of at most 16 MiB: gzip copies what it is given.
        for (let at = 0; at < part.length; at += 1 << 24) yield part.subarray(at, Math.min(part.length, at + (1 << 24)));
      }
    })(),
    gzip,
    file,
  );
}

/** Write byte ranges one after the other into a file as they are (no compression), streamed. */
export async function writeParts(path: string, parts: Iterable<Uint8Array>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await pipeline(
    (async function* () {
      yield* parts;
    })(),
    createWriteStream(path),
  );
}

/** A gzip file's bytes, gunzipped. */
/**
 * A gzip file's bytes, decompressed straight into one buffer of the size the gzip trailer gives
 * (ISIZE), streamed from the file: no whole compressed copy, no list of pieces concatenated at the
 * end (each would be a second copy of the output, and fresh memory is slow to touch). A file whose
 * output is larger than its trailer says (over 4 GiB, or several members) is still read whole.
 */
export async function readGzipBytes(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  let expected = 0;
  try {
    const { size } = await handle.stat();
    if (size >= 18) {
      const trailer = Buffer.alloc(4);
      await handle.read(trailer, 0, 4, size - 4);
      expected = trailer.readUInt32LE(0);
    }
  } finally {
    await handle.close();
  }
  let out = Buffer.allocUnsafeSlow(expected);
  let written = 0;
  const overflow: Buffer[] = [];
  const gunzip = createGunzip({ chunkSize: 256 * 1024 });
  gunzip.on('data', (chunk: Buffer) => {
    const fits = Math.min(chunk.length, out.length - written);
    if (fits > 0) {
      chunk.copy(out, written, 0, fits);
      written += fits;
    }
    if (fits < chunk.length) overflow.push(Buffer.from(chunk.subarray(fits)));
  });
  await pipeline(createReadStream(path, { highWaterMark: 1024 * 1024 }), gunzip);
  if (overflow.length > 0) out = Buffer.concat([out, ...overflow]);
  else if (written < out.length) out = out.subarray(0, written);
  return out;
}

export async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T;
}

/** One row view per vector of a row-major float32 matrix (no copy). */
export function matrixRows(matrix: Float32Array, dimension: number): Float32Array[] {
  const rows: Float32Array[] = [];
  for (let offset = 0; offset + dimension <= matrix.length; offset += dimension) rows.push(matrix.subarray(offset, offset + dimension));
  return rows;
}

/** Short content hash used to detect changed entity/relation texts. */
export function textHash(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 16);
}

/** sha256 (hex) of the corpus: every document's id, a newline, its text and a newline, in order. */
export function corpusChecksum(documents: readonly SourceDocument[]): string {
  const hash = createHash('sha256');
  for (const document of documents) hash.update(`${document.id}\n`).update(document.text).update('\n');
  return hash.digest('hex');
}

/** sha256 (hex) of a file's bytes, read as a stream. */
export async function fileDigest(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
