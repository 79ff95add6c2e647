import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFaissNode, locateFaissNode, runOfflineSetup } from './index.mjs';

// The set-up itself runs for real in scripts/setup.sh (this workspace) and in
// examples/install-from-tarballs.test.ts (a project installed from the tarballs, faiss-node dropped
// by npm). Here: how it finds faiss-node, its idempotence, and its failures.
const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const vectorIndexDir = join(packageDir, '..', 'vector-index');
const bin = join(packageDir, 'bin', 'mosaic-offline-setup.mjs');
const run = promisify(execFile);

describe('mosaic-offline-setup', () => {
  let empty: string;
  beforeAll(async () => {
    empty = await mkdtemp(join(tmpdir(), 'mosaic-offline-setup-'));
    await writeFile(join(empty, 'package.json'), '{"name":"empty","private":true}\n');
  });
  afterAll(async () => {
    await rm(empty, { recursive: true, force: true });
  });

  it('finds the faiss-node the workspace vector-index loads, and a second build is a no-op', async () => {
    const located = locateFaissNode({ projectDir: empty, faissFrom: vectorIndexDir });
    expect(located?.installed).toBe(false);
    const first = buildFaissNode({ faissDir: located!.faissDir });
    const second = buildFaissNode({ faissDir: located!.faissDir });
    expect(second).toMatchObject({ built: false, faissVersion: '1.7.3' });
    expect(second.addon).toBe(first.addon);
  });

  it('skips the faiss step in a project without @mosaic/vector-index', async () => {
    const result = await runOfflineSetup({ projectDir: empty, model: false });
    expect(result.faiss).toEqual({ skipped: '@mosaic/vector-index is not installed here' });
    expect(result.model).toEqual({ skipped: 'not asked for' });
  });

  it('fails with OfflineSetupError (step faiss) when faiss-node cannot be resolved', async () => {
    // In a child without NODE_PATH (pnpm's bin shims set it to the store, where faiss-node is hoisted).
    const env = { ...process.env };
    delete env.NODE_PATH;
    const script = `import { locateFaissNode, OfflineSetupError } from ${JSON.stringify(join(packageDir, 'src', 'index.mjs'))};
      try { locateFaissNode({ projectDir: process.argv[1], faissFrom: process.argv[1] }); console.log('no error'); }
      catch (error) { console.log(JSON.stringify({ isInstance: OfflineSetupError.isInstance(error), name: error.name, step: error.step })); }`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, empty], { env });
    expect(JSON.parse(stdout)).toEqual({ isInstance: true, name: 'MosaicOfflineSetupError', step: 'faiss' });
    await expect(run(process.execPath, [bin, '--project', empty, '--faiss-from', empty, '--no-model'], { env })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('faiss: faiss-node cannot be resolved'),
    });
  });

  it('the bin prints its usage, and exits 1 naming an unknown option', async () => {
    const help = await run(process.execPath, [bin, '--help']);
    expect(help.stdout).toMatch(/^Usage: mosaic-offline-setup/);
    await expect(run(process.execPath, [bin, '--frobnicate'])).rejects.toMatchObject({ code: 1 });
    const skipped = await run(process.execPath, [bin, '--project', empty, '--no-model']);
    expect(skipped.stdout).toMatch(/faiss addon: skipped/);
  });
});
