import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // serve-worker: the worker processes of `mosaic serve` / `mosaic mcp` (each loads the index).
    entry: ['src/cli.ts', 'src/serve-worker.ts'],
    format: ['esm'],
    // dist/explorer is the browser bundle's own output (below): leave it alone.
    clean: ['!explorer/**'],
    sourcemap: true,
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    // The explorer page's client (sigma.js + graphology), served by `mosaic explore` from dist/explorer.
    entry: { 'explorer-client': 'src/explorer/client/explorer-client.ts' },
    outDir: 'dist/explorer',
    format: ['iife'],
    platform: 'browser',
    target: 'es2020',
    clean: true,
    minify: true,
    sourcemap: true,
    dts: false,
    noExternal: [/.*/],
    outExtension: () => ({ js: '.js' }),
  },
]);
