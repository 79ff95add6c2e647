import { chmod, copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makePdf } from './__fixtures__/formats/make-pdf.js';
import { isCorpusJsonFile, readCorpusPath, summarizeSkipped, type SkippedFile } from './read-corpus-path.js';

const FIXTURES = join(import.meta.dirname, '__fixtures__', 'formats');
const root = await mkdtemp(join(tmpdir(), 'mosaic-read-path-'));
afterAll(() => rm(root, { recursive: true, force: true }));

/** A folder with one file of every format, a file without extension, and files that cannot be read. */
async function mixedFolder(name: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, 'docs', 'deep'), { recursive: true });
  for (const file of ['guide.md', 'page.html', 'intro.rst', 'Apache-2.0']) await copyFile(join(FIXTURES, file), join(dir, 'docs', file));
  await writeFile(join(dir, 'docs', 'deep', 'manual.pdf'), makePdf({ pages: [['Page one text.'], ['Page two text.']] }));
  await writeFile(join(dir, 'notes.txt'), 'Plain notes.\nSecond line.\n');
  await writeFile(join(dir, 'latin1.txt'), Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  await writeFile(join(dir, 'image.png'), Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]));
  await writeFile(join(dir, 'empty.md'), '');
  await writeFile(join(dir, 'huge.txt'), 'x'.repeat(30_000));
  await writeFile(join(dir, '.hidden.md'), '# hidden');
  await symlink(dir, join(dir, 'docs', 'loop'));
  return dir;
}

describe('readCorpusPath', () => {
  it('reads every format, skips and reports what it cannot read, and goes on', async () => {
    const dir = await mixedFolder('mixed');
    const seen: SkippedFile[] = [];
    const { corpus, documents, report } = await readCorpusPath({ path: dir, maxDocumentBytes: 20_000, onSkip: (s) => seen.push(s) });
    expect(corpus).toBe('mixed');
    expect(documents.map((d) => [d.id, d.outline?.format])).toEqual([
      ['docs/Apache-2.0', 'text'],
      ['docs/deep/manual.pdf', 'pdf'],
      ['docs/guide.md', 'markdown'],
      ['docs/intro.rst', 'rst'],
      ['docs/page.html', 'html'],
      ['notes.txt', 'text'],
    ]);
    expect(report).toMatchObject({ read: 6, excluded: 0, byFormat: { text: 2, pdf: 1, markdown: 1, rst: 1, html: 1 } });
    expect(report.skipped.map((s) => [s.path.slice(dir.length + 1), s.reason])).toEqual([
      ['docs/loop', 'symlink-loop'],
      ['empty.md', 'empty'],
      ['huge.txt', 'too-large'],
      ['image.png', 'binary'],
      ['latin1.txt', 'not-utf8'],
    ]);
    expect(seen).toEqual(report.skipped);
    expect(summarizeSkipped(report.skipped)).toBe('skipped 5: 1 symlink-loop, 1 empty, 1 too-large, 1 binary, 1 not-utf8');
  });

  it('with strict, the first file that cannot be read is an InputError naming it', async () => {
    const dir = await mixedFolder('strict');
    await expect(readCorpusPath({ path: dir, strict: true, exclude: ['loop'] })).rejects.toMatchObject({
      name: 'MosaicInputError',
      source: join(dir, 'empty.md'),
    });
  });

  it('include and exclude globs choose the files (a glob without / matches the base name)', async () => {
    const dir = await mixedFolder('globs');
    const { documents, report } = await readCorpusPath({ path: dir, include: ['*.md', 'docs/**/*.pdf'], exclude: ['empty.md', 'loop'] });
    expect(documents.map((d) => d.id)).toEqual(['docs/deep/manual.pdf', 'docs/guide.md']);
    expect(report.skipped).toEqual([]);
    expect(report.excluded).toBe(8);
  });

  it('reads a single file as a corpus of one document, named after the file', async () => {
    const { corpus, documents } = await readCorpusPath({ path: join(FIXTURES, 'Apache-2.0') });
    expect(corpus).toBe('Apache-2');
    expect(documents).toHaveLength(1);
    expect(documents[0]).toMatchObject({ id: 'Apache-2.0', corpus: 'Apache-2', outline: { format: 'text', title: 'Apache-2.0' } });
  });

  it('refuses a corpus where nothing could be read, with the reasons, and a missing path', async () => {
    const dir = join(root, 'nothing');
    await mkdir(dir);
    await writeFile(join(dir, 'a.txt'), Uint8Array.from([0xff, 0xfe]));
    await expect(readCorpusPath({ path: dir })).rejects.toThrow(/the corpus is empty.*1 not-utf8/);
    await expect(readCorpusPath({ path: join(root, 'missing') })).rejects.toMatchObject({ name: 'MosaicInputError' });
  });

  it.skipIf(process.getuid?.() === 0)('reports a file it has no permission to read', async () => {
    const dir = join(root, 'private');
    await mkdir(dir);
    await writeFile(join(dir, 'ok.txt'), 'fine');
    await writeFile(join(dir, 'secret.txt'), 'hidden');
    await chmod(join(dir, 'secret.txt'), 0o000);
    const { report } = await readCorpusPath({ path: dir });
    expect(report.skipped.map((s) => s.reason)).toEqual(['unreadable']);
  });

  it('tells a GraphRAG-Bench corpus JSON file from a document', async () => {
    await writeFile(join(root, 'bench.json'), ' [{"corpus_name": "A", "context": "x"}]');
    await writeFile(join(root, 'config.json'), '{"a": 1}');
    expect(await isCorpusJsonFile(join(root, 'bench.json'))).toBe(true);
    expect(await isCorpusJsonFile(join(root, 'config.json'))).toBe(false);
    expect(await isCorpusJsonFile(join(FIXTURES, 'guide.md'))).toBe(false);
  });
});
