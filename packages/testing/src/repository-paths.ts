import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '@mosaic/spec';

/** The environment variable that overrides where the GraphRAG-Bench datasets are read from. */
export const DATASETS_DIR_VARIABLE = 'MOSAIC_DATASETS_DIR';

/**
 * The repository root: the nearest folder at or above `from` (default: this module's folder)
 * holding `pnpm-workspace.yaml`. InputError when there is none up to the file-system root.
 */
export function findRepositoryRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let folder = resolve(from);
  for (;;) {
    if (existsSync(join(folder, 'pnpm-workspace.yaml'))) return folder;
    const parent = dirname(folder);
    if (parent === folder) throw new InputError({ source: from, message: 'has no pnpm-workspace.yaml above it (not inside the repository)' });
    folder = parent;
  }
}

/**
 * The folder of the GraphRAG-Bench datasets: `$MOSAIC_DATASETS_DIR` when set, else
 * `../shared/datasets/graphrag-bench` from the repository root.
 */
export function datasetsDirectory(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const override = env[DATASETS_DIR_VARIABLE];
  if (override) return resolve(override);
  return resolve(findRepositoryRoot(), '..', 'shared', 'datasets', 'graphrag-bench');
}

/** A file of the GraphRAG-Bench datasets (e.g. `medical_questions.dev.json`), see `datasetsDirectory`. */
export function datasetPath(name: string, env?: Readonly<Record<string, string | undefined>>): string {
  return join(datasetsDirectory(env), name);
}
