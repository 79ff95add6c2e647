import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { InvalidArgumentError, type EntityNode, type SentenceTokens } from '@mosaic/spec';
import { forEachPassageChunk } from '@mosaic/stage-utils/internal';
import { afterAll, describe, expect, it } from 'vitest';
import { type CompactGraphStore, decodeGraphBinary, encodeGraphBinary, loadGraphBinary, saveGraphBinary } from './graph-binary.js';
import { runGraphStoreConformance } from './graph-store-conformance.js';
import { GraphologyGraphStore, createKnowledgeGraph, type KnowledgeGraph } from './graphology-graph-store.js';
import { knowledgeGraphFromMerge } from './knowledge-graph-from-merge.js';
import { mergeExtractions } from './merge-extractions.js';

const dir = await mkdtemp(join(tmpdir(), 'mosaic-graph-binary-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A merged graph of `n` chunks with spans, weights, aliases, keywords, shared names and non-ASCII text. */
function sampleGraph(n: number): KnowledgeGraph {
  const extractions = Array.from({ length: n }, (_, i) => ({
    chunkId: `c${i}`,
    extraction: {
      entities: [
        { name: `entity ${i}`, type: 'THING', description: `the ${i}th "entity"\nwith a newline, é and 𝄞`, spans: [{ start: 0, end: 10 + (i % 5) }] },
        { name: `entity ${i + 1}`, type: 'THING', description: 'next', questionLike: i % 3 === 0 },
        { name: `topic ${i % 7}`, type: 'TOPIC', description: 'shared topic' },
      ],
      relations: [
        {
          source: `entity ${i}`,
          target: `entity ${i + 1}`,
          label: 'precedes',
          keywords: ['order', 'before'],
          description: `${i} before ${i + 1}`,
          spans: [{ start: 2, end: 9 }],
        },
        { source: `entity ${i}`, target: `topic ${i % 7}`, label: 'about', keywords: [], description: 'topic' },
      ],
    },
  }));
  return knowledgeGraphFromMerge(mergeExtractions({ extractions }));
}

/** What a store answers for every node, edge and neighbour list, as JSON (field order included). */
async function answers(
  store: { getNodes: CompactGraphStore['getNodes']; getEdges: CompactGraphStore['getEdges']; neighbors: CompactGraphStore['neighbors'] },
  graph: KnowledgeGraph,
) {
  const nodes = graph.nodes();
  const edges = graph.edges();
  return JSON.stringify({
    nodes: await store.getNodes([...nodes, 'missing']),
    edges: await store.getEdges(['missing', ...edges]),
    neighbors: [...(await store.neighbors(nodes)).entries()],
  });
}

runGraphStoreConformance({
  name: 'CompactGraphStore',
  create: async ({ fixture }) => {
    const graph = createKnowledgeGraph();
    for (const { id, ...attributes } of fixture.nodes) graph.addNode(id, attributes);
    for (const { id, source, target, ...attributes } of fixture.edges) graph.addEdgeWithKey(id, source, target, attributes);
    const path = join(dir, 'conformance.bin');
    await saveGraphBinary({ graph, path });
    return loadGraphBinary({ path });
  },
});

describe('saveGraphBinary / loadGraphBinary', () => {
  it.each(['graph.bin', 'graph.bin.gz'])('answers exactly as GraphologyGraphStore over the saved graph (%s)', async (name) => {
    const graph = sampleGraph(300);
    const path = join(dir, name);
    const { bytes } = await saveGraphBinary({ graph, path });
    expect(bytes).toBe((await readFile(path)).byteLength);
    expect((await readdir(dir)).filter((f) => f.includes('.tmp-'))).toEqual([]);
    const store = await loadGraphBinary({ path });
    const reference = new GraphologyGraphStore({ graph });
    expect(store.nodeCount).toBe(graph.order);
    expect(store.edgeCount).toBe(graph.size);
    expect(store.hubDegree).toBe(reference.hubDegree);
    expect(store.maxDegree).toBe(reference.maxDegree);
    expect(await answers(store, graph)).toBe(await answers(reference, graph));
    // getNodeNames: what getNodes gives for id, name and aliases.
    const ids = [...graph.nodes().slice(0, 40), 'missing'];
    expect(await store.getNodeNames(ids)).toEqual((await reference.getNodes(ids)).map(({ id, name, aliases }) => ({ id, name, aliases })));
    // ownNodeId: the same id for every node held, undefined for another.
    expect(ids.map((id) => store.ownNodeId(id))).toEqual([...ids.slice(0, 40), undefined]);
    // getNodeSummaries: every field of getNodes but the provenance lists, in the same order.
    const summaries = await store.getNodeSummaries(ids);
    const whole = await reference.getNodes(ids);
    expect(whole.some((node) => node.chunkIds.length > 0 && (node.spans?.length ?? 0) > 0)).toBe(true);
    expect(summaries.map((node) => JSON.stringify(node))).toEqual(whole.map(({ chunkIds: _c, spans: _s, ...rest }) => JSON.stringify(rest)));
    // Optional fields stay absent where the graph has none, and appear where it has them.
    const plainId = graph.edges().find((e) => graph.getEdgeAttribute(e, 'spans') === undefined);
    const spannedId = graph.edges().find((e) => graph.getEdgeAttribute(e, 'spans') !== undefined);
    expect(plainId && spannedId).toBeTruthy();
    const [plain, spanned] = await store.getEdges([plainId!, spannedId!]);
    expect(plain).not.toHaveProperty('spans');
    expect(spanned!.spans!.length).toBeGreaterThan(0);
    // Enumeration gives every node and edge with its attributes, in graph order.
    const enumerated: string[] = [];
    store.forEachNode((id, attributes) => enumerated.push(JSON.stringify([id, attributes])));
    store.forEachEdge((id, attributes, source, target) => enumerated.push(JSON.stringify([id, source, target, attributes])));
    const expected: string[] = [];
    graph.forEachNode((id, attributes) => expected.push(JSON.stringify([id, attributes])));
    graph.forEachEdge((id, attributes, source, target) => expected.push(JSON.stringify([id, source, target, attributes])));
    expect(enumerated).toEqual(expected);
    if (name.endsWith('.gz')) expect((await readFile(path)).subarray(0, 2).toString('hex')).toBe('1f8b');
  });

  it('keeps its neighbour-list cache within neighborCacheSize neighbours, with the same answers', async () => {
    const graph = sampleGraph(300);
    const path = join(dir, 'cache.bin');
    await saveGraphBinary({ graph, path });
    const unbounded = await loadGraphBinary({ path, neighborCacheSize: Number.POSITIVE_INFINITY });
    const bounded = await loadGraphBinary({ path, neighborCacheSize: 40 });
    const nodes = graph.nodes();
    // Twice over every node (the second pass rebuilds what was dropped), one node at a time.
    for (const round of [0, 1]) {
      for (const id of nodes) {
        const [a, b] = [await unbounded.neighbors([id]), await bounded.neighbors([id])];
        expect(JSON.stringify([...b]), `${id}, round ${round}`).toBe(JSON.stringify([...a]));
        const held = bounded.neighborCache;
        // Within the bound, unless the one list just made exceeds it alone.
        expect(held.neighbors <= 40 || held.lists === 1).toBe(true);
      }
    }
    const all = nodes.reduce((total, id) => total + graph.degree(id), 0);
    expect(unbounded.neighborCache).toEqual({ lists: nodes.length, neighbors: all });
    expect(bounded.neighborCache.neighbors).toBeLessThan(all);
    // The least recently used list goes first: a list asked for again stays (the same array comes back).
    const [a, b, c] = [...nodes].filter((id) => graph.degree(id) > 0).sort((x, y) => graph.degree(y) - graph.degree(x) || (x < y ? -1 : 1));
    const small = await loadGraphBinary({ path, neighborCacheSize: graph.degree(a!) + graph.degree(b!) });
    const listOf = async (id: string) => (await small.neighbors([id])).get(id)!;
    const firstA = await listOf(a!);
    const firstB = await listOf(b!);
    expect(await listOf(a!)).toBe(firstA);
    await listOf(c!); // degree(c) ≤ degree(b): dropping b, the least recently used, makes room
    expect(small.neighborCache).toEqual({ lists: 2, neighbors: graph.degree(a!) + graph.degree(c!) });
    expect(await listOf(a!)).toBe(firstA);
    const againB = await listOf(b!);
    expect(againB).not.toBe(firstB);
    expect(againB).toEqual(firstB);
  });

  it('keeps built hub nodes within hubNodeCacheSize chunk ids and spans, with the same answers', async () => {
    const graph = sampleGraph(300);
    const path = join(dir, 'hub-cache.bin');
    await saveGraphBinary({ graph, path });
    const uncached = await loadGraphBinary({ path, hubNodeCacheSize: 0 });
    const cached = await loadGraphBinary({ path, hubNodeCacheSize: 60 });
    const nodes = graph.nodes();
    const hubs = nodes.filter((id) => graph.degree(id) >= cached.hubDegree);
    expect(hubs.length).toBeGreaterThan(1);
    const weight = (node: EntityNode) => 1 + node.chunkIds.length + (node.spans?.length ?? 0);
    for (const round of [0, 1]) {
      for (const id of nodes) {
        expect(JSON.stringify(await cached.getNodes([id])), `${id}, round ${round}`).toBe(JSON.stringify(await uncached.getNodes([id])));
        expect(cached.hubNodeCache.items).toBeLessThanOrEqual(60);
      }
    }
    expect(uncached.hubNodeCache).toEqual({ nodes: 0, items: 0 });
    // Only hubs are kept, and a kept hub comes back as the same object until it is dropped.
    const [hub] = hubs;
    const [first] = await cached.getNodes([hub!]);
    const [again] = await cached.getNodes([hub!]);
    expect(again).toBe(first);
    expect(cached.hubNodeCache.nodes).toBeGreaterThan(0);
    const [leaf] = nodes.filter((id) => graph.degree(id) < cached.hubDegree);
    const [leafA] = await cached.getNodes([leaf!]);
    const [leafB] = await cached.getNodes([leaf!]);
    expect(leafB).not.toBe(leafA);
    expect(leafB).toEqual(leafA);
    expect(cached.hubNodeCache.items).toBeGreaterThanOrEqual(weight(first!));
  });

  it('is deterministic and stores each shared string once', async () => {
    const a = Buffer.concat(encodeGraphBinary(sampleGraph(50)));
    const b = Buffer.concat(encodeGraphBinary(sampleGraph(50)));
    expect(a.equals(b)).toBe(true);
    // 'precedes' labels 50 edges: one copy in the heap.
    expect(a.toString('latin1').match(/precedes/g)?.length).toBe(1);
  });

  it('reads an empty graph', async () => {
    const store = decodeGraphBinary(Buffer.concat(encodeGraphBinary(createKnowledgeGraph())), { source: 'empty' });
    expect([store.nodeCount, store.edgeCount, store.maxDegree, store.hubDegree]).toEqual([0, 0, 0, 3]);
  });

  it('refuses an attribute the layout cannot hold, naming the node or edge', () => {
    const graph = createKnowledgeGraph();
    graph.addNode('a', { name: 'a', aliases: [], type: 'T', description: '', chunkIds: [], questionLike: false, colour: 'red' } as never);
    expect(() => encodeGraphBinary(graph)).toThrow(/node a: unknown attribute colour/);
    const other = createKnowledgeGraph();
    other.addNode('a', { name: 'a', aliases: [], type: 'T', description: '', chunkIds: [], questionLike: false });
    other.addNode('b', { name: 'b', aliases: [], type: 'T', description: '', chunkIds: [], questionLike: false });
    other.addEdgeWithKey('r', 'a', 'b', { label: 'x', keywords: [], description: '', chunkIds: [], spans: [{ chunkId: 'c', start: -1, end: 2 }] });
    expect(() => encodeGraphBinary(other)).toThrow(/edge r: spans.start is not an integer/);
  });

  it('refuses a missing file, not gzip, a truncated file, another format or version, and numbers out of range with InputError naming the file', async () => {
    await expect(loadGraphBinary({ path: join(dir, 'none.bin.gz') })).rejects.toMatchObject({ name: 'MosaicInputError', source: join(dir, 'none.bin.gz') });
    const path = join(dir, 'g.bin.gz');
    await saveGraphBinary({ graph: sampleGraph(40), path });
    const gz = await readFile(path);
    const raw = gunzipSync(gz);
    const bad = join(dir, 'bad.bin.gz');
    const refuse = async (bytes: Uint8Array, message: RegExp) => {
      await writeFile(bad, bytes);
      const error = await loadGraphBinary({ path: bad }).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'MosaicInputError', source: bad });
      expect(String((error as Error).message)).toMatch(message);
    };
    await refuse(Buffer.from('plain text, not gzip'), /not a complete gzip file/);
    await refuse(gz.subarray(0, gz.length - 100), /not a complete gzip file/);
    await refuse(gzipSync(raw.subarray(0, raw.length - 64)), /truncated in section|offsets/);
    await refuse(gzipSync(Buffer.concat([Buffer.from('NOTAGRPH'), raw.subarray(8)])), /does not start with MOSAICKG/);
    const headerLength = raw.readUInt32LE(8);
    const header = JSON.parse(raw.toString('utf8', 12, 12 + headerLength));
    const withHeader = (changed: object) => {
      const text = Buffer.from(JSON.stringify(changed));
      // Same length keeps the sections where they were: pad the JSON with spaces.
      expect(text.length).toBeLessThanOrEqual(headerLength);
      const copy = Buffer.from(raw);
      copy.fill(0x20, 12, 12 + headerLength);
      text.copy(copy, 12);
      return gzipSync(copy);
    };
    await refuse(withHeader({ ...header, version: 9 }), /version 9/);
    await refuse(withHeader({ ...header, format: 'other' }), /unknown format/);
    // An edge naming a node past the last one.
    const ends = sectionOffset(raw, 'edgeEnds');
    const broken = Buffer.from(raw);
    broken.writeUInt32LE(1_000_000, ends);
    await refuse(gzipSync(broken), /names node 1000000/);
    // A string number past the table.
    const strings = sectionOffset(raw, 'nodeStrings');
    const broken2 = Buffer.from(raw);
    broken2.writeUInt32LE(0xfffffff0, strings + 4);
    await refuse(gzipSync(broken2), /nodeStrings names string/);
  });
});

/** Byte offset of a section in an uncompressed binary graph file. */
function sectionOffset(raw: Buffer, name: string): number {
  const headerLength = raw.readUInt32LE(8);
  const header = JSON.parse(raw.toString('utf8', 12, 12 + headerLength)) as { sections: { name: string; type: string; length: number }[] };
  const size = { u8: 1, u32: 4, f64: 8 } as Record<string, number>;
  let at = 12 + headerLength;
  at += (8 - (at % 8)) % 8;
  for (const section of header.sections) {
    if (section.name === name) return at;
    const bytes = section.length * size[section.type]!;
    at += bytes + ((8 - (bytes % 8)) % 8);
  }
  throw new Error(`no section ${name}`);
}

describe('CompactGraphStore.numberedEdges', () => {
  /** The sample graph, plus a relation stated in 11 sentences (more than a passage reads) and one with an empty span list. */
  function graphWithLoopAndLongEdge(): KnowledgeGraph {
    const graph = sampleGraph(60);
    const hub = graph.nodes().find((id) => graph.getNodeAttribute(id, 'name') === 'topic 3')!;
    const other = graph.nodes().find((id) => graph.getNodeAttribute(id, 'name') === 'entity 5')!;
    const spans = Array.from({ length: 11 }, (_, i) => ({ chunkId: i === 4 ? 'not-a-chunk' : `c${(i * 7) % 60}`, start: i, end: i + 5 }));
    graph.addEdgeWithKey('r-long', hub, other, { label: 'long', keywords: ['k'], description: 'd', chunkIds: ['c1', 'c2'], spans });
    graph.addEdgeWithKey('r-empty', other, hub, { label: 'no spans', keywords: [], description: 'd', chunkIds: ['c9', 'missing-chunk', 'c8'], spans: [] });
    return graph;
  }

  it('lists the edges of neighbors(id), builds the same entries, and numbers ids both ways', async () => {
    const graph = graphWithLoopAndLongEdge();
    const store = decodeGraphBinary(Buffer.concat(encodeGraphBinary(graph)), { source: 'test' });
    const view = store.numberedEdges;
    const nodes = graph.nodes();
    const lists = await store.neighbors([...nodes, 'missing']);
    for (const id of nodes) {
      const edges = view.incidentEdges(id)!;
      const list = lists.get(id)!;
      expect(edges.length).toBe(list.length);
      // The same edges and the same entry for each.
      const byId = [...edges].map((edge) => view.neighbor(id, edge)).sort((a, b) => (a.edge.id < b.edge.id ? -1 : a.edge.id > b.edge.id ? 1 : 0));
      expect(byId).toEqual(list);
      for (const edge of edges) expect(view.edgeNumber(view.edgeId(edge))).toBe(edge);
    }
    expect(view.incidentEdges('missing')).toBeUndefined();
    expect(view.edgeNumber('missing')).toBeUndefined();
    for (let edge = 0; edge < store.edgeCount; edge += 1) expect(view.edgeNumber(view.edgeId(edge))).toBe(edge);
    // edgeNumbers is the same numbering as a map: every edge id, nothing else.
    expect(store.edgeNumbers.size).toBe(store.edgeCount);
    for (const [id, edge] of store.edgeNumbers) expect(view.edgeId(edge)).toBe(id);
  });

  it('gives the chunks forEachPassageChunk reads, as numbers of the numbering asked for', async () => {
    const graph = graphWithLoopAndLongEdge();
    const store = decodeGraphBinary(Buffer.concat(encodeGraphBinary(graph)), { source: 'test' });
    const view = store.numberedEdges;
    // Numbered in reverse, so numbers are not string or chunk order; c0 is left out (−1).
    const numbering = new Map(Array.from({ length: 59 }, (_, i) => [`c${59 - i}`, i]));
    const all = Uint32Array.from({ length: store.edgeCount }, (_, k) => k);
    for (const spanLimit of [8, 3]) {
      const { start, chunks } = view.passageChunks(all, spanLimit, numbering);
      expect(start.length).toBe(store.edgeCount + 1);
      const edges = await store.getEdges([...all].map((edge) => view.edgeId(edge)));
      let spanned = 0;
      let unspanned = 0;
      edges.forEach((edge, k) => {
        const expected: number[] = [];
        const spans = edge.spans && edge.spans.length > 0 ? edge.spans.slice(0, spanLimit) : undefined;
        if (spans) {
          spanned += 1;
          for (const span of spans) expected.push(numbering.get(span.chunkId) ?? -1);
        } else {
          unspanned += 1;
          for (const chunkId of edge.chunkIds) expected.push(numbering.get(chunkId) ?? -1);
        }
        expect([...chunks.subarray(start[k], start[k + 1])]).toEqual(expected);
        if (spanLimit === 8) {
          const rule: number[] = [];
          forEachPassageChunk(edge, (chunkId) => rule.push(numbering.get(chunkId) ?? -1));
          expect(expected).toEqual(rule);
        }
      });
      expect(spanned).toBeGreaterThan(0);
      expect(unspanned).toBeGreaterThan(0);
    }
    const long = view.edgeNumber('r-long')!;
    const { chunks } = view.passageChunks(Uint32Array.of(long, long), 8, numbering);
    expect(chunks.length).toBe(16);
    expect(chunks[4]).toBe(-1);
    // Another numbering gets its own numbers.
    const other = new Map([['c7', 100]]);
    expect([...view.passageChunks(Uint32Array.of(long), 2, other).chunks]).toEqual([-1, 100]);
  });

  it("numbers every node's and edge's span chunks as their spans name them (spanChunkNumbers)", async () => {
    const graph = graphWithLoopAndLongEdge();
    const store = decodeGraphBinary(Buffer.concat(encodeGraphBinary(graph)), { source: 'test' });
    // Numbered in reverse, c0 left out (−1); r-long names a chunk no numbering holds.
    const numbering = new Map(Array.from({ length: 59 }, (_, i) => [`c${59 - i}`, i]));
    const expectedOf = (spans: readonly { chunkId: string }[] | undefined) => (spans ?? []).map((span) => numbering.get(span.chunkId) ?? -1);
    let spanned = 0;
    for (const node of await store.getNodes(graph.nodes())) {
      expect([...store.spanChunkNumbers('node', node.id, numbering)!]).toEqual(expectedOf(node.spans));
      if ((node.spans?.length ?? 0) > 0) spanned += 1;
    }
    for (const edge of await store.getEdges(graph.edges())) {
      expect([...store.spanChunkNumbers('edge', edge.id, numbering)!]).toEqual(expectedOf(edge.spans));
      if ((edge.spans?.length ?? 0) > 0) spanned += 1;
    }
    expect(spanned).toBeGreaterThan(60);
    expect([...store.spanChunkNumbers('edge', 'r-long', numbering)!]).toContain(-1);
    expect(store.spanChunkNumbers('edge', 'r-empty', numbering)!.length).toBe(0);
    // Another numbering gets its own numbers; unknown ids none; an unknown kind is refused.
    expect([...store.spanChunkNumbers('edge', 'r-long', new Map([['c7', 100]]))!].slice(0, 3)).toEqual([-1, 100, -1]);
    expect(store.spanChunkNumbers('node', 'missing', numbering)).toBeUndefined();
    expect(store.spanChunkNumbers('edge', graph.nodes()[0], numbering)).toBeUndefined();
    expect(() => store.spanChunkNumbers('chunk' as 'node', 'r-long', numbering)).toThrow(/kind/);
  });

  it("gives every node's and edge's spans as columns (spanColumns) with their sentence numbers, and nodes without spans when asked", async () => {
    const graph = graphWithLoopAndLongEdge();
    const store = decodeGraphBinary(Buffer.concat(encodeGraphBinary(graph)), { source: 'test' });
    // A sentence table holding some of the spans (numbered as listed), with and without chunk numbers.
    const held = new Map<string, number>();
    const chunkNumbers = new Map<string, number>();
    graph.forEachEdge((_, attributes) => {
      for (const [i, span] of ((attributes.spans ?? []) as { chunkId: string; start: number; end: number }[]).entries()) {
        if (i % 3 !== 1) held.set(`${span.chunkId}|${span.start}|${span.end}`, held.size);
        if (!chunkNumbers.has(span.chunkId) && span.chunkId !== 'c7') chunkNumbers.set(span.chunkId, chunkNumbers.size);
      }
    });
    graph.forEachNode((_, attributes) => {
      for (const span of (attributes.spans ?? []) as { chunkId: string; start: number; end: number }[]) {
        held.set(`${span.chunkId}|${span.start}|${span.end}`, held.size);
        if (!chunkNumbers.has(span.chunkId)) chunkNumbers.set(span.chunkId, chunkNumbers.size);
      }
    });
    const base = { tokenizer: 't', vocabulary: [], tokenStart: new Int32Array(1), tokens: new Int32Array(0) };
    const sentence = (chunkId: string, start: number, end: number) => (chunkNumbers.has(chunkId) ? (held.get(`${chunkId}|${start}|${end}`) ?? -1) : -1);
    const chunkIdOf = new Map([...chunkNumbers].map(([id, number]) => [number, id]));
    const byId: SentenceTokens = { ...base, sentence };
    const byNumber: SentenceTokens = {
      ...base,
      sentence,
      chunkNumber: (chunkId) => chunkNumbers.get(chunkId),
      sentenceInChunk: (chunk, start, end) => (chunkIdOf.has(chunk) ? sentence(chunkIdOf.get(chunk)!, start, end) : -1),
    };
    let spanned = 0;
    let unheld = 0;
    const check = (kind: 'node' | 'edge', id: string, spans: readonly { chunkId: string; start: number; end: number }[] | undefined) => {
      const columns = store.spanColumns(kind, id)!;
      const list = spans ?? [];
      expect(columns.count).toBe(list.length);
      expect(Array.from({ length: columns.count }, (_, i) => ({ chunkId: columns.chunkId(i), start: columns.start(i), end: columns.end(i) }))).toEqual(list);
      const expected = list.map((span) => sentence(span.chunkId, span.start, span.end));
      for (const table of [byNumber, byId]) expect([...columns.sentenceNumbers!(table)]).toEqual(expected);
      if (list.length > 0) spanned += 1;
      unheld += expected.filter((number) => number < 0).length;
    };
    for (const node of await store.getNodes(graph.nodes())) check('node', node.id, node.spans);
    for (const edge of await store.getEdges(graph.edges())) check('edge', edge.id, edge.spans);
    expect(spanned).toBeGreaterThan(60);
    expect(unheld).toBeGreaterThan(3);
    // Read in place: the same array for every node of one table.
    const [a, b] = graph.nodes().map((id) => store.spanColumns('node', id)!.sentenceNumbers!(byNumber));
    expect(a.buffer).toBe(b.buffer);
    // Unknown ids none; an unknown kind, or a span out of range, is refused.
    expect(store.spanColumns('node', 'missing')).toBeUndefined();
    expect(store.spanColumns('edge', graph.nodes()[0])).toBeUndefined();
    expect(() => store.spanColumns('chunk' as 'node', 'r-long')).toThrow(/kind/);
    const long = store.spanColumns('edge', 'r-long')!;
    for (const i of [-1, 11, 0.5]) expect(() => long.start(i)).toThrow(RangeError);
    // getNodes with { spans: false }: every other field as getNodes gives it, in the same order.
    const ids = [...graph.nodes(), 'missing'];
    const whole = await store.getNodes(ids);
    expect(whole.some((node) => (node.spans?.length ?? 0) > 0)).toBe(true);
    expect((await store.getNodes(ids, { spans: false })).map((node) => JSON.stringify(node))).toEqual(
      whole.map(({ spans: _s, ...rest }) => JSON.stringify(rest)),
    );
    expect(await store.getNodes(ids, { spans: true })).toEqual(whole);
  });

  it('refuses an edge number out of range and an edge the node does not have, naming them', () => {
    const graph = graphWithLoopAndLongEdge();
    const store = decodeGraphBinary(Buffer.concat(encodeGraphBinary(graph)), { source: 'test' });
    const view = store.numberedEdges;
    const long = view.edgeNumber('r-long')!;
    const ends = graph.extremities('r-long');
    const far = graph.nodes().find((id) => !ends.includes(id))!;
    expect(() => view.edgeId(store.edgeCount)).toThrow(InvalidArgumentError);
    expect(() => view.edgeId(-1)).toThrow(/no edge number -1/);
    expect(() => view.passageChunks(Uint32Array.of(store.edgeCount), 8, new Map())).toThrow(InvalidArgumentError);
    expect(() => view.passageChunks(Uint32Array.of(long), 0, new Map())).toThrow(/spanLimit/);
    expect(() => view.neighbor(far, long)).toThrow(/r-long is not incident/);
    expect(() => view.neighbor('missing', long)).toThrow(/no node "missing"/);
    expect(view.neighbor(ends[0], long).node).toBe(ends[1]);
  });
});
