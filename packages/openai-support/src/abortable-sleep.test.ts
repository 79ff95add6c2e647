import { describe, expect, it } from 'vitest';
import { abortableSleep } from './abortable-sleep.js';

describe('abortableSleep', () => {
  it('waits the given time', async () => {
    const started = performance.now();
    await abortableSleep({ ms: 40, stage: 's' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
  });

  it('rejects with AbortedError for the stage when aborted during the wait', async () => {
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(new Error('stop')), 20);
    const error = await abortableSleep({ ms: 10_000, abortSignal: controller.signal, stage: 'generate' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'MosaicAbortedError' });
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
