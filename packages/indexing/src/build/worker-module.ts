import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';

export type WorkerModuleName = 'extract-worker' | 'bm25-worker' | 'load-worker';

/** Which file a worker runs, and whether it needs tsx's loader (TypeScript source). */
export interface WorkerModule {
  url: URL;
  loader: 'none' | 'tsx';
}

/**
 * The file worker `module` runs, for the module at `from` that starts it:
 * - built (`from` is dist/index.js): the bundle next to it;
 * - running from source (`from` under the package's `src`, as in this package's tests): the
 *   package's own build of the worker (`dist/<module>.js`) when it is at least as new as every
 *   non-test `.ts` file under `src` (turbo builds a package before its tests), so the worker runs
 *   plain JavaScript with no loader hooks (Node 20 can hang terminating a worker whose hooks thread
 *   is busy); otherwise the TypeScript source, through tsx's loader.
 */
export function workerModule(module: WorkerModuleName, from: string): WorkerModule {
  const beside = new URL(`./${module}.js`, from);
  if (existsSync(fileURLToPath(beside))) return { url: beside, loader: 'none' };
  const path = fileURLToPath(from);
  const at = path.lastIndexOf(`${sep}src${sep}`);
  if (at >= 0) {
    const root = path.slice(0, at);
    const dist = join(root, 'dist', `${module}.js`);
    if (existsSync(dist) && statSync(dist).mtimeMs >= newestSourceOf(root)) return { url: pathToFileURL(dist), loader: 'none' };
  }
  return { url: new URL(`./${module}.ts`, from), loader: 'tsx' };
}

/** Per package root: the newest modification time of its sources, read once per process (a build extracts with a fresh worker per block). */
const newestSources = new Map<string, number>();

function newestSourceOf(root: string): number {
  let newest = newestSources.get(root);
  if (newest === undefined) newestSources.set(root, (newest = newestSource(join(root, 'src'))));
  return newest;
}

/** The newest modification time of the non-test `.ts` files under `dir`. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** How long `stopWorkers` waits for workers to stop by default. */
export const STOP_WORKERS_GRACE_MS = 10_000;

/**
 * Terminate `workers` and wait until they have stopped, at most `graceMs`: a worker still running
 * then (stuck in a native call, which termination cannot interrupt) is unref'd and left to end on its
 * own, so it neither holds up the caller, whose work is done or abandoned, nor keeps the process alive.
 */
export async function stopWorkers(workers: readonly Worker[], graceMs: number = STOP_WORKERS_GRACE_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const stopped = Promise.all(workers.map((worker) => worker.terminate().catch(() => undefined)));
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), graceMs);
  });
  try {
    if ((await Promise.race([stopped, late])) === 'late') for (const worker of workers) worker.unref();
  } finally {
    clearTimeout(timer);
  }
}
