import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { datasetPath, datasetsDirectory, findRepositoryRoot } from './repository-paths.js';

describe('repository paths', () => {
  it('finds the repository root by its pnpm-workspace.yaml, from anywhere inside it', () => {
    const root = findRepositoryRoot();
    expect(existsSync(join(root, 'pnpm-workspace.yaml'))).toBe(true);
    expect(findRepositoryRoot(join(root, 'packages', 'testing', 'src'))).toBe(root);
  });

  it('refuses a folder outside any repository', () => {
    expect(() => findRepositoryRoot(mkdtempSync(join(tmpdir(), 'no-repo-')))).toThrowError(expect.objectContaining({ name: 'MosaicInputError' }));
  });

  it('reads the datasets from ../shared of the root, or from MOSAIC_DATASETS_DIR', () => {
    expect(datasetsDirectory({})).toBe(join(findRepositoryRoot(), '..', 'shared', 'datasets', 'graphrag-bench'));
    expect(datasetPath('medical.json', { MOSAIC_DATASETS_DIR: '/data/bench' })).toBe('/data/bench/medical.json');
  });
});
