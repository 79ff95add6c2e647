import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadGraphLines, saveGraphLines } from './graph-lines.js';
import { knowledgeGraphFromMerge } from './knowledge-graph-from-merge.js';
import { mergeExtractions } from './merge-extractions.js';

const dir = await mkdtemp(join(tmpdir(), 'mosaic-graph-lines-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A graph of `n` chunks, each naming three entities and two relations, with shared names. */
function sampleGraph(n: number) {
  const extractions = Array.from({ length: n }, (_, i) => ({
    chunkId: `c${i}`,
    extraction: {
      entities: [
        { name: `entity ${i}`, type: 'THING', description: `the ${i}th "entity"\nwith a newline` },
        { name: `entity ${i + 1}`, type: 'THING', description: 'next' },
        { name: `topic ${i % 7}`, type: 'TOPIC', description: 'shared topic' },
      ],
      relations: [
        { source: `entity ${i}`, target: `entity ${i + 1}`, label: 'precedes', keywords: ['order'], description: `${i} before ${i + 1}` },
        { source: `entity ${i}`, target: `topic ${i % 7}`, label: 'about', keywords: [], description: 'topic' },
      ],
    },
  }));
  return knowledgeGraphFromMerge(mergeExtractions({ extractions }));
}

describe('saveGraphLines / loadGraphLines', () => {
  it.each(['graph.jsonl', 'graph.jsonl.gz'])('round-trips every node, edge, key and attribute, in order (%s)', async (name) => {
    const graph = sampleGraph(500);
    const path = join(dir, name);
    const { bytes } = await saveGraphLines({ graph, path });
    expect(bytes).toBe((await readFile(path)).byteLength);
    expect((await readdir(dir)).filter((f) => f.includes('.tmp-'))).toEqual([]);
    const loaded = await loadGraphLines({ path });
    expect(loaded.export()).toEqual(graph.export());
    if (!name.endsWith('.gz')) expect((await readFile(path, 'utf8')).split('\n').length).toBe(1 + graph.order + graph.size + 1);
    else expect((await readFile(path)).subarray(0, 2).toString('hex')).toBe('1f8b');
  });

  it('refuses a missing file, a wrong header, a malformed line and a truncated file with InputError', async () => {
    await expect(loadGraphLines({ path: join(dir, 'none.jsonl') })).rejects.toMatchObject({ name: 'MosaicInputError' });
    const path = join(dir, 'g.jsonl');
    await saveGraphLines({ graph: sampleGraph(20), path });
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    const cases = [['{"format":"other","version":1,"nodes":0,"edges":0}'], [lines[0]!, '{not json'], lines.slice(0, -1)];
    for (const body of cases) {
      const bad = join(dir, 'bad.jsonl');
      await writeFile(bad, `${body.join('\n')}\n`);
      await expect(loadGraphLines({ path: bad })).rejects.toMatchObject({ name: 'MosaicInputError', source: bad });
    }
    const notGzip = join(dir, 'bad.jsonl.gz');
    await writeFile(notGzip, 'plain text, not gzip\n');
    await expect(loadGraphLines({ path: notGzip })).rejects.toMatchObject({ name: 'MosaicInputError', source: notGzip });
  });
});
