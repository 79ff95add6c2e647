// The worker pool: real worker threads, each loading the small index, answering through the HTTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSmallIndex, type SmallIndex } from './testing.js';
import { createMosaicServer } from './server.js';
import { createWorkerPool, type WorkerPool } from './worker-pool.js';

const WORKER = new URL('./__fixtures__/pool-worker.mjs', import.meta.url);
const QUESTION = 'Which drug treats the condition that is caused by prolonged exposure to veltrane dust?';

let small: SmallIndex;
let pool: WorkerPool;

beforeAll(async () => {
  small = await buildSmallIndex();
  pool = createWorkerPool({ size: 2, worker: WORKER, workerData: { dir: small.indexDir, encoder: small.encoder, slowMs: 3_000 } });
  await pool.ready;
}, 180_000);

afterAll(async () => {
  await pool?.close();
  await small?.remove();
});

describe('createWorkerPool', () => {
  it('spreads concurrent calls over its workers, one at a time each, and answers as a local engine does', async () => {
    const calls = Array.from({ length: 6 }, (_, i) => pool.retrieve({ question: QUESTION, id: `q${i}`, windows: 4 }));
    expect(pool.load()).toEqual([1, 1]);
    expect(pool.queued()).toBe(4);
    const results = await Promise.all(calls);
    expect(results.map((r) => r.id)).toEqual(['q0', 'q1', 'q2', 'q3', 'q4', 'q5']);
    expect(new Set(results.map((r) => JSON.stringify(r.windows.map((w) => w.id)))).size).toBe(1);
    expect(new Set(results.map((r) => r.timings.workerPid)).size).toBe(2);
    expect(pool.load()).toEqual([0, 0]);
    expect(pool.queued()).toBe(0);
  });

  it('sends queued calls to the worker that frees up, not behind a busy one', async () => {
    const slow = pool.retrieve({ question: `slow: ${QUESTION}`, id: 'slow' });
    const order: string[] = [];
    void slow.then(() => order.push('slow'));
    const fast = Array.from({ length: 4 }, (_, i) => pool.retrieve({ question: QUESTION, id: `f${i}` }).then((r) => order.push(r.id!)));
    await Promise.all(fast);
    // All four were answered by the other worker while the slow call held the first.
    expect(order).toEqual(['f0', 'f1', 'f2', 'f3']);
    const slowResult = await slow;
    expect(order.at(-1)).toBe('slow');
    expect(slowResult.id).toBe('slow');
  });

  it('forwards progress events and typed errors from the workers', async () => {
    const events: string[] = [];
    const answer = await pool.ask({ question: QUESTION }, { onEvent: (event) => events.push(event.event) });
    expect(events).toEqual(['policy', 'seeds', 'stop', 'windows', 'answer']);
    expect(answer.answer.citations.length).toBeGreaterThan(0);
    await expect(pool.retrieve({ question: QUESTION, windows: 0 })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError', argument: 'windows' });
    const documents = await pool.documents();
    expect(await pool.document(documents[0]!.id)).toMatchObject({ id: documents[0]!.id });
  });

  it('aborts a call in its worker, and a queued call before it reaches one', async () => {
    const controller = new AbortController();
    const call = pool.retrieve({ question: QUESTION }, { abortSignal: controller.signal });
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'MosaicAbortedError' });
    const busy = [pool.retrieve({ question: QUESTION }), pool.retrieve({ question: QUESTION })];
    const queued = new AbortController();
    const waiting = pool.retrieve({ question: QUESTION }, { abortSignal: queued.signal });
    const before = pool.queued();
    expect(before).toBeGreaterThan(0);
    queued.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'MosaicAbortedError' });
    expect(pool.queued()).toBe(before - 1);
    await Promise.all(busy);
  });

  it('serves HTTP through the pool, ready once the workers are', async () => {
    const server = createMosaicServer({ engine: pool, ready: pool.ready, log: false });
    const { url } = await server.listen();
    try {
      const response = await fetch(`${url}/v1/retrieve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: QUESTION }),
      });
      expect(response.status).toBe(200);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('rejects ready with the error of a worker that cannot open its engine', async () => {
    const failing = createWorkerPool({ size: 1, worker: WORKER, workerData: { fail: true } });
    // A call made before any worker is up waits in the queue; it fails once no worker is left.
    const queued = expect(failing.retrieve({ question: QUESTION })).rejects.toMatchObject({ name: 'MosaicWorkerExitedError' });
    await expect(failing.ready).rejects.toThrow(/cannot open the index on purpose/);
    await failing.close();
    await queued;
  });
});
