import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { IndexManifest } from '@mosaic/spec';
import { CliError } from './cli-error.js';

export interface LocatedIndex {
  dir: string;
  manifest: IndexManifest;
}

function readManifest(dir: string): IndexManifest | undefined {
  const file = join(dir, 'manifest.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as IndexManifest;
  } catch (error) {
    throw new CliError(`${file}: unreadable manifest (${(error as Error).message})`);
  }
}

/**
 * Finds index directories: `dir` itself when it holds a manifest, else its immediate
 * sub-directories that do (one per corpus, as `mosaic index` writes them). Keyed by corpus name.
 */
export function locateIndexes(dir: string): Map<string, LocatedIndex> {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new CliError(`--index ${dir}: no such directory`);
  const found = new Map<string, LocatedIndex>();
  const own = readManifest(root);
  if (own) {
    found.set(own.corpus, { dir: root, manifest: own });
    return found;
  }
  for (const name of readdirSync(root).sort()) {
    const sub = join(root, name);
    if (!statSync(sub).isDirectory()) continue;
    const manifest = readManifest(sub);
    if (manifest) found.set(manifest.corpus, { dir: sub, manifest });
  }
  if (found.size === 0) throw new CliError(`--index ${dir}: no index found (no manifest.json in it or its sub-directories)`);
  return found;
}
