import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ChunkExtraction } from '@mosaic/graph';
import { mergeExtractions } from '@mosaic/graph';
import { afterAll, describe, expect, it } from 'vitest';
import { ExtractionLog, encodeExtractionBlock } from './extraction-log.js';
import { readJsonl, writeJsonl, writeParts } from './index-files.js';

const item = (i: number): ChunkExtraction => ({
  chunkId: `doc#${i}`,
  extraction: {
    entities: [
      { name: `Entity ${i % 7}`, type: 'THING', description: `Entity ${i % 7} appears in chunk ${i} — “quoted”, ünïcödé.` },
      { name: `Other ${i % 3}`, type: 'THING', description: `Other ${i % 3} in ${i}.` },
    ],
    relations: [{ source: `Entity ${i % 7}`, target: `Other ${i % 3}`, label: 'meets', keywords: ['meeting'], description: `They meet in ${i}.` }],
  },
});
const items = Array.from({ length: 2_500 }, (_, i) => item(i));

const work = await mkdtemp(join(tmpdir(), 'mosaic-extraction-log-'));
afterAll(() => rm(work, { recursive: true, force: true }));

describe('ExtractionLog', () => {
  it('gives back every extraction in order, across blocks, and can be iterated again', () => {
    const log = ExtractionLog.from(items, 1_000);
    expect(log.length).toBe(2_500);
    expect(log.blocks().map((block) => block.count)).toEqual([1_000, 1_000, 500]);
    expect([...log]).toEqual(items);
    expect([...log]).toEqual(items);
    expect(log.byteLength).toBeLessThan(JSON.stringify(items).length / 5);
  });

  it('merges to the same graph as the array it holds (the merger passes over it twice)', () => {
    const log = ExtractionLog.from(items, 300);
    expect(mergeExtractions({ extractions: log })).toEqual(mergeExtractions({ extractions: items }));
  });

  it('is, block after block, the gzip file that writeJsonl writes (the same lines)', async () => {
    const log = ExtractionLog.from(items, 700);
    const path = join(work, 'extractions.jsonl.gz');
    await writeParts(
      path,
      log.blocks().map((block) => block.gzip),
    );
    expect(await readJsonl<ChunkExtraction>(path)).toEqual(items);
    const reference = join(work, 'reference.jsonl.gz');
    await writeJsonl(reference, items);
    expect(gunzipSync(await readFile(path)).equals(gunzipSync(await readFile(reference)))).toBe(true);
  });

  it('concatenates logs, and appends blocks compressed elsewhere', () => {
    const first = ExtractionLog.from(items.slice(0, 1_200), 500);
    const second = new ExtractionLog();
    second.appendBlock({ count: 1_300, gzip: encodeExtractionBlock(items.slice(1_200)) });
    first.concat(second);
    expect(first.length).toBe(2_500);
    expect([...first]).toEqual(items);
  });

  it('is empty with no extractions', () => {
    const log = ExtractionLog.from([]);
    expect(log.length).toBe(0);
    expect([...log]).toEqual([]);
    expect(log.blocks()).toEqual([]);
  });

  it('refuses a block whose count does not match its lines, naming the block', () => {
    const log = new ExtractionLog();
    log.appendBlock({ count: 3, gzip: encodeExtractionBlock(items.slice(0, 2)) });
    expect(() => [...log]).toThrowError(/holds 2 lines, 3 expected/);
    expect(() => log.appendBlock({ count: 0, gzip: new Uint8Array() })).toThrowError(/positive count/);
  });
});
