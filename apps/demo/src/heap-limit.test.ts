import { describe, expect, it } from 'vitest';
import { buildHeapArgs, HEAP_GROWING_PERCENT, heapRespawnLimitMb, type HeapRespawnInput } from './heap-limit.js';

const GiB = 2 ** 30;
const base: HeapRespawnInput = { argv: ['index', '--corpus', 'docs'], execArgv: [], env: {}, totalMemoryBytes: 24 * GiB, heapLimitBytes: 4 * GiB };

describe('heapRespawnLimitMb', () => {
  it('gives index and migrate 75 % of the machine memory when the heap is smaller', () => {
    expect(heapRespawnLimitMb(base)).toBe(18 * 1024);
    expect(heapRespawnLimitMb({ ...base, argv: ['migrate', '--index', 'x'] })).toBe(18 * 1024);
  });

  it('leaves other commands, a re-run child and a heap already large enough alone', () => {
    expect(heapRespawnLimitMb({ ...base, argv: ['ask', 'why?'] })).toBeUndefined();
    expect(heapRespawnLimitMb({ ...base, argv: [] })).toBeUndefined();
    expect(heapRespawnLimitMb({ ...base, env: { MOSAIC_HEAP_RESPAWNED: '1' } })).toBeUndefined();
    expect(heapRespawnLimitMb({ ...base, totalMemoryBytes: 4 * GiB })).toBeUndefined();
  });

  it('never overrides a limit the user set', () => {
    expect(heapRespawnLimitMb({ ...base, execArgv: ['--max-old-space-size=2048'] })).toBeUndefined();
    expect(heapRespawnLimitMb({ ...base, env: { NODE_OPTIONS: '--max-old-space-size=2048' } })).toBeUndefined();
  });

  it('takes MOSAIC_MAX_HEAP_MB, and refuses a value that is not a size', () => {
    expect(heapRespawnLimitMb({ ...base, env: { MOSAIC_MAX_HEAP_MB: '12000' } })).toBe(12000);
    expect(() => heapRespawnLimitMb({ ...base, env: { MOSAIC_MAX_HEAP_MB: 'lots' } })).toThrow(/MOSAIC_MAX_HEAP_MB/);
    expect(() => heapRespawnLimitMb({ ...base, env: { MOSAIC_MAX_HEAP_MB: '100' } })).toThrow(/at least 256/);
  });

  it('re-runs with the heap limit and a bounded heap growth, unless the user chose a growth', () => {
    expect(buildHeapArgs(18432, ['--enable-source-maps'])).toEqual([
      '--enable-source-maps',
      '--max-old-space-size=18432',
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
    ]);
    expect(buildHeapArgs(18432, ['--heap-growing-percent=50'])).toEqual(['--heap-growing-percent=50', '--max-old-space-size=18432']);
    expect(buildHeapArgs(18432, ['--heap_growing_percent=10'])).toEqual(['--heap_growing_percent=10', '--max-old-space-size=18432']);
  });
});
