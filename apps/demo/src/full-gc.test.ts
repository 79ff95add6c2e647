import { describe, expect, it } from 'vitest';
import { fullGarbageCollection } from './full-gc.js';

describe('fullGarbageCollection', () => {
  it('collects what nothing holds any more, and leaves this context without a global gc it did not have', async () => {
    const hadGlobal = typeof (globalThis as { gc?: unknown }).gc === 'function';
    const collect = fullGarbageCollection();
    let held: object | undefined = { payload: new Array(1000).fill('x') };
    const ref = new WeakRef(held);
    const kept = { payload: [1, 2, 3] };
    const keptRef = new WeakRef(kept);
    held = undefined;
    // A WeakRef's target stays alive until the end of the job that dereferenced or made it.
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    expect(ref.deref()).toBeUndefined();
    expect(keptRef.deref()).toBe(kept);
    expect(typeof (globalThis as { gc?: unknown }).gc === 'function').toBe(hadGlobal);
  });
});
