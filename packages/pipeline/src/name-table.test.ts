import { describe, expect, it } from 'vitest';
import type { EntityNode, GraphStore } from '@mosaic/spec';
import { createIndexGraphView, normalizeMention } from './index-graph-view.js';
import { NameTable } from './name-table.js';
import { buildMedicalIndex } from './__fixtures__/medical-index.js';

/** Deterministic pseudo-random names (some repeated, some differing in one letter). */
function names(count: number, seed = 7): string[] {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state;
  };
  const letters = 'abcdefghijklmnopqrstuvwxyz- 0123456789éß';
  const out: string[] = [];
  for (let i = 0; i < count; i += 1) {
    if (i > 0 && next() % 10 === 0) {
      out.push(out[next() % out.length]); // a name given twice
      continue;
    }
    const length = 1 + (next() % 14);
    let name = '';
    for (let k = 0; k < length; k += 1) name += letters[next() % letters.length];
    out.push(name);
  }
  return out;
}

describe('NameTable', () => {
  it('finds what a Map of first labels finds, through growth from a small table', () => {
    const keys = names(20000);
    const table = new NameTable(4);
    const reference = new Map<string, number>();
    keys.forEach((key, label) => {
      table.add(key, label);
      if (!reference.has(key)) reference.set(key, label);
    });
    expect(table.size).toBe(reference.size);
    expect(table.slots).toBeGreaterThanOrEqual(2 * table.size);
    for (const [key, label] of reference) expect(table.find(key)).toBe(label);
    // Keys never added, among them near misses of added ones.
    for (const key of ['', 'zz-never', ...[...reference.keys()].slice(0, 500).map((key) => `${key}!`)])
      if (!reference.has(key)) expect(table.find(key)).toBe(-1);
  });

  it('keeps the first label of a name added twice', () => {
    const table = new NameTable();
    table.add('aspirin', 3);
    table.add('aspirin', 1);
    table.add('ibuprofen', 2);
    expect([table.find('aspirin'), table.find('ibuprofen'), table.size]).toEqual([3, 2, 2]);
  });
});

describe('createIndexGraphView name lookups', () => {
  it('answers only with an entity that has the name: a table entry whose entity lost the name finds nothing', async () => {
    const index = await buildMedicalIndex();
    const graph = index.graph;
    const node = (await graph.getNodes([index.entityIds[0]]))[0] as EntityNode;
    let renamed = false;
    const changing: GraphStore = {
      ...graph,
      nodeCount: graph.nodeCount,
      edgeCount: graph.edgeCount,
      neighbors: (ids) => graph.neighbors(ids),
      getEdges: (ids) => graph.getEdges(ids),
      getNodes: (ids) => graph.getNodes(ids),
      // After the table is built, the first entity answers with another name.
      getNodeNames: async (ids) =>
        (await graph.getNodes(ids)).map(({ id, name, aliases }) =>
          renamed && id === node.id ? { id, name: 'something else entirely', aliases: [] } : { id, name, aliases },
        ),
    };
    const view = createIndexGraphView({ index: { ...index, graph: changing } });
    expect(await view.lookup([node.name])).toEqual(new Map([[node.name, node.id]]));
    renamed = true;
    expect(await view.lookup([node.name])).toEqual(new Map());
    expect(normalizeMention(node.name).length).toBeGreaterThan(0);
  });

  it('resolves every entity name of an index to the first entity holding it, as a Map of names would', async () => {
    const index = await buildMedicalIndex();
    const nodes = await index.graph.getNodes(index.entityIds);
    const first = new Map<string, string>();
    const mentions: string[] = [];
    for (const node of nodes) {
      for (const name of [node.name, ...node.aliases]) {
        const key = normalizeMention(name);
        if (key.length > 0 && !first.has(key)) first.set(key, node.id);
        mentions.push(name, ` ${name.toUpperCase()}? `);
      }
    }
    const found = await createIndexGraphView({ index }).lookup(mentions);
    expect(found.size).toBe(new Set(mentions).size);
    for (const [mention, id] of found) expect(id).toBe(first.get(normalizeMention(mention)));
  });
});
