import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { escapeRegExp } from '@mosaic/stage-utils/internal';

/** A fresh, empty sibling of `outDir` to build into: `<outDir>.tmp-<pid>-<random>`. */
export async function createTemporarySibling(outDir: string): Promise<string> {
  await mkdir(dirname(outDir), { recursive: true });
  await removeStaleSiblings(outDir);
  const path = `${outDir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await mkdir(path, { recursive: true });
  return path;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Remove `<outDir>.tmp-*` / `<outDir>.old-*` siblings left by processes that no longer run. */
export async function removeStaleSiblings(outDir: string): Promise<string[]> {
  const parent = dirname(outDir);
  const base = basename(outDir);
  const removed: string[] = [];
  let entries: string[];
  try {
    entries = await readdir(parent);
  } catch {
    return removed;
  }
  for (const entry of entries) {
    const match = new RegExp(`^${escapeRegExp(base)}\\.(tmp|old)-(\\d+)-[0-9a-f]+$`).exec(entry);
    if (!match || alive(Number(match[2]))) continue;
    await rm(join(parent, entry), { recursive: true, force: true });
    removed.push(join(parent, entry));
  }
  return removed;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Move a finished temporary directory to `outDir`. An existing `outDir` is renamed aside
 * first, the new one renamed in, then the old one deleted; when the second rename fails the
 * old one is put back.
 */
export async function replaceDirectory(temporary: string, outDir: string): Promise<void> {
  if (!(await exists(outDir))) {
    await rename(temporary, outDir);
    return;
  }
  const old = `${outDir}.old-${process.pid}-${randomBytes(4).toString('hex')}`;
  await rename(outDir, old);
  try {
    await rename(temporary, outDir);
  } catch (error) {
    await rename(old, outDir);
    throw error;
  }
  await rm(old, { recursive: true, force: true });
}
