import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTemporarySibling, removeStaleSiblings, replaceDirectory } from './atomic-directory.js';

const root = await mkdtemp(join(tmpdir(), 'mosaic-atomic-'));
afterAll(() => rm(root, { recursive: true, force: true }));

describe('atomic directories', () => {
  it('removes temporary siblings of dead processes only', async () => {
    const outDir = join(root, 'index');
    const dead = `${outDir}.tmp-4194305-deadbeef`;
    const mine = `${outDir}.tmp-${process.pid}-cafebabe`;
    await mkdir(dead);
    await mkdir(mine);
    await mkdir(join(root, 'other.tmp-4194305-deadbeef'));
    expect(await removeStaleSiblings(outDir)).toEqual([dead]);
    expect((await readdir(root)).sort()).toEqual(['index.tmp-' + `${process.pid}-cafebabe`, 'other.tmp-4194305-deadbeef'].sort());
  });

  it('swaps a finished directory in and deletes the old one', async () => {
    const outDir = join(root, 'swap');
    await mkdir(outDir);
    await writeFile(join(outDir, 'v'), 'old');
    const temporary = await createTemporarySibling(outDir);
    await writeFile(join(temporary, 'v'), 'new');
    await replaceDirectory(temporary, outDir);
    expect(await readFile(join(outDir, 'v'), 'utf8')).toBe('new');
    expect((await readdir(root)).filter((f) => f.startsWith('swap'))).toEqual(['swap']);
  });
});
