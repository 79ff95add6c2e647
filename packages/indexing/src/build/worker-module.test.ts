import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { workerModule } from './worker-module.js';

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
