import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateSpan } from '@mosaic/stage-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { HashingTestEncoder } from '../__fixtures__/hashing-test-encoder.js';
import { createOfflineExtractor } from '../extraction/offline-extractor.js';
import { makePdf } from '../input/__fixtures__/formats/make-pdf.js';
import { readCorpusPath } from '../input/read-corpus-path.js';
import { addDocuments } from './add-documents.js';
import { buildIndex } from './build-index.js';
import { INDEX_FILES } from './index-layout.js';
import { loadIndex } from './load-index.js';

const FIXTURES = join(import.meta.dirname, '..', 'input', '__fixtures__', 'formats');
const root = await mkdtemp(join(tmpdir(), 'mosaic-outlines-'));
afterAll(() => rm(root, { recursive: true, force: true }));
const extractor = createOfflineExtractor();
const encoder = new HashingTestEncoder();

describe('outlines in an index directory', () => {
  it('are written to documents.jsonl.gz, loaded, and answer documentOutline for every window; --add keeps them for every format', async () => {
    const corpus = join(root, 'docs');
    await mkdir(corpus);
    await copyFile(join(FIXTURES, 'guide.md'), join(corpus, 'guide.md'));
    await copyFile(join(FIXTURES, 'page.html'), join(corpus, 'page.html'));
    const outDir = join(root, 'index');
    await buildIndex({ corpusPath: corpus, outDir, encoder, extractor, window: { size: 200, stride: 100 }, chunkSize: 150 });

    const lines = gunzipSync(await readFile(join(outDir, INDEX_FILES.documents)))
      .toString('utf8')
      .trim()
      .split('\n');
    expect(lines.map((line) => JSON.parse(line).outline.format)).toEqual(['markdown', 'html']);

    // Add a reST file, a PDF and a file without an extension to the index.
    const more = join(root, 'more');
    await mkdir(more);
    await copyFile(join(FIXTURES, 'intro.rst'), join(more, 'intro.rst'));
    await copyFile(join(FIXTURES, 'Apache-2.0'), join(more, 'LICENSE'));
    await writeFile(join(more, 'manual.pdf'), makePdf({ title: 'Manual', pages: [['Birds nest in spring.'], ['Fish swim upstream.']] }));
    const { documents } = await readCorpusPath({ path: more });
    await addDocuments({ dir: outDir, documents, encoder, extractor });

    // --add read the stored documents (their anchors packed when loaded) and wrote them back as they were.
    const stored = gunzipSync(await readFile(join(outDir, INDEX_FILES.documents)))
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(stored.slice(0, 2).map((d) => d.outline)).toEqual(lines.map((line) => JSON.parse(line).outline));

    const index = await loadIndex({ dir: outDir, encoder });
    // Anchors are packed when loaded (a getter over an Int32Array) and read as stored.
    for (const [i, document] of index.documents.entries()) {
      expect(document.outline, document.id).toEqual(stored[i].outline);
      const kind = document.outline?.lines ? 'lines' : 'pages';
      expect(Object.getOwnPropertyDescriptor(document.outline, kind)?.get, document.id).toBeTypeOf('function');
    }
    expect(index.documents.map((d) => [d.id, d.outline?.format])).toEqual([
      ['guide.md', 'markdown'],
      ['page.html', 'html'],
      ['LICENSE', 'text'],
      ['intro.rst', 'rst'],
      ['manual.pdf', 'pdf'],
    ]);
    for (const id of index.windowIds) {
      const window = index.chunks.getWindow(id)!;
      const outline = index.chunks.documentOutline(window.documentId);
      expect(outline, window.documentId).toBeDefined();
      const location = locateSpan(window.documentId, window.start, window.end, outline);
      expect(location.title).toBeTruthy();
      expect(location.lines ?? location.pages, window.id).toBeDefined();
    }
    const fish = index.windowIds.map((id) => index.chunks.getWindow(id)!).find((w) => w.text.includes('Fish swim upstream'))!;
    expect(locateSpan(fish.documentId, fish.start, fish.end, index.chunks.documentOutline(fish.documentId)).pages).toMatchObject({ end: 2 });
    const sqlDump = index.windowIds.map((id) => index.chunks.getWindow(id)!).find((w) => w.documentId === 'page.html' && w.text.includes('pg_dump dbname'))!;
    expect(
      locateSpan(sqlDump.documentId, sqlDump.text.indexOf('pg_dump dbname') + sqlDump.start, sqlDump.end, index.chunks.documentOutline('page.html')),
    ).toMatchObject({
      title: 'Backup & Restore',
      section: ['Backup & Restore', 'SQL Dump'],
    });
    // No chunk runs across a section start.
    for (const document of index.documents) {
      const starts = (document.outline?.sections ?? []).map((s) => s.start);
      const chunks = [...index.chunks.allChunks()].filter((c) => c.documentId === document.id);
      for (const chunk of chunks)
        expect(
          starts.some((s) => s > chunk.start && s < chunk.end),
          `${document.id} ${chunk.start}`,
        ).toBe(false);
    }
  }, 120_000);
});
