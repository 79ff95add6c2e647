import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGunzip, createGzip, gunzip } from 'node:zlib';

const gunzipAsync = promisify(gunzip);
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

/** Read a JSON Lines file (blank lines skipped) line by line, gunzipping a `.gz` path. */
export async function* readJsonlStream<T>(path: string): AsyncGenerator<T> {
  const file = createReadStream(path);
  await new Promise<void>((resolve, reject) => {
    file.once('open', () => resolve());
    file.once('error', reject);
  });
  const input = path.endsWith('.gz') ? file.pipe(createGunzip()) : file;
  // A read or gunzip error surfaces through the line iterator.
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of lines) if (line.trim() !== '') yield JSON.parse(line) as T;
  } finally {
    lines.close();
    file.destroy();
    if (input !== file) input.destroy();
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
export async function readGzipBytes(path: string): Promise<Buffer> {
  return gunzipAsync(await readFile(path));
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
