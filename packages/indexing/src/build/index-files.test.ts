import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGzipBytes, readJsonl } from './index-files.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'mosaic-gzip-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Deterministic bytes that compress only partly (a seeded linear congruential generator, one byte in four random). */
function sampleBytes(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let state = seed >>> 0;
  for (let i = 0; i < length; i += 1) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[i] = i % 4 === 0 ? state >>> 24 : i % 251;
  }
  return out;
}

describe('readGzipBytes', () => {
  it('gives back exactly the bytes gzipped, across many output pieces', async () => {
    const bytes = sampleBytes(3_000_001, 7);
    const path = join(folder, 'one.gz');
    await writeFile(path, gzipSync(bytes));
    const read = await readGzipBytes(path);
    expect(read.length).toBe(bytes.length);
    expect(read.equals(bytes)).toBe(true);
  });

  it('reads a file of several gzip members whole (its trailer gives the last member’s size only)', async () => {
    const first = sampleBytes(700_000, 1);
    const last = sampleBytes(1_000, 2);
    const path = join(folder, 'members.gz');
    await writeFile(path, Buffer.concat([gzipSync(first), gzipSync(last)]));
    expect((await readGzipBytes(path)).equals(Buffer.concat([first, last]))).toBe(true);
    const shortLast = join(folder, 'members-short-first.gz');
    await writeFile(shortLast, Buffer.concat([gzipSync(last), gzipSync(first)]));
    expect((await readGzipBytes(shortLast)).equals(Buffer.concat([last, first]))).toBe(true);
  });

  it('reads an empty member, and rejects a corrupt or missing file', async () => {
    const empty = join(folder, 'empty.gz');
    await writeFile(empty, gzipSync(Buffer.alloc(0)));
    expect((await readGzipBytes(empty)).length).toBe(0);
    const corrupt = join(folder, 'corrupt.gz');
    const bytes = gzipSync(sampleBytes(100_000, 3));
    bytes[bytes.length >> 1] ^= 0xff;
    await writeFile(corrupt, bytes);
    await expect(readGzipBytes(corrupt)).rejects.toThrow();
    await expect(readGzipBytes(join(folder, 'missing.gz'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('readJsonl', () => {
  it('reads lines across its 8 MiB blocks: a line longer than a block, a character split by a block end, CRLF, blank lines, no final newline', async () => {
    // The first line ends 3 bytes past the first block, its 'é' (2 bytes) straddling the boundary.
    const block = 8 * 1024 * 1024;
    const head = '{"id":"a","text":"';
    const filler = 'x'.repeat(block - Buffer.byteLength(head) - 1);
    const long = { id: 'a', text: `${filler}é中` };
    const lines = [
      JSON.stringify(long),
      '',
      JSON.stringify({ id: 'b', text: 'über' }),
      '   ',
      `${JSON.stringify({ id: 'c', n: 3 })}\r`,
      JSON.stringify({ id: 'd' }),
    ];
    const path = join(folder, 'lines.jsonl');
    await writeFile(path, lines.join('\n'));
    const read = await readJsonl<Record<string, unknown>>(path);
    expect(read.map((value) => value.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(read[0]).toEqual(long);
    expect(read[1]).toEqual({ id: 'b', text: 'über' });
    // Many short lines, several blocks.
    const many = Array.from({ length: 300_000 }, (_, i) => JSON.stringify({ i, t: 'é'.repeat(i % 40) }));
    const manyPath = join(folder, 'many.jsonl');
    await writeFile(manyPath, `${many.join('\n')}\n`);
    const readMany = await readJsonl<{ i: number; t: string }>(manyPath);
    expect(readMany.length).toBe(300_000);
    expect(readMany.every((value, i) => value.i === i && value.t.length === i % 40)).toBe(true);
    // The same lines gzip'd (as an index keeps its documents, chunks and windows): the gunzipped
    // bytes come in pieces of another size, split the same way.
    const gzPath = join(folder, 'lines.jsonl.gz');
    await writeFile(gzPath, gzipSync(lines.join('\n')));
    expect(await readJsonl(gzPath)).toEqual(read);
    const manyGz = join(folder, 'many.jsonl.gz');
    await writeFile(manyGz, gzipSync(`${many.join('\n')}\n`));
    expect(await readJsonl(manyGz)).toEqual(readMany);
  }, 60_000);

  it('rejects a line that is not JSON, and a missing file', async () => {
    const path = join(folder, 'bad.jsonl');
    await writeFile(path, '{"id":"a"}\n{not json}\n');
    await expect(readJsonl(path)).rejects.toThrow(SyntaxError);
    await expect(readJsonl(join(folder, 'missing.jsonl'))).rejects.toMatchObject({ code: 'ENOENT' });
    // Gzip'd: a bad line, a truncated file and a missing file are refused too.
    const gz = join(folder, 'bad.jsonl.gz');
    await writeFile(gz, gzipSync('{"id":"a"}\n{not json}\n'));
    await expect(readJsonl(gz)).rejects.toThrow(SyntaxError);
    const whole = gzipSync(Array.from({ length: 2000 }, (_, i) => JSON.stringify({ i })).join('\n'));
    await writeFile(gz, whole.subarray(0, whole.length >> 1));
    await expect(readJsonl(gz)).rejects.toMatchObject({ code: 'Z_BUF_ERROR' });
    await expect(readJsonl(join(folder, 'missing.jsonl.gz'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
