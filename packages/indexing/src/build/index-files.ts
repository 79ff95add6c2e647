import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SourceDocument } from '@mosaic/spec';

/** Write values as JSON Lines (one JSON value per line). */
export async function writeJsonl(path: string, values: Iterable<unknown>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const lines: string[] = [];
  for (const value of values) lines.push(JSON.stringify(value));
  await writeFile(path, lines.length === 0 ? '' : `${lines.join('\n')}\n`, 'utf8');
}

/** Read a JSON Lines file (blank lines skipped). */
export async function readJsonl<T>(path: string): Promise<T[]> {
  const text = await readFile(path, 'utf8');
  const out: T[] = [];
  for (const line of text.split('\n')) if (line.trim() !== '') out.push(JSON.parse(line) as T);
  return out;
}

export async function writeJson(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(value), 'utf8');
}

export async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T;
}

/** Write vectors as one little-endian float32 matrix, row after row. */
export async function writeVectors(path: string, vectors: readonly Float32Array[], dimension: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const matrix = new Float32Array(vectors.length * dimension);
  vectors.forEach((vector, row) => {
    matrix.set(vector, row * dimension);
  });
  await writeFile(path, new Uint8Array(matrix.buffer, matrix.byteOffset, matrix.byteLength));
}

/** Read a float32 matrix written by writeVectors as one row view per vector. */
export async function readVectors(path: string, dimension: number): Promise<Float32Array[]> {
  const bytes = await readFile(path);
  const matrix = new Float32Array(bytes.byteLength / 4);
  new Uint8Array(matrix.buffer).set(bytes);
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
