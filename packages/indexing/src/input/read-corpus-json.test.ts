import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusDocumentsFromJson, readCorpusJson } from './read-corpus-json.js';

const dir = await mkdtemp(join(tmpdir(), 'mosaic-read-json-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function file(name: string, content: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

describe('readCorpusJson', () => {
  it('groups entries by corpus_name in order, with stable document ids', async () => {
    const path = await file(
      'ok.json',
      JSON.stringify([
        { corpus_name: 'Novel-1', context: 'Book one.' },
        { corpus_name: 'Medical', context: 'About skin.' },
        { corpus_name: 'Novel-1', context: 'Book one, part two.' },
      ]),
    );
    const corpora = await readCorpusJson({ path });
    expect(corpora.map((c) => c.corpus)).toEqual(['Novel-1', 'Medical']);
    expect(corpora[0].documents).toEqual([
      { id: 'novel-1-0', corpus: 'Novel-1', text: 'Book one.' },
      { id: 'novel-1-1', corpus: 'Novel-1', text: 'Book one, part two.' },
    ]);
    expect(corpora[1].documents[0].id).toBe('medical-0');
  });

  it.each([
    ['invalid JSON', '[{"corpus_name": '],
    ['not an array', '{"corpus_name": "A", "context": "x"}'],
    ['empty corpus', '[]'],
    ['entry not an object', '["text"]'],
    ['missing corpus_name', '[{"context": "x"}]'],
    ['empty corpus_name', '[{"corpus_name": " ", "context": "x"}]'],
    ['missing context', '[{"corpus_name": "A"}]'],
    ['empty context', '[{"corpus_name": "A", "context": "   "}]'],
    ['non-string context', '[{"corpus_name": "A", "context": 42}]'],
  ])('refuses %s with InputError naming the file', async (name, content) => {
    const path = await file(`${name.replace(/\W+/g, '-')}.json`, content);
    await expect(readCorpusJson({ path })).rejects.toMatchObject({ name: 'MosaicInputError', source: path });
  });

  it('refuses a missing path', async () => {
    const path = join(dir, 'nope.json');
    await expect(readCorpusJson({ path })).rejects.toMatchObject({ name: 'MosaicInputError', source: path });
  });

  it('refuses a directory', async () => {
    await expect(readCorpusJson({ path: dir })).rejects.toMatchObject({ name: 'MosaicInputError', source: dir });
  });

  it('refuses a file over maxFileBytes before parsing it', async () => {
    // Invalid JSON on purpose: the size check must fire first.
    const path = await file('big.json', `[${'x'.repeat(500)}`);
    await expect(readCorpusJson({ path, maxFileBytes: 100 })).rejects.toMatchObject({ name: 'MosaicInputError', source: path });
    await expect(readCorpusJson({ path, maxFileBytes: 100 })).rejects.toThrow(/larger than the limit/);
  });

  it('refuses a document over maxDocumentBytes', async () => {
    const path = await file('doc.json', JSON.stringify([{ corpus_name: 'A', context: 'é'.repeat(60) }]));
    await expect(readCorpusJson({ path, maxDocumentBytes: 100 })).rejects.toMatchObject({ name: 'MosaicInputError' });
    await expect(readCorpusJson({ path, maxDocumentBytes: 120 })).resolves.toHaveLength(1);
  });

  it('validates parsed values without a file', () => {
    expect(() => corpusDocumentsFromJson({ value: null, source: 'mem' })).toThrowError(expect.objectContaining({ name: 'MosaicInputError', source: 'mem' }));
  });
});
