import { spawn } from 'node:child_process';
import { totalmem } from 'node:os';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';

/** Commands that hold a whole corpus's graph in memory while they build (index, migrate). */
const BUILDING_COMMANDS = new Set(['index', 'migrate']);
/** Share of the machine's memory the V8 heap of a building command may use. */
export const HEAP_SHARE = 0.75;
const MAX_HEAP_MB = 64 * 1024;
/**
 * How far (in %) V8 lets the heap of a building command grow past what the last full collection
 * kept before it collects again. V8's own factor reaches 4× when a program allocates fast, as a
 * build does: the merge of the 12 MB Python docs peaked at 992 MB RSS with it, 724 MB at 20 %.
 */
export const HEAP_GROWING_PERCENT = 25;

export interface HeapRespawnInput {
  argv: readonly string[];
  execArgv: readonly string[];
  env: NodeJS.ProcessEnv;
  totalMemoryBytes: number;
  /** The running process's V8 heap limit (bytes). */
  heapLimitBytes: number;
}

/**
 * The `--max-old-space-size` (MB) a building command should be re-run with, or undefined when the
 * process should go on as it is. Node's default heap limit (about 4 GB on a 64-bit machine) is far
 * below what indexing a 30 MB corpus needs; the limit is set once, at start, so the CLI re-runs
 * itself with `HEAP_SHARE` of the machine's memory (or MOSAIC_MAX_HEAP_MB). A limit set by the user
 * (`--max-old-space-size` in NODE_OPTIONS or node's own arguments) is left alone.
 */
export function heapRespawnLimitMb(input: HeapRespawnInput): number | undefined {
  if (!BUILDING_COMMANDS.has(input.argv[0] ?? '')) return undefined;
  if (input.env.MOSAIC_HEAP_RESPAWNED === '1') return undefined;
  if (unsetFlags(['--max-old-space-size'], [...input.execArgv, ...nodeOptionArgs(input.env.NODE_OPTIONS)]).length === 0) return undefined;
  const asked = input.env.MOSAIC_MAX_HEAP_MB;
  let limitMb: number;
  if (asked !== undefined && asked !== '') {
    limitMb = Number(asked);
    if (!Number.isInteger(limitMb) || limitMb < 256) throw new Error(`MOSAIC_MAX_HEAP_MB must be a whole number of megabytes, at least 256 (got "${asked}")`);
  } else {
    limitMb = Math.floor(Math.min(input.totalMemoryBytes * HEAP_SHARE, MAX_HEAP_MB * 2 ** 20) / 2 ** 20);
  }
  return limitMb * 2 ** 20 > input.heapLimitBytes * 1.05 ? limitMb : undefined;
}

/**
 * The node arguments of the re-run: the heap limit and, unless the user chose one, the heap's
 * growing factor (HEAP_GROWING_PERCENT).
 */
export function buildHeapArgs(limitMb: number, execArgv: readonly string[]): string[] {
  // (NODE_OPTIONS cannot carry the growing factor: node refuses it there.)
  return [...execArgv, `--max-old-space-size=${limitMb}`, ...unsetFlags([`--heap-growing-percent=${HEAP_GROWING_PERCENT}`], execArgv)];
}

/** The V8 flag a node argument sets: its name without `--`, `no-` or a value, `_` read as `-`. */
function flagName(arg: string): string {
  return arg
    .replace(/^--(no-)?/, '')
    .replace(/=.*$/, '')
    .replaceAll('_', '-');
}

/** The node arguments NODE_OPTIONS holds. */
function nodeOptionArgs(nodeOptions: string | undefined): string[] {
  return (nodeOptions ?? '').split(/\s+/).filter(Boolean);
}

/** Those of `flags` that no argument of `args` sets, either way (`--x`, `--no-x`, `--x=…`, `--x_y`). */
function unsetFlags(flags: readonly string[], args: readonly string[]): string[] {
  const set = new Set(args.filter((arg) => arg.startsWith('--')).map(flagName));
  return flags.filter((flag) => !set.has(flagName(flag)));
}

/** Commands that answer questions over an index they load (they build no index). */
const QUERY_COMMANDS = new Set(['retrieve', 'ask', 'serve', 'mcp', 'bench', 'explore']);

/**
 * What a question-answering command turns off in V8 at start: allocation-site pretenuring (V8
 * watches where objects are allocated, and once most objects of a site outlive a young-generation
 * collection it allocates that site's later objects in the old generation). With it on, after a 100 MB
 * index had loaded, the young collections taken while relations were built found most of them still
 * alive (87 % of the young generation in one traced collection), so they were copied and promoted
 * instead of freed: a relation took 6–8 µs to build instead of 0.65–1.1 µs, and the cold median
 * question was about 15 % slower (docs/results/issue-31.md, session 19; why V8 kept them is not
 * established). Queries build many short-lived records and few lasting ones.
 */
export const QUERY_V8_FLAGS = ['--no-allocation-site-pretenuring'];

/**
 * The V8 flags (`QUERY_V8_FLAGS`) a command sets at start: those of a question-answering command
 * that node's own arguments do not set either way (`--allocation-site-pretenuring` or `--no-…`).
 */
export function queryV8Flags(input: { argv: readonly string[]; execArgv: readonly string[] }): string[] {
  return QUERY_COMMANDS.has(input.argv[0] ?? '') ? queryV8FlagsUnset(input.execArgv) : [];
}

/**
 * `QUERY_V8_FLAGS` that `execArgv` (node's arguments) does not set either way: what a
 * question-answering command sets in itself, and gives the worker processes it starts.
 */
export function queryV8FlagsUnset(execArgv: readonly string[]): string[] {
  return unsetFlags(QUERY_V8_FLAGS, execArgv);
}

/**
 * Sets `queryV8Flags` of this process's command (before the index is loaded: V8 decides from what it
 * sees allocated). `set` is v8.setFlagsFromString unless a test passes another. Returns the flags set.
 */
export function applyQueryV8Flags(argv: readonly string[], set: (flags: string) => void = setFlagsFromString): string[] {
  const flags = queryV8Flags({ argv, execArgv: process.execArgv });
  for (const flag of flags) set(flag);
  return flags;
}

/**
 * V8 flags of the question-answering commands that V8 reads only when it sets its heap up, so that
 * the CLI re-runs itself to give them (`respawnArgs`): a young generation that may grow to 64 MB a
 * semi-space instead of V8's 16 MB. A loaded 100 MB index keeps about 700 MB in the old generation,
 * and a young collection costs more the more the old generation holds (1–2.7 ms with almost nothing
 * alive at 0.7–1.9 GB, 0.6 ms at 59 MB), so fewer, larger young collections pay: over the 40 100 MB
 * bench questions 6 instead of 24–25, their time 66–80 ms instead of 122–159, the questions' sum
 * 7–15 % lower; on 200 Medical questions 4 % lower, for about 94 MB more RSS
 * (docs/results/issue-31.md, session 36).
 */
export const QUERY_START_FLAGS = ['--max-semi-space-size=64'];

/**
 * `QUERY_START_FLAGS` that neither node's arguments (`execArgv`) nor NODE_OPTIONS set (either way).
 */
export function queryStartFlagsUnset(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  return unsetFlags(QUERY_START_FLAGS, [...execArgv, ...nodeOptionArgs(nodeOptions)]);
}

/**
 * The node arguments to re-run this CLI with, or undefined when the process should run the command
 * itself: a building command whose heap is too small (`heapRespawnLimitMb`, `buildHeapArgs`), or a
 * question-answering command without `QUERY_START_FLAGS` (those the user set are left alone, and
 * when they set them all no re-run happens). Never in a re-run child (MOSAIC_HEAP_RESPAWNED=1).
 */
export function respawnArgs(input: HeapRespawnInput): string[] | undefined {
  const limitMb = heapRespawnLimitMb(input);
  if (limitMb !== undefined) return buildHeapArgs(limitMb, input.execArgv);
  if (!QUERY_COMMANDS.has(input.argv[0] ?? '') || input.env.MOSAIC_HEAP_RESPAWNED === '1') return undefined;
  const flags = queryStartFlagsUnset(input.execArgv, input.env.NODE_OPTIONS);
  return flags.length === 0 ? undefined : [...input.execArgv, ...flags];
}

/**
 * The node arguments of a worker process that answers questions (`mosaic serve --workers N`): the
 * flags the command sets in itself (`queryV8FlagsUnset`) and `QUERY_START_FLAGS`, each as this
 * process has it (the user's own value, from its arguments; one in NODE_OPTIONS reaches the worker
 * through its environment).
 */
export function queryWorkerArgs(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const names = new Set(QUERY_START_FLAGS.map(flagName));
  const own = execArgv.filter((arg) => arg.startsWith('--') && names.has(flagName(arg)));
  return [...queryV8FlagsUnset(execArgv), ...own, ...queryStartFlagsUnset(execArgv, nodeOptions)];
}

/**
 * Re-run this CLI with the node arguments `respawnArgs` gives; resolves to the child's exit code, or
 * undefined when the current process should run the command itself. SIGINT and SIGTERM are passed on
 * to the child (which stops a build cleanly, or drains a server). The child has an IPC channel to
 * this process and stops when it closes (see `exitWithParent`): a parent killed outright leaves no
 * server or build running.
 */
export function runWithNodeFlags(argv: readonly string[]): Promise<number> | undefined {
  const args = respawnArgs({
    argv,
    execArgv: process.execArgv,
    env: process.env,
    totalMemoryBytes: totalmem(),
    heapLimitBytes: getHeapStatistics().heap_size_limit,
  });
  if (args === undefined) return undefined;
  const script = process.argv[1];
  if (!script) return undefined;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...args, script, ...argv], {
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, MOSAIC_HEAP_RESPAWNED: '1' },
    });
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    child.on('error', () => resolve(1));
    child.on('exit', (code, signal) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(code ?? (signal === 'SIGINT' ? 130 : 1));
    });
  });
}

/**
 * In a child that `runWithNodeFlags` started: stop as on SIGTERM (a build stops cleanly, a server
 * drains; `kill` sends it) when the parent's IPC channel closes, the parent having been killed without
 * passing a signal on; the channel keeps this process alive no longer than its own work. Nothing in
 * any other process. Returns whether it is such a child.
 */
export function exitWithParent(kill: () => void = () => process.kill(process.pid, 'SIGTERM')): boolean {
  if (process.env.MOSAIC_HEAP_RESPAWNED !== '1' || !process.channel) return false;
  process.channel.unref();
  process.once('disconnect', kill);
  return true;
}
