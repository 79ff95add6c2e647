import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Chunk } from '@mosaic/spec';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureDocuments, GARDEN_TEXT, MEDICAL_TEXT, NOVEL_TEXT } from '../__fixtures__/fixture-documents.js';
import { HashingTestEncoder } from '../__fixtures__/hashing-test-encoder.js';
import { createOfflineExtractor } from '../extraction/offline-extractor.js';
import { buildIndex } from './build-index.js';
import { extractChunks } from './extract-chunks.js';
import { startWorker } from './extract-in-workers.js';
import type { ExtractionLog } from './extraction-log.js';

/** A small block, so that the fixture corpus spans several (the default is EXTRACTION_BLOCK, 1,024). */
const BLOCK = 64;
import { INDEX_FILES, VECTOR_KINDS } from './index-layout.js';
import { segmentDocuments } from './segment-documents.js';

const root = await mkdtemp(join(tmpdir(), 'mosaic-workers-'));
afterAll(() => rm(root, { recursive: true, force: true }));
const extractor = createOfflineExtractor();

/** Sixty documents made of the fixture texts in rotating order: a few hundred chunks. */
function documents() {
  const texts = [MEDICAL_TEXT, NOVEL_TEXT, GARDEN_TEXT];
  return [
    ...fixtureDocuments(),
    ...Array.from({ length: 60 }, (_, i) => ({ id: `doc-${i}`, corpus: 'Fixture', text: `${texts[i % 3]} ${texts[(i + 1) % 3]} Section ${i}.` })),
  ];
}

async function build(name: string, extractWorkers: number) {
  const outDir = join(root, name);
  await buildIndex({
    documents: documents(),
    outDir,
    encoder: new HashingTestEncoder(),
    extractor,
    extractWorkers,
    extractBlock: BLOCK,
    chunkSize: 120,
    window: { size: 300, stride: 150 },
    now: () => new Date('2026-01-01T00:00:00.000Z'),
  });
  return outDir;
}

/** The log's bytes: the `extractions.jsonl.gz` it writes. */
const logBytes = (log: ExtractionLog) => Buffer.concat(log.blocks().map((block) => block.gzip));

describe('extraction in worker threads', () => {
  it('gives the extractions of the calling thread, in chunk order, with 1 and 3 workers', async () => {
    const { chunks } = segmentDocuments({ documents: documents(), chunkSize: 120, window: { size: 300, stride: 150 } });
    expect(chunks.length).toBeGreaterThan(2 * BLOCK); // several blocks
    const inProcess = await extractChunks({ chunks, extractor, workers: 0, block: BLOCK });
    for (const workers of [1, 3]) {
      const progress: number[] = [];
      const inWorkers = await extractChunks({ chunks, extractor, workers, block: BLOCK, onProgress: (done) => progress.push(done) });
      expect(inWorkers.length).toBe(chunks.length);
      expect([...inWorkers]).toEqual([...inProcess]);
      expect(logBytes(inWorkers).equals(logBytes(inProcess))).toBe(true);
      expect(progress.at(-1)).toBe(chunks.length);
    }
  }, 240_000);

  it('writes the same index bytes (graph, extractions, vectors, BM25, documents) with 0, 1 and 2 workers', async () => {
    const dirs = [await build('w0', 0), await build('w1', 1), await build('w2', 2)];
    const manifests = await Promise.all(dirs.map(async (dir) => JSON.parse(await readFile(join(dir, INDEX_FILES.manifest), 'utf8'))));
    expect(manifests[1].digests).toEqual(manifests[0].digests);
    expect(manifests[2].digests).toEqual(manifests[0].digests);
    for (const name of [INDEX_FILES.graph, INDEX_FILES.extractions, ...VECTOR_KINDS.map((kind) => INDEX_FILES.vectors(kind, 'faiss'))]) {
      const bytes = await readFile(join(dirs[0]!, name));
      expect((await readFile(join(dirs[2]!, name))).equals(bytes), name).toBe(true);
    }
  }, 240_000);

  it('does not depend on what the extractor object read before (fresh state per block)', async () => {
    const all = segmentDocuments({ documents: documents(), chunkSize: 120, window: { size: 300, stride: 150 } }).chunks;
    const chunks = all.slice(0, 2 * BLOCK + 8); // three blocks
    const used = createOfflineExtractor();
    for (const chunk of chunks) await used.extract({ chunk });
    const afterUse = await extractChunks({ chunks, extractor: used, workers: 0, block: BLOCK });
    const fresh = await extractChunks({ chunks, extractor: createOfflineExtractor(), workers: 0, block: BLOCK });
    expect(afterUse.length).toBe(chunks.length);
    expect([...afterUse]).toEqual([...fresh]);
  }, 240_000);

  it('rejects with the error the onProgress callback throws, before or while workers run (it waited forever)', async () => {
    const { chunks } = segmentDocuments({ documents: documents(), chunkSize: 120, window: { size: 300, stride: 150 } });
    for (const at of [0, BLOCK]) {
      const thrown = new Error(`progress callback failed at ${at}`);
      const running = extractChunks({
        chunks,
        extractor,
        workers: 2,
        block: BLOCK,
        onProgress: (done) => {
          if (done === at) throw thrown;
        },
      });
      await expect(running).rejects.toBe(thrown);
    }
  }, 240_000);

  it('refuses a negative or fractional worker count with InvalidArgumentError', async () => {
    const { chunks } = segmentDocuments({ documents: fixtureDocuments(), chunkSize: 120, window: { size: 300, stride: 150 } });
    for (const workers of [-1, 1.5]) {
      await expect(extractChunks({ chunks, extractor, workers })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
    }
  });

  it('stops with AbortedError when aborted while workers run', async () => {
    const { chunks } = segmentDocuments({ documents: documents(), chunkSize: 120, window: { size: 300, stride: 150 } });
    const controller = new AbortController();
    const running = extractChunks({
      chunks,
      extractor,
      workers: 2,
      block: BLOCK,
      abortSignal: controller.signal,
      onProgress: (done) => done > 0 && controller.abort(),
    });
    await expect(running).rejects.toMatchObject({ name: 'MosaicAbortedError' });
  }, 240_000);

  /** A worker that takes its block and never answers (nor exits): what a worker that never started looks like from outside. */
  const stalledWorker = () => new Worker('setInterval(() => {}, 1 << 30);', { eval: true });

  it('gives the block of a worker that never answers to a fresh worker: the same extractions (it waited forever)', async () => {
    const { chunks } = segmentDocuments({ documents: documents(), chunkSize: 120, window: { size: 300, stride: 150 } });
    const inProcess = await extractChunks({ chunks, extractor, workers: 0, block: BLOCK });
    const stalled: Worker[] = [];
    let started = 0;
    const log = await extractChunks({
      chunks,
      extractor,
      workers: 2,
      block: BLOCK,
      stallMs: 10_000,
      // The first worker started stalls; every other one is the real extraction worker.
      startWorker: (data) => {
        started += 1;
        if (started === 1) {
          stalled.push(stalledWorker());
          return stalled[0]!;
        }
        return startWorker(data);
      },
    });
    expect(log.length).toBe(chunks.length);
    expect([...log]).toEqual([...inProcess]);
    expect(logBytes(log).equals(logBytes(inProcess))).toBe(true);
    // The stalled worker was replaced, and stopped.
    expect(stalled).toHaveLength(1);
    if (stalled[0]!.threadId !== -1) await once(stalled[0]!, 'exit');
    expect(stalled[0]!.threadId).toBe(-1);
  }, 240_000);

  it('fails naming the chunks when the worker a block went to stalls too, and stops the workers', async () => {
    const { chunks } = segmentDocuments({ documents: documents(), chunkSize: 120, window: { size: 300, stride: 150 } });
    const stalled: Worker[] = [];
    const running = extractChunks({
      chunks,
      extractor,
      workers: 1,
      block: BLOCK,
      stallMs: 300,
      startWorker: () => {
        stalled.push(stalledWorker());
        return stalled.at(-1)!;
      },
    });
    await expect(running).rejects.toMatchObject({
      name: 'MosaicInvalidArgumentError',
      message: expect.stringMatching(new RegExp(`chunks 0–${BLOCK - 1}: two extraction workers in turn went 300 ms without extracting a chunk`)),
    });
    expect(stalled).toHaveLength(2); // the first, and the one the block was given to
    for (const worker of stalled) if (worker.threadId !== -1) await once(worker, 'exit');
  }, 240_000);

  it('takes a stall time longer than a timer can wait as waiting that long (node would fire it after 1 ms)', async () => {
    const { chunks } = segmentDocuments({ documents: documents(), chunkSize: 120, window: { size: 300, stride: 150 } });
    const inProcess = await extractChunks({ chunks, extractor, workers: 0, block: BLOCK });
    const log = await extractChunks({ chunks, extractor, workers: 2, block: BLOCK, stallMs: 1e12 });
    expect(logBytes(log).equals(logBytes(inProcess))).toBe(true);
  }, 240_000);

  it('refuses a stall time that is not a positive number of milliseconds', async () => {
    const { chunks } = segmentDocuments({ documents: fixtureDocuments(), chunkSize: 120, window: { size: 300, stride: 150 } });
    for (const stallMs of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(extractChunks({ chunks, extractor, workers: 1, stallMs })).rejects.toMatchObject({
        name: 'MosaicInvalidArgumentError',
        message: expect.stringContaining('extractStallMs'),
      });
    }
  });

  /**
   * Extract `chunks` (whole blocks) with workers running `onBlock`, a script body where `m` is the
   * block's message and `answer(m)` sends its extractions (made in this thread beforehand). With
   * `busyMs`, this thread is kept busy that long right after the first blocks are posted. Returns the
   * log, the calling thread's own extraction, and how many workers were started.
   */
  async function scripted(options: { chunks: readonly Chunk[]; stallMs: number; onBlock: string; busyMs?: number }) {
    const inProcess = await extractChunks({ chunks: options.chunks, extractor, workers: 0, block: BLOCK });
    const blocks = inProcess.blocks().map((block) => ({ count: block.count, gzip: block.gzip }));
    const script = `const { parentPort, workerData } = require('node:worker_threads');
const answer = (m) => { const b = workerData.blocks[m.id / workerData.batch]; parentPort.postMessage({ id: m.id, count: b.count, gzip: b.gzip }); };
parentPort.on('message', (m) => { ${options.onBlock} });`;
    let started = 0;
    const running = extractChunks({
      chunks: options.chunks,
      extractor,
      workers: 2,
      block: BLOCK,
      stallMs: options.stallMs,
      startWorker: () => {
        started += 1;
        return new Worker(script, { eval: true, workerData: { blocks, batch: BLOCK } });
      },
    });
    const until = Date.now() + (options.busyMs ?? 0);
    while (Date.now() < until);
    const log = await running;
    return { log, inProcess, blocks: blocks.length, started };
  }

  /** The first two blocks of the fixture corpus: one per worker. */
  const twoBlocks = () => segmentDocuments({ documents: documents(), chunkSize: 120, window: { size: 300, stride: 150 } }).chunks.slice(0, 2 * BLOCK);

  it('takes an answer that arrived while the building thread was busy past the stall time: no worker given up on', async () => {
    const { chunks } = segmentDocuments({ documents: documents(), chunkSize: 120, window: { size: 300, stride: 150 } });
    // Each block answered at once: both answers are waiting, and both stall times past, when this thread is free again.
    const run = await scripted({ chunks, stallMs: 3_000, onBlock: 'answer(m);', busyMs: 6_000 });
    expect(logBytes(run.log).equals(logBytes(run.inProcess))).toBe(true);
    expect(run.started).toBe(run.blocks); // one fresh worker per block: none replaced
  }, 240_000);

  it('keeps a worker that is slow but says it is alive: no worker given up on', async () => {
    // Each block takes 3 s, with a sign of life every 50 ms: far longer than the stall time, never silent that long.
    const run = await scripted({
      chunks: twoBlocks(),
      stallMs: 1_500,
      onBlock:
        'let done = 0; const beat = setInterval(() => parentPort.postMessage({ id: m.id, done: ++done }), 50); setTimeout(() => { clearInterval(beat); answer(m); }, 3000);',
    });
    expect(logBytes(run.log).equals(logBytes(run.inProcess))).toBe(true);
    expect(run.started).toBe(2);
  }, 240_000);

  it('takes a sign of life that arrived while the building thread was busy past the stall time', async () => {
    // A sign of life at once, the answer 7 s later: the sign is waiting, and the stall time past, when
    // this thread is free again at 6 s; it counts from the sign's reading, so the answer is in time.
    const run = await scripted({
      chunks: twoBlocks(),
      stallMs: 3_000,
      onBlock: 'parentPort.postMessage({ id: m.id, done: 1 }); setTimeout(() => answer(m), 7000);',
      busyMs: 6_000,
    });
    expect(logBytes(run.log).equals(logBytes(run.inProcess))).toBe(true);
    expect(run.started).toBe(2);
  }, 240_000);
});
