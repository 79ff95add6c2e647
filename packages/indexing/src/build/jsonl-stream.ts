import { createReadStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * Write values as JSON Lines, one value at a time through a file handle in batches of about
 * 1 MB: the file is never held in memory as one string (documents.jsonl of a large corpus).
 */
export async function writeJsonLines(path: string, values: Iterable<unknown>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const handle = await open(path, 'w');
  try {
    let batch: string[] = [];
    let size = 0;
    for (const value of values) {
      const line = `${JSON.stringify(value)}\n`;
      batch.push(line);
      size += line.length;
      if (size >= 1 << 20) {
        await handle.write(batch.join(''));
        batch = [];
        size = 0;
      }
    }
    if (batch.length > 0) await handle.write(batch.join(''));
  } finally {
    await handle.close();
  }
}

/** Read a JSON Lines file line by line (blank lines skipped), without reading the whole file into one string. */
export async function readJsonLines<T>(path: string): Promise<T[]> {
  const out: T[] = [];
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) if (line.trim() !== '') out.push(JSON.parse(line) as T);
  return out;
}
