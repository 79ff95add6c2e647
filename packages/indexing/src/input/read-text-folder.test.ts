import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTextFolder } from './read-text-folder.js';

const root = await mkdtemp(join(tmpdir(), 'mosaic-read-folder-'));
afterAll(() => rm(root, { recursive: true, force: true }));

async function folder(name: string, files: Record<string, string | Buffer>): Promise<string> {
  const path = join(root, name);
  for (const [file, content] of Object.entries(files)) {
    await mkdir(join(path, file, '..'), { recursive: true });
    await writeFile(join(path, file), content);
  }
  await mkdir(path, { recursive: true });
  return path;
}

describe('readTextFolder', () => {
  it('reads .txt and .md files recursively, sorted, ids = relative paths', async () => {
    const path = await folder('notes', {
      'b.md': '# Title\nSecond.',
      'a.txt': 'First.',
      'sub/c.txt': 'Third.',
      'skip.json': '{}',
      '.hidden.txt': 'hidden',
    });
    const corpus = await readTextFolder({ path });
    expect(corpus.corpus).toBe('notes');
    expect(corpus.documents.map((d) => d.id)).toEqual(['a.txt', 'b.md', 'sub/c.txt']);
    expect(corpus.documents[0]).toMatchObject({ id: 'a.txt', corpus: 'notes', text: 'First.', outline: { format: 'text', title: 'a.txt' } });
    expect(corpus.documents[1]).toMatchObject({ id: 'b.md', text: 'Title\n\nSecond.', outline: { format: 'markdown', title: 'Title' } });
  });

  it('refuses a missing folder, a file path, an empty folder, a blank file, invalid UTF-8 and a file over the limit', async () => {
    await expect(readTextFolder({ path: join(root, 'missing') })).rejects.toMatchObject({ name: 'MosaicInputError' });
    const plain = join(await folder('plain', { 'x.txt': 'x' }), 'x.txt');
    await expect(readTextFolder({ path: plain })).rejects.toMatchObject({ name: 'MosaicInputError', source: plain });
    const empty = await folder('empty', { 'data.csv': 'a,b' });
    await expect(readTextFolder({ path: empty })).rejects.toMatchObject({ name: 'MosaicInputError', source: empty });
    const blank = await folder('blank', { 'a.txt': 'ok', 'b.txt': '  \n ' });
    await expect(readTextFolder({ path: blank })).rejects.toMatchObject({ name: 'MosaicInputError', source: join(blank, 'b.txt') });
    const binary = await folder('binary', { 'a.txt': Buffer.from([0xff, 0xfe, 0x00, 0xc3]) });
    await expect(readTextFolder({ path: binary })).rejects.toMatchObject({ name: 'MosaicInputError', source: join(binary, 'a.txt') });
    const big = await folder('big', { 'a.txt': 'small', 'z.txt': 'y'.repeat(1000) });
    await expect(readTextFolder({ path: big, maxDocumentBytes: 100 })).rejects.toMatchObject({ name: 'MosaicInputError', source: join(big, 'z.txt') });
  });
});
