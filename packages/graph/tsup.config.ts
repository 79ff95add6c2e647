import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/graph-store-conformance.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
