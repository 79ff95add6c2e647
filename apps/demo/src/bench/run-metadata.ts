import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';

/** What a results page needs to say about a bench run: the command, the commit, the date, the machine. */
export interface RunMetadata {
  /** The command as typed, e.g. `mosaic bench --index idx/medical --questions … --out runs/med`. */
  command: string;
  /** `git rev-parse --short HEAD` of the working directory, with `+dirty` when files differ; null outside a checkout. */
  commit: string | null;
  /** ISO date-time the run started. */
  date: string;
  machine: { cpu: string; cores: number; memoryGiB: number; node: string; platform: string; loadAverage: number[] };
}

function gitCommit(cwd: string): string | null {
  try {
    const options = { cwd, encoding: 'utf8' as const, stdio: ['ignore', 'pipe', 'ignore'] as ['ignore', 'pipe', 'ignore'] };
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], options).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], options).trim() !== '';
    return dirty ? `${head}+dirty` : head;
  } catch {
    return null;
  }
}

/** The metadata of a run of `mosaic <command> <argv…>` started now in `cwd`. */
export function runMetadata(command: string, argv: readonly string[], cwd = process.cwd()): RunMetadata {
  const quote = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`);
  const processors = cpus();
  return {
    command: ['mosaic', command, ...argv.map(quote)].join(' '),
    commit: gitCommit(cwd),
    date: new Date().toISOString(),
    machine: {
      cpu: processors[0]?.model.trim() ?? 'unknown',
      cores: processors.length,
      memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
    },
  };
}
