import { describe, expect, it } from 'vitest';
import {
  applyQueryV8Flags,
  buildHeapArgs,
  HEAP_GROWING_PERCENT,
  heapRespawnLimitMb,
  QUERY_V8_FLAGS,
  queryV8Flags,
  type HeapRespawnInput,
} from './heap-limit.js';

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

describe('queryV8Flags', () => {
  it('turns allocation-site pretenuring off for the commands that answer questions, and for no other', () => {
    expect(QUERY_V8_FLAGS).toEqual(['--no-allocation-site-pretenuring']);
    for (const command of ['retrieve', 'ask', 'serve', 'mcp', 'bench', 'explore']) {
      expect(queryV8Flags({ argv: [command, '--index', 'x'], execArgv: [] })).toEqual(QUERY_V8_FLAGS);
    }
    for (const argv of [['index', '--corpus', 'docs'], ['migrate'], ['demo'], ['policies'], [], ['--help']]) {
      expect(queryV8Flags({ argv, execArgv: [] })).toEqual([]);
    }
  });

  it("leaves the flag to the user when node's arguments set it either way", () => {
    for (const execArgv of [['--allocation-site-pretenuring'], ['--no-allocation-site-pretenuring'], ['--allocation_site_pretenuring']]) {
      expect(queryV8Flags({ argv: ['retrieve'], execArgv })).toEqual([]);
    }
    expect(queryV8Flags({ argv: ['retrieve'], execArgv: ['--enable-source-maps', '--max-old-space-size=4096'] })).toEqual(QUERY_V8_FLAGS);
  });

  it('sets each flag through the setter it is given', () => {
    const set: string[] = [];
    expect(applyQueryV8Flags(['ask', 'why?'], (flag) => set.push(flag))).toEqual(QUERY_V8_FLAGS);
    expect(set).toEqual(QUERY_V8_FLAGS);
    expect(applyQueryV8Flags(['index', '--corpus', 'x'], (flag) => set.push(flag))).toEqual([]);
    expect(set).toEqual(QUERY_V8_FLAGS);
  });
});
