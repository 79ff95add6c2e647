import { describe, expect, it } from 'vitest';
import {
  applyQueryV8Flags,
  buildHeapArgs,
  exitWithParent,
  HEAP_GROWING_PERCENT,
  heapRespawnLimitMb,
  QUERY_START_FLAGS,
  QUERY_V8_FLAGS,
  queryStartFlagsUnset,
  queryV8Flags,
  queryWorkerArgs,
  respawnArgs,
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

describe('respawnArgs', () => {
  it('re-runs a building command with its heap, whatever else it is given', () => {
    expect(respawnArgs(base)).toEqual(buildHeapArgs(18 * 1024, []));
    expect(respawnArgs({ ...base, execArgv: ['--enable-source-maps'] })).toEqual(buildHeapArgs(18 * 1024, ['--enable-source-maps']));
  });

  it('re-runs a question-answering command with a larger young generation, keeping node arguments', () => {
    expect(QUERY_START_FLAGS).toEqual(['--max-semi-space-size=64']);
    for (const command of ['retrieve', 'ask', 'serve', 'mcp', 'bench', 'explore']) {
      expect(respawnArgs({ ...base, argv: [command, '--index', 'x'] })).toEqual(QUERY_START_FLAGS);
    }
    expect(respawnArgs({ ...base, argv: ['ask', 'why?'], execArgv: ['--enable-source-maps'] })).toEqual(['--enable-source-maps', ...QUERY_START_FLAGS]);
  });

  it('runs other commands, a re-run child and a young generation the user chose in the process started', () => {
    for (const argv of [['demo'], ['policies'], [], ['--help'], ['--version']]) expect(respawnArgs({ ...base, argv })).toBeUndefined();
    expect(respawnArgs({ ...base, argv: ['ask', 'why?'], env: { MOSAIC_HEAP_RESPAWNED: '1' } })).toBeUndefined();
    expect(respawnArgs({ ...base, argv: ['retrieve'], execArgv: ['--max-semi-space-size=16'] })).toBeUndefined();
    expect(respawnArgs({ ...base, argv: ['retrieve'], execArgv: ['--max_semi_space_size=8'] })).toBeUndefined();
    expect(respawnArgs({ ...base, argv: ['serve'], env: { NODE_OPTIONS: '--enable-source-maps --max-semi-space-size=32' } })).toBeUndefined();
  });
});

describe('queryStartFlagsUnset and queryWorkerArgs', () => {
  it('leave out what node arguments or NODE_OPTIONS set', () => {
    expect(queryStartFlagsUnset([], undefined)).toEqual(QUERY_START_FLAGS);
    expect(queryStartFlagsUnset(['--max-old-space-size=4096'], '--trace-warnings')).toEqual(QUERY_START_FLAGS);
    expect(queryStartFlagsUnset(['--max-semi-space-size=16'], undefined)).toEqual([]);
    expect(queryStartFlagsUnset([], '--max-semi-space-size=16')).toEqual([]);
  });

  it("give a worker the command's flags, with the user's own young generation when it has one", () => {
    expect(queryWorkerArgs([], undefined)).toEqual([...QUERY_V8_FLAGS, ...QUERY_START_FLAGS]);
    // A re-run command: its own arguments hold the young generation it was given.
    expect(queryWorkerArgs(['--max-semi-space-size=64'], undefined)).toEqual([...QUERY_V8_FLAGS, '--max-semi-space-size=64']);
    expect(queryWorkerArgs(['--max-semi-space-size=8', '--allocation-site-pretenuring'], undefined)).toEqual(['--max-semi-space-size=8']);
    // One in NODE_OPTIONS reaches the worker through its environment.
    expect(queryWorkerArgs([], '--max-semi-space-size=32')).toEqual(QUERY_V8_FLAGS);
  });
});

describe('exitWithParent', () => {
  it('does nothing in a process that no re-run started', () => {
    let kills = 0;
    const before = process.env.MOSAIC_HEAP_RESPAWNED;
    try {
      delete process.env.MOSAIC_HEAP_RESPAWNED;
      expect(exitWithParent(() => (kills += 1))).toBe(false);
    } finally {
      if (before !== undefined) process.env.MOSAIC_HEAP_RESPAWNED = before;
    }
    expect(kills).toBe(0);
  });
});
