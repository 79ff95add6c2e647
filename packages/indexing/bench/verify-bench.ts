/**
 * Verification benchmark: what checking every file's sha256 costs when loading indexes.
 * For every index directory under --index (or --index itself), alternating rounds time
 * checkIndexDirectory with verify 'sizes' and 'digests', and loadIndex with each; prints the sums.
 *
 *   npx tsx bench/verify-bench.ts --index <dir of indexes, e.g. mosaic index --out> [--rounds 3]
 *
 * The indexes must have been built with digests (this version of `mosaic index`), with the
 * embedded encoder; needs the built dist of @mosaic/encoders, @mosaic/graph and @mosaic/vector-index.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEmbeddedEncoder } from '@mosaic/encoders';
import { checkIndexDirectory, loadIndex, readIndexManifest, type IndexVerification } from '../src/index.js';

const { values } = parseArgs({ options: { index: { type: 'string' }, rounds: { type: 'string', default: '3' } } });
if (!values.index) throw new Error('--index DIR is required');
const root = values.index;
const dirs = existsSync(join(root, 'manifest.json'))
  ? [root]
  : readdirSync(root)
      .sort()
      .map((name) => join(root, name))
      .filter((dir) => statSync(dir).isDirectory() && existsSync(join(dir, 'manifest.json')));
const encoder = await createEmbeddedEncoder();
const manifests = await Promise.all(dirs.map((dir) => readIndexManifest(dir)));
const missing = dirs.filter((_, i) => !manifests[i]!.digests);
if (missing.length > 0) throw new Error(`built without digests (rebuild them): ${missing.join(', ')}`);
const bytes = manifests.reduce((sum, m) => sum + Object.values(m.files).reduce((a, b) => a + b, 0), 0);

const rounds = Number(values.rounds);
const times: Record<string, number[]> = { 'check sizes': [], 'check digests': [], 'load sizes': [], 'load digests': [] };
for (let round = 0; round < rounds; round += 1) {
  for (const verify of ['sizes', 'digests'] as IndexVerification[]) {
    let started = performance.now();
    for (const [i, dir] of dirs.entries()) {
      const { integrity } = await checkIndexDirectory({ dir, manifest: manifests[i]!, encoder, verify });
      if (integrity !== verify) throw new Error(`${dir}: checked ${integrity}, not ${verify}`);
    }
    times[`check ${verify}`]!.push(performance.now() - started);
    started = performance.now();
    for (const dir of dirs) await loadIndex({ dir, encoder, verify });
    times[`load ${verify}`]!.push(performance.now() - started);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${dirs.length} index(es), ${(bytes / 1e6).toFixed(1)} MB of listed files, ${rounds} rounds (median, all in ms):`);
for (const [name, xs] of Object.entries(times)) console.log(`  ${name.padEnd(14)} ${Math.round(median(xs))}   (${xs.map(Math.round).join(', ')})`);
console.log(
  `  digest verification adds ${Math.round(median(times['check digests']!) - median(times['check sizes']!))} ms to loading (${Math.round(median(times['load digests']!))} ms vs ${Math.round(median(times['load sizes']!))} ms)`,
);
