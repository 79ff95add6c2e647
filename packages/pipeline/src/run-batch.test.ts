import { describe, expect, it } from 'vitest';
import { runBatch } from './run-batch.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('runBatch', () => {
  it('keeps at most `concurrency` tasks in flight and returns items in input order', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const items = await runBatch({
      inputs: [30, 5, 20, 1, 10, 2],
      concurrency: 3,
      task: async (ms) => {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await sleep(ms);
        inFlight -= 1;
        return ms * 2;
      },
    });
    expect(maxInFlight).toBe(3);
    expect(items.map((item) => (item.ok ? item.result : undefined))).toEqual([60, 10, 40, 2, 20, 4]);
  });

  it('records failures and continues', async () => {
    const seen: number[] = [];
    const items = await runBatch({
      inputs: [1, 2, 3],
      concurrency: 1,
      task: async (n) => {
        if (n === 2) throw new Error('two');
        return n;
      },
      onResult: (item) => seen.push(item.index),
    });
    expect(seen).toEqual([0, 1, 2]);
    expect(items[1]).toMatchObject({ ok: false, index: 1, input: 2 });
    expect(items[2]).toMatchObject({ ok: true, result: 3 });
  });

  it('rejects a bad concurrency and handles an empty batch', async () => {
    await expect(runBatch({ inputs: [1], concurrency: 0, task: async (n) => n })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
    expect(await runBatch({ inputs: [], concurrency: 2, task: async (n: number) => n })).toEqual([]);
  });

  it('on abort starts nothing new and rejects with AbortedError after in-flight tasks settle', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    let settled = 0;
    const pending = runBatch({
      inputs: [0, 1, 2, 3, 4, 5],
      concurrency: 2,
      abortSignal: controller.signal,
      task: async (n) => {
        started.push(n);
        await sleep(15);
        settled += 1;
        return n;
      },
    });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'MosaicAbortedError' });
    expect(started).toEqual([0, 1, 2, 3]);
    expect(settled).toBe(4);
  });
});
