import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The package is plain .mjs with JSDoc; `pnpm build` (tsc, tsconfig.build.json) writes its
// declarations to dist/, which package.json names for TypeScript users.
const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));

describe('type declarations', () => {
  it('are named by package.json, shipped, and declare every export with its option and result types', () => {
    const types = manifest.exports['.'].types as string;
    expect(manifest.types).toBe(types);
    expect(manifest.files).toContain('dist/*.d.mts');
    const path = join(packageDir, types);
    expect(existsSync(path), `${types} is missing: run pnpm --filter @mosaic/offline-setup build`).toBe(true);
    const index = readFileSync(path, 'utf8');
    for (const name of [
      'runOfflineSetup',
      'buildFaissNode',
      'buildEmbeddedModel',
      'locateFaissNode',
      'OfflineSetupError',
      'OfflineSetupOptions',
      'OfflineSetupResult',
    ]) {
      expect(index).toContain(name);
    }
    expect(readFileSync(join(packageDir, 'dist', 'run-offline-setup.d.mts'), 'utf8')).toMatch(
      /export function runOfflineSetup\(options\?: OfflineSetupOptions\): Promise<OfflineSetupResult>;/,
    );
  });
});
