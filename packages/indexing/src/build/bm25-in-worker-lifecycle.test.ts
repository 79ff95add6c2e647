import { readdirSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';

// Every worker the builder starts, with the times it started and exited (the real workers, wrapped).
const started: { worker: Worker; exited: Promise<number>; running: () => boolean }[] = [];
vi.mock('./extract-in-workers.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./extract-in-workers.js')>();
  return {
    ...original,
    startWorker: (...args: Parameters<typeof original.startWorker>) => {
      const worker = original.startWorker(...args);
      let running = true;
      const exited = new Promise<number>((resolve) =>
        worker.once('exit', (code) => {
          running = false;
          resolve(code);
        }),
      );
      started.push({ worker, exited, running: () => running });
      return worker;
    },
  };
});

const { createBm25WorkerBuilder } = await import('./bm25-in-worker.js');

const texts = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word} ${i % 7} document number ${i}`);

describe('createBm25WorkerBuilder: one worker per build', () => {
  it('stops each build’s worker once its index is back, and runs at most `workers` builds at once', async () => {
    started.length = 0;
    const builder = createBm25WorkerBuilder({ workers: 1 });
    try {
      const first = builder.build(texts(300, 'alpha'));
      const second = builder.build(texts(200, 'beta'));
      // One at a time: the second build's worker starts only when the first's is done.
      await vi.waitFor(() => expect(started.length).toBe(1), { timeout: 20_000 });
      const a = await first;
      expect(a.size).toBe(300);
      expect(await Promise.race([started[0].exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 20_000))])).not.toBe('still running');
      const b = await second;
      expect(b.size).toBe(200);
      expect(started.length).toBe(2);
      await started[1].exited;
      expect(started.every((entry) => !entry.running())).toBe(true);
      // The indexes are whole after their workers are gone.
      expect(a.search('alpha document', 3)).toHaveLength(3);
      expect(b.search('beta', 5)).toHaveLength(5);
    } finally {
      await builder.close();
    }
  }, 60_000);

  // The system's own list of this process's threads: the worker's thread leaves it when the worker ends,
  // whether or not this thread has handled the exit (its Worker object cannot tell before then).
  it.runIf(process.platform === 'linux')(
    'a build’s worker ends by itself once its index is posted, even while this thread is busy',
    async () => {
      const threads = () => new Set(readdirSync('/proc/self/task'));
      started.length = 0;
      const builder = createBm25WorkerBuilder({ workers: 1 });
      try {
        const before = threads();
        const build = builder.build(texts(300, 'zeta'));
        // This thread handles no event meanwhile (as when a faiss add holds it), so it cannot stop the worker.
        const seen = new Set<string>();
        let ended = false;
        const until = Date.now() + 30_000;
        while (!ended && Date.now() < until) {
          const now = threads();
          for (const id of now) if (!before.has(id)) seen.add(id);
          ended = seen.size > 0 && [...seen].every((id) => !now.has(id));
        }
        expect(seen.size).toBeGreaterThan(0);
        expect(ended).toBe(true);
        expect((await build).size).toBe(300);
      } finally {
        await builder.close();
      }
    },
    60_000,
  );

  it('with two workers runs two builds side by side, and close rejects what has not come back and stops every worker', async () => {
    started.length = 0;
    const builder = createBm25WorkerBuilder({ workers: 2 });
    const builds = [builder.build(texts(50_000, 'gamma')), builder.build(texts(50_000, 'delta')), builder.build(texts(10, 'epsilon'))];
    for (const build of builds) build.catch(() => undefined);
    await vi.waitFor(() => expect(started.length).toBe(2), { timeout: 20_000 });
    await builder.close();
    for (const build of builds) await expect(build).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
    expect(started.length).toBe(2); // the third never started
    await Promise.all(started.map((entry) => entry.exited));
    expect(started.every((entry) => !entry.running())).toBe(true);
  }, 60_000);
});
