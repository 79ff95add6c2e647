#!/usr/bin/env node
// "Used as a library": pack @mosaic/pipeline, @mosaic/policy-schema, @mosaic/traversal and every
// @mosaic/* package they need at run time with `pnpm pack`, install the tarballs into a scratch
// project outside the workspace with npm, and run a short ESM example against their public API
// (including a custom traverser passed to the pipeline).
//
//   node packages/pipeline/scripts/pack-smoke.mjs [--build] [--keep]
//
// --build  run `tsup` in each packed package first (default: only where dist/ is missing or older than src/)
// --keep   leave the scratch directory in place and print its path
// Third-party dependencies (zod, openai, wink-bm25-text-search, …) come from the npm registry (or the
// npm cache). Exit code 0 when the example ran and its checks passed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const started = performance.now();
const args = new Set(process.argv.slice(2));
const packagesDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ROOTS = ['pipeline', 'policy-schema', 'traversal'];

const manifestOf = (folder) => JSON.parse(readFileSync(join(packagesDir, folder, 'package.json'), 'utf8'));
const folderOf = (name) => name.replace(/^@mosaic\//, '');
const log = (message) => console.log(`[pack-smoke ${((performance.now() - started) / 1000).toFixed(1)}s] ${message}`);
const run = (command, commandArgs, cwd) => execFileSync(command, commandArgs, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });

/** Newest modification time of the files under a directory (0 when it does not exist). */
const newest = (dir) => {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
};
const stale = (cwd) => {
  const built = join(cwd, 'dist', 'index.js');
  return !existsSync(built) || newest(join(cwd, 'src')) > statSync(built).mtimeMs;
};

// 1. The runtime closure over @mosaic/* dependencies, dependencies first.
const order = [];
const visit = (folder, seen = new Set()) => {
  if (order.includes(folder)) return;
  if (seen.has(folder)) throw new Error(`dependency cycle at @mosaic/${folder}`);
  seen.add(folder);
  for (const dependency of Object.keys(manifestOf(folder).dependencies ?? {})) {
    if (dependency.startsWith('@mosaic/')) visit(folderOf(dependency), seen);
  }
  order.push(folder);
};
for (const root of ROOTS) visit(root);
log(`packing ${order.map((f) => `@mosaic/${f}`).join(', ')}`);

// 2. Build where needed, then pack (pnpm rewrites workspace:* to the real versions).
const scratch = mkdtempSync(join(tmpdir(), 'mosaic-pack-smoke-'));
const tarballDir = join(scratch, 'tarballs');
const tarballs = [];
for (const folder of order) {
  const cwd = join(packagesDir, folder);
  if (args.has('--build') || stale(cwd)) {
    log(`building @mosaic/${folder}`);
    run('npx', ['tsup'], cwd);
  }
  const output = run('pnpm', ['pack', '--pack-destination', tarballDir], cwd).trim().split('\n');
  const tarball = output.reverse().find((line) => line.trim().endsWith('.tgz'))?.trim();
  if (!tarball) throw new Error(`pnpm pack printed no tarball for @mosaic/${folder}`);
  tarballs.push(resolve(cwd, tarball));
}
log(`packed ${tarballs.length} tarballs`);

// 3. A scratch project outside the workspace, installed from the tarballs only.
const project = join(scratch, 'project');
run('mkdir', ['-p', project]);
writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'mosaic-pack-smoke', private: true, type: 'module' }, null, 2));
run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', ...tarballs], project);
log('installed into a scratch project');

// 4. The example: a tiny in-memory corpus index written against the public contracts, the default
// offline stages, a fixed policy, and a custom traverser that wraps the beam traverser.
writeFileSync(
  join(project, 'example.mjs'),
  String.raw`
import assert from 'node:assert/strict';
import { createMosaic } from '@mosaic/pipeline';
import { fixedPolicy, validatePolicy } from '@mosaic/policy-schema';
import { createBeamTraverser } from '@mosaic/traversal';

// --- a tiny corpus index, built by hand against the @mosaic/spec contracts ---
const text =
  'Prolonged exposure to veltrane dust causes Morrow syndrome. Quarry workers are most at risk. ' +
  'Morrow syndrome is treated with calditrex, an anti-inflammatory drug taken daily for six months.';
const document = { id: 'doc', corpus: 'smoke', text };
const chunks = [
  { id: 'c0', documentId: 'doc', start: 0, end: 92, text: text.slice(0, 92) },
  { id: 'c1', documentId: 'doc', start: 92, end: text.length, text: text.slice(92) },
];
const windows = [
  { id: 'w0', documentId: 'doc', chunkIds: ['c0'], start: 0, end: 92, text: text.slice(0, 92) },
  { id: 'w1', documentId: 'doc', chunkIds: ['c1'], start: 92, end: text.length, text: text.slice(92) },
];
const entities = [
  { id: 'veltrane', name: 'veltrane dust', aliases: [], type: 'SUBSTANCE', description: 'a quarry dust', chunkIds: ['c0'], degree: 1, questionLike: false },
  { id: 'morrow', name: 'Morrow syndrome', aliases: [], type: 'DISEASE', description: 'a connective tissue disorder', chunkIds: ['c0', 'c1'], degree: 2, questionLike: false },
  { id: 'calditrex', name: 'calditrex', aliases: [], type: 'DRUG', description: 'an anti-inflammatory drug', chunkIds: ['c1'], degree: 1, questionLike: false },
];
const relations = [
  { id: 'r0', source: 'veltrane', target: 'morrow', label: 'causes', keywords: ['cause'], description: 'veltrane dust causes Morrow syndrome', chunkIds: ['c0'] },
  { id: 'r1', source: 'calditrex', target: 'morrow', label: 'treats', keywords: ['treatment'], description: 'calditrex treats Morrow syndrome', chunkIds: ['c1'] },
];
const DIMENSION = 64;
const encoder = {
  specificationVersion: 'v1', id: 'smoke-hashing', dimension: DIMENSION,
  async encode(texts) {
    return texts.map((t) => {
      const v = new Float32Array(DIMENSION);
      for (const token of t.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
        let h = 0; for (const ch of token) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
        v[h % DIMENSION] += 1;
      }
      const norm = Math.hypot(...v) || 1;
      return v.map((x) => x / norm);
    });
  },
};
const vectorIndex = async (texts) => {
  const vectors = await encoder.encode(texts);
  return {
    specificationVersion: 'v1', dimension: DIMENSION, size: vectors.length,
    async add() { throw new Error('read-only'); },
    async search(q, k) {
      return vectors.map((v, label) => ({ label, score: v.reduce((s, x, i) => s + x * q[i], 0) }))
        .sort((a, b) => b.score - a.score || a.label - b.label).slice(0, k);
    },
    async save() {},
  };
};
const node = (id) => entities.find((e) => e.id === id);
const graph = {
  specificationVersion: 'v1', nodeCount: entities.length, edgeCount: relations.length, hubDegree: 3, maxDegree: 2,
  async getNodes(ids) { return ids.map(node).filter(Boolean); },
  async getEdges(ids) { return ids.map((id) => relations.find((r) => r.id === id)).filter(Boolean); },
  async neighbors(ids) {
    return new Map(ids.map((id) => [id, relations
      .filter((r) => r.source === id || r.target === id)
      .map((edge) => ({ edge, node: edge.source === id ? edge.target : edge.source }))]));
  },
};
const index = {
  manifest: {
    formatVersion: 1, corpus: 'smoke', encoder: { id: encoder.id, dimension: DIMENSION }, extractor: 'by-hand',
    corpusChecksum: '', counts: { documents: 1, chunks: 2, windows: 2, entities: 3, relations: 2 },
    window: { size: 1600, stride: 800 }, vectorIndex: { factory: 'in-memory' }, buildTimeMs: 0, createdAt: new Date(0).toISOString(),
  },
  graph,
  chunks: {
    getChunk: (id) => chunks.find((c) => c.id === id),
    getWindow: (id) => windows.find((w) => w.id === id),
    windowsOfChunk: (id) => windows.filter((w) => w.chunkIds.includes(id)),
    chunkCount: chunks.length, windowCount: windows.length,
  },
  encoder,
  entityIndex: await vectorIndex(entities.map((e) => e.name + ': ' + e.description)),
  entityIds: entities.map((e) => e.id),
  relationIndex: await vectorIndex(relations.map((r) => r.description)),
  relationIds: relations.map((r) => r.id),
  windowIndex: await vectorIndex(windows.map((w) => w.text)),
  windowIds: windows.map((w) => w.id),
};
void document;

// --- a custom traverser: the library's beam traverser, observed ---
const beam = createBeamTraverser();
const calls = [];
const traverser = {
  specificationVersion: 'v1',
  id: 'observed-beam',
  async traverse(options) {
    calls.push(options.seeds.map((s) => s.nodeId));
    return beam.traverse(options);
  },
};

const question = 'Which drug treats the condition caused by veltrane dust?';
const mosaic = createMosaic({ index, traverser, windows: 2 });
const answer = await mosaic.ask({ question });
assert.equal(calls.length, 1, 'the custom traverser ran once');
assert.equal(mosaic.stages.traverser.id, 'observed-beam');
assert.ok(answer.windows.length > 0, 'windows returned');
assert.ok(answer.windows.some((w) => w.text.includes('calditrex')), 'the treatment window was retrieved');
assert.equal(typeof answer.answer.text, 'string');
assert.ok(answer.timings.total >= answer.timings.retrieval);

const wide = await mosaic.retrieve({ question, policy: 'wide' });
assert.equal(wide.analysis.analyzer, 'fixed:wide');
assert.deepEqual(wide.policy, fixedPolicy('wide'));
const validated = validatePolicy({ seedLimit: 99 });
assert.ok(validated.changes.length > 0, 'validatePolicy reports its changes');

console.log(JSON.stringify({
  analyzer: answer.analysis.analyzer,
  windows: answer.windows.map((w) => w.id),
  evidence: answer.evidence.length,
  answer: answer.answer.text.slice(0, 120),
  effort: answer.effort,
}));
`,
);
let output;
try {
  output = run('node', ['example.mjs'], project);
} catch (error) {
  log(`example FAILED; scratch directory kept: ${scratch}`);
  throw error;
}
log(`example ran: ${output.trim()}`);

if (args.has('--keep')) log(`scratch directory kept: ${scratch}`);
else rmSync(scratch, { recursive: true, force: true });
log(`ok in ${((performance.now() - started) / 1000).toFixed(1)} s`);
