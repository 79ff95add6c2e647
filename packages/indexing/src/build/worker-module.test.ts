import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { stopWorkers, workerModule } from './worker-module.js';

const root = mkdtempSync(join(tmpdir(), 'mosaic-worker-module-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A package folder: src/build/start.ts (the starting module), src/deep/part.ts, a test file, and dist/<worker>.js when `dist` is given, with these modification times (seconds). */
function layout(name: string, times: { source: number; test?: number; dist?: number }): string {
  const pkg = join(root, name);
  mkdirSync(join(pkg, 'src', 'build'), { recursive: true });
  mkdirSync(join(pkg, 'src', 'deep'), { recursive: true });
  const files: [string, number][] = [
    [join(pkg, 'src', 'build', 'start.ts'), 100],
    [join(pkg, 'src', 'deep', 'part.ts'), times.source],
    [join(pkg, 'src', 'deep', 'part.test.ts'), times.test ?? 100],
  ];
  if (times.dist !== undefined) {
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    files.push([join(pkg, 'dist', 'load-worker.js'), times.dist]);
  }
  for (const [path, time] of files) {
    writeFileSync(path, '');
    utimesSync(path, time, time);
  }
  return pathToFileURL(join(pkg, 'src', 'build', 'start.ts')).href;
}

describe('workerModule', () => {
  it('runs the package build of a worker when it is as new as every source file, without a loader', () => {
    const from = layout('fresh', { source: 200, test: 900, dist: 200 });
    expect(workerModule('load-worker', from)).toEqual({ url: pathToFileURL(join(root, 'fresh', 'dist', 'load-worker.js')), loader: 'none' });
  });

  it('runs the TypeScript source through tsx when a source file is newer than the build, or there is none', () => {
    for (const [name, times] of [
      ['stale', { source: 300, dist: 200 }],
      ['unbuilt', { source: 300 }],
    ] as const) {
      const from = layout(name, times);
      expect(workerModule('load-worker', from)).toEqual({ url: new URL('./load-worker.ts', from), loader: 'tsx' });
    }
  });

  it('runs the bundle beside a built module', () => {
    const dist = join(root, 'built', 'dist');
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(dist, 'extract-worker.js'), '');
    const from = pathToFileURL(join(dist, 'index.js')).href;
    expect(workerModule('extract-worker', from)).toEqual({ url: new URL('./extract-worker.js', from), loader: 'none' });
  });
});

describe('stopWorkers', () => {
  /** A worker that says it is up, then runs `code`. */
  async function started(code: string): Promise<Worker> {
    const worker = new Worker(`require('node:worker_threads').parentPort.postMessage('up'); ${code}`, { eval: true });
    await new Promise((resolve) => worker.once('message', resolve));
    return worker;
  }

  it('terminates running workers and waits until they have exited', async () => {
    const workers = [await started('setInterval(() => {}, 1000);'), await started('for (;;) {}')];
    const exits = workers.map((worker) => new Promise<number>((resolve) => worker.once('exit', resolve)));
    await stopWorkers(workers, 60_000);
    expect(await Promise.race([Promise.all(exits), new Promise((resolve) => setTimeout(() => resolve('still running'), 50))])).toEqual([1, 1]);
  });

  it('stops waiting after the grace period for a worker termination cannot interrupt (a native call)', async () => {
    // Terminating a worker inside execSync waits for the child process (measured: 2.97 s for sleep 3; here sleep 5).
    const marker = join(root, 'in-native-call');
    const worker = await started(`require('node:child_process').execSync('touch ${marker} && sleep 5');`);
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    while (!existsSync(marker)) await new Promise((resolve) => setTimeout(resolve, 10)); // the child runs: the worker is inside execSync
    const start = performance.now();
    await stopWorkers([worker], 100);
    expect(performance.now() - start).toBeLessThan(3_000);
    await exited; // it ends on its own once the call returns
  });
});
