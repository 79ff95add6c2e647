import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { IndexMismatchError, InvalidArgumentError } from '@mosaic/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureIndex } from '../__fixtures__/fixture-index.js';
import { HashingTestEncoder } from '../__fixtures__/hashing-test-encoder.js';
import { fileDigest } from './index-files.js';
import { INDEX_FILES } from './index-layout.js';
import { digestsInWorker, LOAD_STALL_MS, type LoadWorkerFallbackEvent, loadInWorker, resolveLoadStallMs } from './load-in-workers.js';
import { loadIndex } from './load-index.js';
import { type LoadAnswer, type LoadTask, runLoadTask } from './load-tasks.js';

const encoder = new HashingTestEncoder();
let root: string;
let built: string;
let tasks: LoadTask[];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mosaic-load-workers-'));
  built = join(root, 'built');
  await buildFixtureIndex(built, encoder);
  tasks = [
    { vectors: join(built, INDEX_FILES.vectors('windows', 'faiss')) },
    { gunzip: join(built, INDEX_FILES.graph) },
    { bm25: join(built, INDEX_FILES.lexical('relations')) },
    { sentences: join(built, INDEX_FILES.sentences) },
  ];
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** A worker running `code` (CommonJS), and a promise of its exit code. */
function evalWorker(code: string): { worker: Worker; exited: Promise<number> } {
  const worker = new Worker(code, { eval: true });
  return { worker, exited: new Promise((resolve) => worker.once('exit', resolve)) };
}

/** What an answer holds, comparable with toEqual (typed arrays as plain arrays). */
function contents(answer: LoadAnswer): unknown {
  return JSON.parse(JSON.stringify(answer, (_key, value) => (ArrayBuffer.isView(value) ? Array.from(value as Uint8Array) : value)));
}

async function answersOf(answers: Map<string, Promise<LoadAnswer>>): Promise<unknown[]> {
  return Promise.all([...answers.values()].map(async (answer) => contents(await answer)));
}

/** Every task done on this thread: what a worker must answer, and a fallback too. */
async function expected(): Promise<unknown[]> {
  return Promise.all(tasks.map(async (task) => contents((await runLoadTask(task)).answer)));
}

describe('loadInWorker', () => {
  it('answers every task from the load worker as this thread would, without giving up on it', async () => {
    const events: LoadWorkerFallbackEvent[] = [];
    const answers = loadInWorker(tasks, { stallMs: LOAD_STALL_MS, onFallback: (event) => events.push(event) });
    expect([...answers.keys()]).toEqual(tasks.map((task) => Object.values(task)[0]));
    expect(await answersOf(answers)).toEqual(await expected());
    expect(events).toEqual([]);
  });

  it('does the tasks on this thread when the worker never answers, and stops the worker', async () => {
    const silent = evalWorker('setInterval(() => {}, 1000);');
    const events: LoadWorkerFallbackEvent[] = [];
    const answers = loadInWorker(tasks, { stallMs: 300, onFallback: (event) => events.push(event) }, () => silent.worker);
    expect(await answersOf(answers)).toEqual(await expected());
    expect(events).toEqual([
      {
        worker: 'load',
        reason: 'stalled',
        message: 'the index load worker was given up on: it was silent for 300 ms',
        paths: tasks.map((task) => Object.values(task)[0]),
      },
    ]);
    expect(await silent.exited).toBe(1); // terminated
  });

  it('keeps a worker that says it is alive though it answers after the stall time', async () => {
    // Signs of life every 50 ms, the answers after 1.5 s, against a stall time of 400 ms.
    const slow = evalWorker(`
      const { parentPort } = require('node:worker_threads');
      const alive = setInterval(() => parentPort.postMessage({ alive: true }), 50);
      parentPort.once('message', (answers) => setTimeout(() => { clearInterval(alive); for (const answer of answers) parentPort.postMessage(answer); }, 1500));`);
    const mine = await Promise.all(tasks.map(async (task) => (await runLoadTask(task)).answer));
    // The worker's answers are this thread's, marked, so that where they came from shows.
    slow.worker.postMessage(mine.map((answer) => ({ ...answer, fromWorker: true })));
    const events: LoadWorkerFallbackEvent[] = [];
    const answers = loadInWorker(tasks, { stallMs: 400, onFallback: (event) => events.push(event) }, () => slow.worker);
    const got = await Promise.all(answers.values());
    expect(events).toEqual([]);
    expect(got.every((answer) => (answer as { fromWorker?: boolean }).fromWorker === true)).toBe(true);
    await slow.worker.terminate();
  });

  it('fails the load with the error onFallback throws', async () => {
    const boom = new Error('boom');
    const answers = loadInWorker(
      tasks,
      {
        stallMs: LOAD_STALL_MS,
        onFallback: () => {
          throw boom;
        },
      },
      () => {
        throw new Error('no threads left');
      },
    );
    for (const answer of answers.values()) await expect(answer).rejects.toBe(boom);
    const here = async () => [];
    await expect(
      digestsInWorker(
        built,
        [INDEX_FILES.graph],
        {
          stallMs: 50,
          here,
          onFallback: () => {
            throw boom;
          },
        },
        () => evalWorker('setInterval(() => {}, 1000);').worker,
      ),
    ).rejects.toBe(boom);
  });

  it('gives up at once on a worker that exits before answering, or cannot start', async () => {
    const events: LoadWorkerFallbackEvent[] = [];
    const onFallback = (event: LoadWorkerFallbackEvent) => events.push(event);
    const exiting = evalWorker('process.exit(3);');
    expect(await answersOf(loadInWorker(tasks, { stallMs: LOAD_STALL_MS, onFallback }, () => exiting.worker))).toEqual(await expected());
    const none = loadInWorker(tasks, { stallMs: LOAD_STALL_MS, onFallback }, () => {
      throw new Error('no threads left');
    });
    expect(await answersOf(none)).toEqual(await expected());
    expect(events.map(({ reason, message }) => ({ reason, message }))).toEqual([
      { reason: 'failed', message: 'the index load worker was given up on: it exited with code 3 before answering' },
      { reason: 'failed', message: 'the index load worker was given up on: it failed: no threads left' },
    ]);
  });

  it('rejects a task whose file is missing with the error reading it met, on this thread too', async () => {
    const missing: LoadTask = { bm25: join(root, 'no-such.bm25.gz') };
    const fromWorker = loadInWorker([missing], { stallMs: LOAD_STALL_MS });
    const here = loadInWorker([missing], { stallMs: 200 }, () => evalWorker('setInterval(() => {}, 1000);').worker);
    await expect(fromWorker.get(missing.bm25)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(here.get(missing.bm25)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('digestsInWorker', () => {
  const names = [INDEX_FILES.graph, INDEX_FILES.manifest];

  it('gives the sha256 of each file, from the worker or, given up on, from `here`', async () => {
    const want = await Promise.all(names.map((name) => fileDigest(join(built, name))));
    let hereCalls = 0;
    const here = async (asked: readonly string[]) => {
      hereCalls += 1;
      return Promise.all(asked.map((name) => fileDigest(join(built, name))));
    };
    expect(await digestsInWorker(built, names, { stallMs: LOAD_STALL_MS, here })).toEqual(want);
    expect(hereCalls).toBe(0);
    const events: LoadWorkerFallbackEvent[] = [];
    const silent = evalWorker('setInterval(() => {}, 1000);');
    const got = await digestsInWorker(built, names, { stallMs: 200, here, onFallback: (event) => events.push(event) }, () => silent.worker);
    expect(got).toEqual(want);
    expect(hereCalls).toBe(1);
    expect(events).toEqual([
      {
        worker: 'digests',
        reason: 'stalled',
        message: 'the index digest worker was given up on: it was silent for 200 ms',
        paths: names.map((name) => join(built, name)),
      },
    ]);
    expect(await silent.exited).toBe(1);
  });

  it('refuses a file the worker cannot read, naming it', async () => {
    const here = async () => [];
    await expect(digestsInWorker(built, ['missing.bin'], { stallMs: LOAD_STALL_MS, here })).rejects.toBeInstanceOf(IndexMismatchError);
    await expect(digestsInWorker(built, ['missing.bin'], { stallMs: LOAD_STALL_MS, here })).rejects.toThrow(`${join(built, 'missing.bin')} cannot be read`);
  });
});

describe('loadIndex with its workers given up on', () => {
  it('loads the same index on its own thread when every worker is given up on at once, and says which', async () => {
    const normal = await loadIndex({ dir: built, encoder });
    const events: LoadWorkerFallbackEvent[] = [];
    // A worker takes tens of milliseconds to start: silent for 1 ms, each is given up on.
    const alone = await loadIndex({ dir: built, encoder, stallMs: 1, onWorkerFallback: (event) => events.push(event) });
    expect(events.map((event) => [event.worker, event.reason]).sort()).toEqual([
      ['digests', 'stalled'],
      ['load', 'stalled'],
      ['load', 'stalled'],
    ]);
    expect(events.flatMap((event) => event.paths).sort()).toEqual(
      [
        ...Object.keys(normal.manifest.files).map((name) => join(built, name)),
        ...(['entities', 'relations', 'windows'] as const).map((kind) => join(built, INDEX_FILES.vectors(kind, 'faiss'))),
        join(built, INDEX_FILES.graph),
        ...(['entities', 'relations', 'windows'] as const).map((kind) => join(built, INDEX_FILES.lexical(kind))),
        join(built, INDEX_FILES.sentences),
      ].sort(),
    );
    expect(alone.integrity).toBe('digests');
    expect([alone.graph.nodeCount, alone.graph.edgeCount]).toEqual([normal.graph.nodeCount, normal.graph.edgeCount]);
    expect(alone.relationIds).toEqual(normal.relationIds);
    const question = 'What does the fixture say about the treatment?';
    expect(alone.lexical?.relations?.search(question, 10)).toEqual(normal.lexical?.relations?.search(question, 10));
    const vector = await encoder.encode([question]);
    expect(await alone.windowIndex.search(vector[0], 5)).toEqual(await normal.windowIndex.search(vector[0], 5));
    expect(alone.chunks.sentenceTokens?.tokens).toEqual(normal.chunks.sentenceTokens?.tokens);
  });

  it('still refuses a file changed after the build when the digests are computed on its own thread', async () => {
    const dir = join(root, 'changed');
    await cp(built, dir, { recursive: true });
    // The last byte of the windows' BM25 state flipped: the same size, another sha256.
    const file = join(dir, INDEX_FILES.lexical('windows'));
    const bytes = await readFile(file);
    bytes[bytes.length - 1] ^= 0xff;
    await writeFile(file, bytes);
    const refused = loadIndex({ dir, encoder, stallMs: 1 });
    await expect(refused).rejects.toBeInstanceOf(IndexMismatchError);
    await expect(refused).rejects.toMatchObject({ field: `digests.${INDEX_FILES.lexical('windows')}` });
  });

  it('refuses a stall time that is not a positive number of milliseconds', async () => {
    for (const bad of [0, -5, Number.NaN, '30' as unknown as number]) {
      expect(() => resolveLoadStallMs(bad)).toThrow(InvalidArgumentError);
      await expect(loadIndex({ dir: built, encoder, stallMs: bad })).rejects.toThrow(/'stallMs': must be a positive number of milliseconds/);
    }
    expect(resolveLoadStallMs(undefined)).toBe(LOAD_STALL_MS);
    expect(resolveLoadStallMs(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
  });
});
