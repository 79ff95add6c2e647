import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GraphologyGraphStore } from './graphology-graph-store.js';
import { loadGraph, saveGraph } from './graph-persistence.js';
import { knowledgeGraphFromMerge } from './knowledge-graph-from-merge.js';
import { mergeExtractions } from './merge-extractions.js';

const dir = await mkdtemp(join(tmpdir(), 'mosaic-graph-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

function sampleGraph() {
  const merged = mergeExtractions({
    extractions: [
      {
        chunkId: 'c1',
        extraction: {
          entities: [
            { name: 'surgery', type: 'TREATMENT', description: 'removes tumours' },
            { name: 'basal cell carcinoma (BCC)', type: 'DISEASE', description: 'skin cancer' },
          ],
          relations: [{ source: 'surgery', target: 'BCC', label: 'treats', keywords: ['treatment'], description: 'surgery treats BCC' }],
        },
      },
    ],
  });
  return knowledgeGraphFromMerge(merged);
}

describe('saveGraph / loadGraph', () => {
  it('round-trips nodes, edges and attributes', async () => {
    const graph = sampleGraph();
    const path = join(dir, 'graph.json');
    const { bytes } = await saveGraph({ graph, path });
    expect(bytes).toBeGreaterThan(0);
    expect((await readdir(dir)).filter((f) => f.includes('.tmp-'))).toEqual([]);
    const loaded = await loadGraph({ path });
    expect(loaded.order).toBe(2);
    expect(loaded.size).toBe(1);
    const store = new GraphologyGraphStore({ graph: loaded });
    const original = new GraphologyGraphStore({ graph });
    const ids = loaded.nodes();
    expect(await store.getNodes(ids)).toEqual(await original.getNodes(ids));
    const [edge] = await store.getEdges(loaded.edges());
    expect(edge).toMatchObject({ label: 'treats', weight: 1, chunkIds: ['c1'], keywords: ['treatment'] });
    expect((await store.getNodes([edge.target]))[0].aliases).toContain('BCC');
  });

  it('throws InputError for a missing file, invalid JSON and a foreign format', async () => {
    await expect(loadGraph({ path: join(dir, 'missing.json') })).rejects.toMatchObject({ name: 'MosaicInputError' });
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{not json');
    await expect(loadGraph({ path: bad })).rejects.toMatchObject({ name: 'MosaicInputError', source: bad });
    const foreign = join(dir, 'foreign.json');
    await writeFile(foreign, JSON.stringify({ nodes: [] }));
    await expect(loadGraph({ path: foreign })).rejects.toMatchObject({ name: 'MosaicInputError' });
  });
});
