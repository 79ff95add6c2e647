#!/usr/bin/env node
// Contributor shortcut for the embedded encoder model alone; the code is @mosaic/offline-setup's
// (the same that `mosaic-offline-setup` and scripts/setup.sh run).
//
// Usage: node scripts/build-embedded-model.mjs [--out DIR] [--force] [--quiet] [--source WINK_JSON]
// Default DIR: where createEmbeddedEncoder() looks: $MOSAIC_MODEL_DIR, else <Mosaic home>/models/wink-sg-100d
// ($MOSAIC_HOME, else $XDG_CACHE_HOME/mosaic, else ~/.cache/mosaic). Needs packages/encoders built.
import { resolve } from 'node:path';
import { resolveEmbeddedModelDir } from '../packages/encoders/dist/index.js';
import { buildEmbeddedModel } from '../packages/offline-setup/src/build-embedded-model.mjs';

const options = { outDir: resolveEmbeddedModelDir().modelDir };
const argv = process.argv.slice(2);
for (let index = 0; index < argv.length; index += 1) {
  const [flag, inline] = argv[index].split(/=(.*)/s, 2);
  const value = () => inline ?? argv[++index];
  if (flag === '--force') options.force = true;
  else if (flag === '--quiet') options.quiet = true;
  else if (flag === '--out') options.outDir = resolve(value());
  else if (flag === '--source') options.sourcePath = value();
  else {
    console.error('Usage: node scripts/build-embedded-model.mjs [--out DIR] [--force] [--quiet] [--source WINK_JSON]');
    process.exit(flag === '--help' || flag === '-h' ? 0 : 1);
  }
}
try {
  const result = await buildEmbeddedModel(options);
  if (!options.quiet) {
    console.log(
      result.built
        ? `[build-embedded-model] built ${result.id} (${result.vocabularySize} tokens, ${result.dimension}d, ${(result.bytes / 1e6).toFixed(1)} MB) in ${(result.elapsedMs / 1000).toFixed(1)} s → ${result.outDir}`
        : `[build-embedded-model] up to date: ${result.outDir}`,
    );
  }
} catch (error) {
  console.error(`[build-embedded-model] ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
}
