import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { CLIENT_SCRIPT } from './explorer-page.js';

/** The client entry (bundled by tsup for dist/explorer, and by the tests with this function). */
export const CLIENT_ENTRY = fileURLToPath(new URL('./client/explorer-client.ts', import.meta.url));

/**
 * Bundle the browser client into `<outDir>/explorer-client.js` with esbuild (IIFE, ES2020, sigma and
 * graphology inlined), the same shape tsup writes into dist/explorer. For tests and development;
 * needs the esbuild dev dependency.
 */
export async function bundleExplorerClient(options: { outDir: string; minify?: boolean }): Promise<{ file: string }> {
  const file = join(options.outDir, CLIENT_SCRIPT);
  await build({
    entryPoints: [CLIENT_ENTRY],
    outfile: file,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: options.minify ?? false,
    sourcemap: true,
    logLevel: 'silent',
  });
  return { file };
}
