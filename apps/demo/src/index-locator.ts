import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseIndexManifest } from '@mosaic/indexing';
import type { IndexManifest } from '@mosaic/spec';
import { CliError } from './cli-error.js';

export interface LocatedIndex {
  dir: string;
  manifest: IndexManifest;
}

/** The validated manifest of `dir`, or undefined when it has none; a manifest of the wrong shape → IndexMismatchError naming the field. */
function readManifest(dir: string): IndexManifest | undefined {
  const file = join(dir, 'manifest.json');
  if (!existsSync(file)) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`${file}: unreadable manifest (${(error as Error).message})`);
  }
  return parseIndexManifest({ text, path: file });
}

/**
 * Finds index directories: `dir` itself when it holds a manifest, else its immediate
 * sub-directories that do (one per corpus, as `mosaic index` writes them). Keyed by corpus name.
 */
export function locateIndexes(dir: string): Map<string, LocatedIndex> {
  const root = resolve(dir);
  if (!existsSync(root)) throw new CliError(`--index ${dir}: no such directory`);
  if (!statSync(root).isDirectory()) {
    const hint = basename(root) === 'manifest.json' ? `; pass its directory, --index ${dirname(dir)}` : ' (give an index directory, or a folder of them)';
    throw new CliError(`--index ${dir} is a file, not a directory${hint}`);
  }
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
