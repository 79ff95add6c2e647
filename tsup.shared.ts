import { defineConfig, type Options } from 'tsup';

/** The build every package shares: ESM with declarations and source maps, for Node 20, from the given entries. */
export function packageBuild(entry: string[], overrides: Options = {}) {
  return defineConfig({ entry, format: ['esm'], dts: true, clean: true, sourcemap: true, target: 'node20', ...overrides });
}
