import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureEntityId } from '@mosaic/testing';
import { buildFixtureIndex } from './__fixtures__/fixture-hand-index.js';
import { loadSurrealIndex } from './surreal-index.js';

const run = promisify(execFile);
const folders: string[] = [];
afterAll(async () => {
  // The embedded engine stays open until the process exits (README, "Known limits") and may still
  // write into its folder: retry, and leave a folder that stays busy to the system's temp cleanup.
  for (const folder of folders) await rm(folder, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => undefined);
});

describe.each(['rocksdb', 'surrealkv'])('on-disk embedded engine (%s://)', (engine) => {
  it('loads an index that another process wrote, with the same answers as in memory', async () => {
    const folder = await mkdtemp(join(tmpdir(), `mosaic-${engine}-`));
    folders.push(folder);
    const url = `${engine}://${join(folder, 'db')}`;
    const script = fileURLToPath(new URL('./__fixtures__/write-fixture-index.ts', import.meta.url));
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script, url], { cwd: fileURLToPath(new URL('..', import.meta.url)), timeout: 240_000 });
    const child = JSON.parse(stdout.trim().split('\n').at(-1)!) as { counts: { entities: number } };
    const index = await buildFixtureIndex();
    expect(child.counts.entities).toBe(index.manifest.counts.entities);

    const loaded = await loadSurrealIndex({ url, database: 'fixture', encoder: index.encoder });
    try {
      expect([loaded.graph.nodeCount, loaded.graph.edgeCount]).toEqual([index.graph.nodeCount, index.graph.edgeCount]);
      expect(loaded.windowIds).toEqual(index.windowIds);
      const [query] = await index.encoder.encode(['Which drug treats Morrow syndrome?']);
      expect(await loaded.windowIndex.search(query, 3)).toEqual(await index.windowIndex.search(query, 3));
      const id = fixtureEntityId(index, 'Morrow syndrome');
      expect((await loaded.graph.neighbors([id])).get(id)!.map((n) => n.edge.id)).toEqual((await index.graph.neighbors([id])).get(id)!.map((n) => n.edge.id));
    } finally {
      await loaded.close();
    }
  });
});
