import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip, gunzip } from 'node:zlib';
import { InputError, InvalidArgumentError } from '@mosaic/spec';
import type {
  EdgePassage,
  EntityNode,
  GetNodesOptions,
  GraphStore,
  Neighbor,
  NodeNames,
  NodeSummary,
  NumberedEdgeView,
  RelationEdge,
  SentenceTokens,
  SpanColumns,
  TextSpan,
} from '@mosaic/spec';
import type { EntityAttributes, KnowledgeGraph, RelationAttributes } from './graphology-graph-store.js';
import { doubled, WeightedLru } from '@mosaic/stage-utils/internal';

const gunzipAsync = promisify(gunzip);

/** Format tag in the header of a binary graph file. */
export const GRAPH_BINARY_FORMAT = 'mosaic-knowledge-graph-binary';
export const GRAPH_BINARY_VERSION = 1;
const MAGIC = 'MOSAICKG';
/** Neighbours the neighbour-list cache of a CompactGraphStore holds by default. */
const DEFAULT_NEIGHBOR_CACHE = 250_000;
/** Chunk ids and spans the hub-node cache of a CompactGraphStore holds by default. */
const DEFAULT_HUB_NODE_CACHE = 250_000;

/** Element type of a section. */
type SectionType = 'u8' | 'u32' | 'f64';
const ELEMENT_BYTES: Record<SectionType, number> = { u8: 1, u32: 4, f64: 8 };

/**
 * The sections of a binary graph file, in file order. Strings are stored once (ids, names, types,
 * labels, keywords, chunk ids deduplicated; descriptions as they come) in `heap`, UTF-8, and
 * referred to by number; `strings` holds their `count + 1` byte offsets. Per node: `nodeStrings`
 * (column after column: id, name, type, description), `nodeFlags` (bit 0 questionLike present,
 * bit 1 its value, bit 2 spans present) and three lists (aliases, chunk ids, spans) as `count + 1`
 * offsets each in `nodeLists` into `nodeAliases`, `nodeChunks` and `nodeSpans` (a span is three
 * numbers: chunk id string, start, end). Per edge likewise: `edgeStrings` (id, label,
 * description), `edgeEnds` (source and target as node numbers, column after column),
 * `edgeFlags` (bit 0 weight present, bit 2 spans present), `edgeWeights`, and the lists keywords,
 * chunk ids and spans.
 */
const SECTIONS = [
  ['heap', 'u8'],
  ['strings', 'u32'],
  ['nodeStrings', 'u32'],
  ['nodeFlags', 'u8'],
  ['nodeLists', 'u32'],
  ['nodeAliases', 'u32'],
  ['nodeChunks', 'u32'],
  ['nodeSpans', 'u32'],
  ['edgeStrings', 'u32'],
  ['edgeEnds', 'u32'],
  ['edgeFlags', 'u8'],
  ['edgeWeights', 'f64'],
  ['edgeLists', 'u32'],
  ['edgeKeywords', 'u32'],
  ['edgeChunks', 'u32'],
  ['edgeSpans', 'u32'],
] as const satisfies readonly (readonly [string, SectionType])[];

type SectionName = (typeof SECTIONS)[number][0];

/** The header of a binary graph file (JSON, after the magic and its length). */
export interface GraphBinaryHeader {
  format: typeof GRAPH_BINARY_FORMAT;
  version: number;
  nodes: number;
  edges: number;
  /** Element count of every section, in file order. */
  sections: { name: string; type: SectionType; length: number }[];
}

const QUESTION_LIKE_PRESENT = 1;
const QUESTION_LIKE = 2;
const SPANS_PRESENT = 4;
const WEIGHT_PRESENT = 1;

const ENTITY_KEYS = new Set(['name', 'aliases', 'type', 'description', 'chunkIds', 'questionLike', 'spans']);
const RELATION_KEYS = new Set(['label', 'keywords', 'description', 'chunkIds', 'weight', 'spans']);

const pad8 = (n: number) => (8 - (n % 8)) % 8;

export interface SaveGraphBinaryOptions {
  graph: KnowledgeGraph;
  path: string;
}

/**
 * Write the graph in the binary layout read by `loadGraphBinary` (columns of numbers and one
 * string heap; see the format in graph-binary.ts), streamed in parts: no string or buffer holds
 * the whole graph. A path ending in `.gz` is gzip-compressed on the way. Atomic: a temporary
 * sibling renamed into place. An attribute the layout does not hold (another key, a value of
 * another type) → InvalidArgumentError naming the node or edge.
 */
export async function saveGraphBinary(options: SaveGraphBinaryOptions): Promise<{ path: string; bytes: number }> {
  const parts = encodeGraphBinary(options.graph);
  const temporary = `${options.path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const file = createWriteStream(temporary);
  try {
    const source = (async function* () {
      for (const part of parts) {
        // Slices of at most 16 MiB: gzip copies what it is given.
        for (let at = 0; at < part.length; at += 1 << 24) yield part.subarray(at, Math.min(part.length, at + (1 << 24)));
      }
    })();
    if (options.path.endsWith('.gz')) await pipeline(source, createGzip({ level: 6 }), file as Writable);
    else await pipeline(source, file as Writable);
    await rename(temporary, options.path);
  } catch (error) {
    file.destroy();
    await rm(temporary, { force: true });
    throw error;
  }
  return { path: options.path, bytes: file.bytesWritten };
}

/** A growing column of unsigned 32-bit numbers. */
class U32Column {
  #values = new Uint32Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.#values.length) {
      const grown = new Uint32Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.length++] = value;
  }
  get values(): Uint32Array {
    return this.#values.subarray(0, this.length);
  }
}

/** The file's parts (header, then every section padded to 8 bytes), built from `graph`. */
export function encodeGraphBinary(graph: KnowledgeGraph): Uint8Array[] {
  const n = graph.order;
  const m = graph.size;
  const strings: string[] = [];
  const stringIndex = new Map<string, number>();
  const shared = (value: string): number => {
    let index = stringIndex.get(value);
    if (index === undefined) {
      index = strings.length;
      strings.push(value);
      stringIndex.set(value, index);
    }
    return index;
  };
  const unique = (value: string): number => {
    strings.push(value);
    return strings.length - 1;
  };
  const fail = (what: string, message: string): never => {
    throw new InvalidArgumentError({ argument: 'graph', message: `${what}: ${message}; the binary graph layout cannot hold it` });
  };
  const text = (what: string, key: string, value: unknown): string =>
    typeof value === 'string' ? value : fail(what, `${key} is ${typeof value}, not a string`);
  const texts = (what: string, key: string, value: unknown): string[] =>
    Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : fail(what, `${key} is not an array of strings`);
  const u32 = (what: string, key: string, value: unknown): number =>
    Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 0xffffffff
      ? (value as number)
      : fail(what, `${key} is not an integer in 0…2^32−1`);
  const spansOf = (what: string, value: unknown, into: U32Column): void => {
    if (!Array.isArray(value)) fail(what, 'spans is not an array');
    for (const span of value as unknown[]) {
      const s = span as Partial<TextSpan> | null;
      if (typeof s !== 'object' || s === null || Object.keys(s).some((k) => k !== 'chunkId' && k !== 'start' && k !== 'end'))
        fail(what, 'a span is not { chunkId, start, end }');
      into.push(shared(text(what, 'spans.chunkId', s!.chunkId)));
      into.push(u32(what, 'spans.start', s!.start));
      into.push(u32(what, 'spans.end', s!.end));
    }
  };

  const nodeNumber = new Map<string, number>();
  const nodeStrings = new Uint32Array(4 * n);
  const nodeFlags = new Uint8Array(n);
  const nodeLists = new Uint32Array(3 * (n + 1));
  const nodeAliases = new U32Column();
  const nodeChunks = new U32Column();
  const nodeSpans = new U32Column();
  let i = 0;
  for (const { node, attributes } of graph.nodeEntries()) {
    const what = `node ${node}`;
    const a = attributes as Partial<EntityAttributes> & Record<string, unknown>;
    for (const key of Object.keys(a)) if (!ENTITY_KEYS.has(key) && a[key] !== undefined) fail(what, `unknown attribute ${key}`);
    nodeNumber.set(node, i);
    nodeStrings[i] = shared(node);
    nodeStrings[n + i] = shared(text(what, 'name', a.name));
    nodeStrings[2 * n + i] = shared(text(what, 'type', a.type));
    nodeStrings[3 * n + i] = unique(text(what, 'description', a.description));
    for (const alias of texts(what, 'aliases', a.aliases)) nodeAliases.push(shared(alias));
    for (const chunk of texts(what, 'chunkIds', a.chunkIds)) nodeChunks.push(shared(chunk));
    let flags = 0;
    if (a.questionLike !== undefined) {
      if (typeof a.questionLike !== 'boolean') fail(what, 'questionLike is not a boolean');
      flags |= QUESTION_LIKE_PRESENT | (a.questionLike ? QUESTION_LIKE : 0);
    }
    if (a.spans !== undefined) {
      flags |= SPANS_PRESENT;
      spansOf(what, a.spans, nodeSpans);
    }
    nodeFlags[i] = flags;
    i += 1;
    nodeLists[i] = nodeAliases.length;
    nodeLists[n + 1 + i] = nodeChunks.length;
    nodeLists[2 * (n + 1) + i] = nodeSpans.length / 3;
  }

  const edgeStrings = new Uint32Array(3 * m);
  const edgeEnds = new Uint32Array(2 * m);
  const edgeFlags = new Uint8Array(m);
  const edgeWeights = new Float64Array(m);
  const edgeLists = new Uint32Array(3 * (m + 1));
  const edgeKeywords = new U32Column();
  const edgeChunks = new U32Column();
  const edgeSpans = new U32Column();
  let j = 0;
  for (const { edge, attributes, source, target } of graph.edgeEntries()) {
    const what = `edge ${edge}`;
    const a = attributes as Partial<RelationAttributes> & Record<string, unknown>;
    for (const key of Object.keys(a)) if (!RELATION_KEYS.has(key) && a[key] !== undefined) fail(what, `unknown attribute ${key}`);
    edgeStrings[j] = shared(edge);
    edgeStrings[m + j] = shared(text(what, 'label', a.label));
    edgeStrings[2 * m + j] = unique(text(what, 'description', a.description));
    edgeEnds[j] = nodeNumber.get(source)!;
    edgeEnds[m + j] = nodeNumber.get(target)!;
    for (const keyword of texts(what, 'keywords', a.keywords)) edgeKeywords.push(shared(keyword));
    for (const chunk of texts(what, 'chunkIds', a.chunkIds)) edgeChunks.push(shared(chunk));
    let flags = 0;
    if (a.weight !== undefined) {
      if (typeof a.weight !== 'number') fail(what, 'weight is not a number');
      flags |= WEIGHT_PRESENT;
      edgeWeights[j] = a.weight!;
    }
    if (a.spans !== undefined) {
      flags |= SPANS_PRESENT;
      spansOf(what, a.spans, edgeSpans);
    }
    edgeFlags[j] = flags;
    j += 1;
    edgeLists[j] = edgeKeywords.length;
    edgeLists[m + 1 + j] = edgeChunks.length;
    edgeLists[2 * (m + 1) + j] = edgeSpans.length / 3;
  }
  stringIndex.clear();

  // The string heap, encoded in blocks of 4 MiB (a longer string gets a block of its own).
  const offsets = new Uint32Array(strings.length + 1);
  const heap: Uint8Array[] = [];
  let block = Buffer.allocUnsafe(1 << 22);
  let used = 0;
  let total = 0;
  for (let s = 0; s < strings.length; s += 1) {
    const value = strings[s]!;
    // Worst case 3 bytes per UTF-16 unit.
    if (used + value.length * 3 > block.length) {
      if (used > 0) heap.push(block.subarray(0, used));
      block = Buffer.allocUnsafe(Math.max(1 << 22, value.length * 3));
      used = 0;
    }
    const written = block.write(value, used, 'utf8');
    used += written;
    total += written;
    if (total > 0xffffffff)
      throw new InvalidArgumentError({ argument: 'graph', message: 'its strings pass 4 GiB of UTF-8; the binary graph layout cannot hold them' });
    offsets[s + 1] = total;
  }
  if (used > 0) heap.push(block.subarray(0, used));

  const sections: Record<SectionName, Uint8Array[]> = {
    heap,
    strings: [offsets],
    nodeStrings: [nodeStrings],
    nodeFlags: [nodeFlags],
    nodeLists: [nodeLists],
    nodeAliases: [nodeAliases.values],
    nodeChunks: [nodeChunks.values],
    nodeSpans: [nodeSpans.values],
    edgeStrings: [edgeStrings],
    edgeEnds: [edgeEnds],
    edgeFlags: [edgeFlags],
    edgeWeights: [edgeWeights],
    edgeLists: [edgeLists],
    edgeKeywords: [edgeKeywords.values],
    edgeChunks: [edgeChunks.values],
    edgeSpans: [edgeSpans.values],
  } as unknown as Record<SectionName, Uint8Array[]>;
  const header: GraphBinaryHeader = {
    format: GRAPH_BINARY_FORMAT,
    version: GRAPH_BINARY_VERSION,
    nodes: n,
    edges: m,
    sections: SECTIONS.map(([name, type]) => ({
      name,
      type,
      length: sections[name].reduce((sum, part) => sum + part.byteLength, 0) / ELEMENT_BYTES[type],
    })),
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(12);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(headerBytes.length, 8);
  const out: Uint8Array[] = [prefix, headerBytes, Buffer.alloc(pad8(12 + headerBytes.length))];
  for (const [name] of SECTIONS) {
    let bytes = 0;
    for (const part of sections[name]) {
      out.push(new Uint8Array(part.buffer, part.byteOffset, part.byteLength));
      bytes += part.byteLength;
    }
    out.push(Buffer.alloc(pad8(bytes)));
  }
  checkLittleEndian();
  return out;
}

/** What a cached hub node weighs: its chunk ids and spans (at least 1). */
function hubItems(node: EntityNode): number {
  return 1 + node.chunkIds.length + (node.spans?.length ?? 0);
}

function checkLittleEndian(): void {
  if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) {
    throw new InvalidArgumentError({ argument: 'platform', message: 'the binary graph layout is little-endian; this machine is not' });
  }
}

export interface LoadGraphBinaryOptions {
  path: string;
  /** Bounds the hub threshold as in GraphologyGraphStore (default 0.05). */
  hubShare?: number;
  /**
   * Neighbours (summed over lists) the cache of `neighbors` keeps, least recently used lists dropped
   * first (default 250,000): a long-running server touches more and more of a large graph, and an
   * unbounded cache would end up holding every edge as an object.
   */
  neighborCacheSize?: number;
  /**
   * Chunk ids and spans (summed over nodes) of the hub nodes (degree ≥ `hubDegree`) that `getNodes`
   * keeps built, least recently used dropped first (default 250,000; 0: none). A hub is named by every
   * chunk that mentions it, so building its node is the costly part of a node fetch, and the same hubs
   * are fetched by question after question.
   */
  hubNodeCacheSize?: number;
}

/**
 * Read a graph written by `saveGraphBinary` (gunzipping a `.gz` path) into a CompactGraphStore.
 * Missing file, not gzip, wrong magic, format or version, a truncated file, or numbers that do
 * not fit together (offsets, string and node numbers out of range, duplicate ids) → InputError
 * naming the path.
 */
export async function loadGraphBinary(options: LoadGraphBinaryOptions): Promise<CompactGraphStore> {
  const { path } = options;
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (cause) {
    throw new InputError({ source: path, message: 'graph file cannot be read', cause });
  }
  if (path.endsWith('.gz')) {
    try {
      bytes = await gunzipAsync(bytes);
    } catch (cause) {
      throw new InputError({ source: path, message: `graph file is not a complete gzip file (${(cause as Error).message})`, cause });
    }
  }
  return decodeGraphBinary(bytes, {
    source: path,
    hubShare: options.hubShare,
    neighborCacheSize: options.neighborCacheSize,
    hubNodeCacheSize: options.hubNodeCacheSize,
  });
}

/** The typed columns of a decoded binary graph file (views into one buffer). */
interface GraphColumns {
  heap: Buffer;
  strings: Uint32Array;
  nodeStrings: Uint32Array;
  nodeFlags: Uint8Array;
  nodeLists: Uint32Array;
  nodeAliases: Uint32Array;
  nodeChunks: Uint32Array;
  nodeSpans: Uint32Array;
  edgeStrings: Uint32Array;
  edgeEnds: Uint32Array;
  edgeFlags: Uint8Array;
  edgeWeights: Float64Array;
  edgeLists: Uint32Array;
  edgeKeywords: Uint32Array;
  edgeChunks: Uint32Array;
  edgeSpans: Uint32Array;
}

/** Decode the (uncompressed) bytes of a binary graph file; see loadGraphBinary for the errors. */
export function decodeGraphBinary(
  input: Uint8Array,
  options: { source: string; hubShare?: number; neighborCacheSize?: number; hubNodeCacheSize?: number },
): CompactGraphStore {
  checkLittleEndian();
  const { source } = options;
  const fail = (message: string): never => {
    throw new InputError({ source, message: `binary graph file: ${message}` });
  };
  // Typed views need 8-byte alignment: a small buffer may sit anywhere in Node's pool.
  let bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (bytes.byteOffset % 8 !== 0) bytes = Buffer.from(Uint8Array.prototype.slice.call(bytes));
  if (bytes.length < 12 || bytes.toString('latin1', 0, 8) !== MAGIC) fail(`does not start with ${MAGIC}`);
  const headerLength = bytes.readUInt32LE(8);
  if (12 + headerLength > bytes.length) fail('truncated header');
  let header: GraphBinaryHeader;
  try {
    header = JSON.parse(bytes.toString('utf8', 12, 12 + headerLength)) as GraphBinaryHeader;
  } catch (cause) {
    throw new InputError({ source, message: 'binary graph file: the header is not JSON', cause });
  }
  if (header?.format !== GRAPH_BINARY_FORMAT) fail(`unknown format ${JSON.stringify(header?.format)}`);
  if (header.version !== GRAPH_BINARY_VERSION) fail(`version ${JSON.stringify(header.version)}, this reader knows ${GRAPH_BINARY_VERSION}`);
  const n = header.nodes;
  const m = header.edges;
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(m) || m < 0) fail('the header has no node and edge counts');
  if (!Array.isArray(header.sections) || header.sections.length !== SECTIONS.length)
    fail(`the header lists ${header.sections?.length} sections, expected ${SECTIONS.length}`);
  let at = 12 + headerLength;
  at += pad8(at);
  const columns = {} as Record<SectionName, Uint8Array | Uint32Array | Float64Array | Buffer>;
  SECTIONS.forEach(([name, type], s) => {
    const listed = header.sections[s]!;
    if (listed?.name !== name || listed.type !== type || !Number.isInteger(listed.length) || listed.length < 0) fail(`section ${s} is not ${name} (${type})`);
    const byteLength = listed.length * ELEMENT_BYTES[type];
    if (at + byteLength > bytes.length) fail(`truncated in section ${name} (needs ${at + byteLength - bytes.length} more bytes)`);
    const offset = bytes.byteOffset + at;
    columns[name] =
      name === 'heap'
        ? bytes.subarray(at, at + byteLength)
        : type === 'u8'
          ? new Uint8Array(bytes.buffer, offset, listed.length)
          : type === 'u32'
            ? new Uint32Array(bytes.buffer, offset, listed.length)
            : new Float64Array(bytes.buffer, offset, listed.length);
    at += byteLength + pad8(byteLength);
  });
  if (at !== bytes.length) fail(`${bytes.length - at} bytes after the last section`);
  const c = columns as unknown as GraphColumns;
  const stringCount = c.strings.length - 1;
  if (stringCount < 0 || c.strings[0] !== 0 || c.strings[stringCount] !== c.heap.length) fail('the string offsets do not span the heap');
  for (let s = 0; s < stringCount; s += 1) if (c.strings[s]! > c.strings[s + 1]!) fail(`string ${s} ends before it starts`);
  const expect = (name: string, actual: number, expected: number) => {
    if (actual !== expected) fail(`${name} holds ${actual} numbers, expected ${expected}`);
  };
  expect('nodeStrings', c.nodeStrings.length, 4 * n);
  expect('nodeFlags', c.nodeFlags.length, n);
  expect('nodeLists', c.nodeLists.length, 3 * (n + 1));
  expect('edgeStrings', c.edgeStrings.length, 3 * m);
  expect('edgeEnds', c.edgeEnds.length, 2 * m);
  expect('edgeFlags', c.edgeFlags.length, m);
  expect('edgeWeights', c.edgeWeights.length, m);
  expect('edgeLists', c.edgeLists.length, 3 * (m + 1));
  const lists = (name: string, offsets: Uint32Array, count: number, values: Uint32Array, width: number, list: number) => {
    const base = list * (count + 1);
    if (offsets[base] !== 0 || offsets[base + count]! * width !== values.length) fail(`the offsets of ${name} do not span its values`);
    for (let k = 0; k < count; k += 1) if (offsets[base + k]! > offsets[base + k + 1]!) fail(`${name} list ${k} ends before it starts`);
  };
  lists('nodeAliases', c.nodeLists, n, c.nodeAliases, 1, 0);
  lists('nodeChunks', c.nodeLists, n, c.nodeChunks, 1, 1);
  lists('nodeSpans', c.nodeLists, n, c.nodeSpans, 3, 2);
  lists('edgeKeywords', c.edgeLists, m, c.edgeKeywords, 1, 0);
  lists('edgeChunks', c.edgeLists, m, c.edgeChunks, 1, 1);
  lists('edgeSpans', c.edgeLists, m, c.edgeSpans, 3, 2);
  const references = (name: string, values: Uint32Array, step = 1) => {
    for (let k = 0; k < values.length; k += step) if (values[k]! >= stringCount) fail(`${name} names string ${values[k]} of ${stringCount}`);
  };
  for (const name of ['nodeStrings', 'nodeAliases', 'nodeChunks', 'edgeStrings', 'edgeKeywords', 'edgeChunks'] as const) references(name, c[name]);
  references('nodeSpans', c.nodeSpans, 3);
  references('edgeSpans', c.edgeSpans, 3);
  for (let k = 0; k < c.edgeEnds.length; k += 1) if (c.edgeEnds[k]! >= n) fail(`edge ${k % m} names node ${c.edgeEnds[k]} of ${n}`);
  return new CompactGraphStore({
    columns: c,
    nodes: n,
    edges: m,
    source,
    hubShare: options.hubShare,
    neighborCacheSize: options.neighborCacheSize,
    hubNodeCacheSize: options.hubNodeCacheSize,
  });
}

/**
 * A read-only GraphStore over the columns of a binary graph file: loading makes no object per
 * node or edge (only the id tables and the adjacency), and nodes and edges are built when they
 * are asked for. Answers exactly as a GraphologyGraphStore over the same graph: the same fields
 * in the same order, neighbours sorted by edge id, the same degrees and hub threshold.
 */
export class CompactGraphStore implements GraphStore {
  readonly specificationVersion = 'v1' as const;
  readonly nodeCount: number;
  readonly edgeCount: number;
  readonly hubDegree: number;
  readonly maxDegree: number;
  readonly #c: GraphColumns;
  readonly #nodeIds: string[];
  readonly #edgeIds: string[];
  readonly #nodeNumber: Map<string, number>;
  readonly #edgeNumber: Map<string, number>;
  /** Incident edges of node k: `#incident[#incidentStart[k] … #incidentStart[k + 1])`. */
  readonly #incidentStart: Uint32Array;
  readonly #incident: Uint32Array;
  /** Neighbour lists made so far, least recently used dropped first beyond `neighborCacheSize` neighbours (one list may exceed it alone). */
  readonly #neighborCache: WeightedLru<string, Neighbor[]>;
  /** Hub nodes built so far, least recently used first, holding at most #hubNodeLimit chunk ids and spans. */
  readonly #hubNodeCache: WeightedLru<number, EntityNode>;
  readonly #hubNodeLimit: number;
  /** Strings decoded so far (all but descriptions, which are decoded each time and not kept). */
  readonly #decoded: (string | undefined)[];
  /** Per chunk numbering (`NumberedEdgeView`): string number → number in it, −2 until first asked. */
  readonly #chunkNumberings = new WeakMap<ReadonlyMap<string, number>, Int32Array>();
  /** Per sentence table: the sentence number of every node and edge span (`SpanColumns.sentenceNumbers`). */
  readonly #spanSentences = new WeakMap<SentenceTokens, { node: Int32Array; edge: Int32Array }>();
  /** What `spanColumns`' columns read, of nodes and of edges. */
  readonly #nodeSpanSource: SpanColumnSource;
  readonly #edgeSpanSource: SpanColumnSource;
  /** Per span limit: `#incidentPassageTable` of the last numbering asked. */
  readonly #incidentPassages = new Map<number, { numbering: ReadonlyMap<string, number>; start: Uint32Array; chunks: Int32Array }>();
  /** The edges by number: a hub's relations read as numbers (see NumberedEdgeView). */
  readonly numberedEdges: NumberedEdgeView;

  /** @internal Use loadGraphBinary / decodeGraphBinary. */
  constructor(options: {
    columns: GraphColumns;
    nodes: number;
    edges: number;
    source: string;
    hubShare?: number;
    neighborCacheSize?: number;
    hubNodeCacheSize?: number;
  }) {
    const { columns: c, nodes: n, edges: m, source } = options;
    this.#neighborCache = new WeightedLru({ limit: options.neighborCacheSize ?? DEFAULT_NEIGHBOR_CACHE, weigh: (list) => list.length });
    this.#hubNodeLimit = options.hubNodeCacheSize ?? DEFAULT_HUB_NODE_CACHE;
    this.#hubNodeCache = new WeightedLru({ limit: this.#hubNodeLimit, weigh: hubItems });
    this.#c = c;
    this.#decoded = new Array<string | undefined>(c.strings.length - 1);
    this.#nodeSpanSource = { values: c.nodeSpans, string: (k) => this.#string(k), sentenceNumbers: (sentences) => this.#sentencesOfSpans(sentences).node };
    this.#edgeSpanSource = { values: c.edgeSpans, string: (k) => this.#string(k), sentenceNumbers: (sentences) => this.#sentencesOfSpans(sentences).edge };
    this.nodeCount = n;
    this.edgeCount = m;
    this.#nodeIds = new Array<string>(n);
    this.#nodeNumber = new Map();
    for (let k = 0; k < n; k += 1) {
      const id = this.#string(c.nodeStrings[k]!);
      this.#nodeIds[k] = id;
      this.#nodeNumber.set(id, k);
    }
    this.#edgeIds = new Array<string>(m);
    this.#edgeNumber = new Map();
    for (let k = 0; k < m; k += 1) {
      const id = this.#string(c.edgeStrings[k]!);
      this.#edgeIds[k] = id;
      this.#edgeNumber.set(id, k);
    }
    if (this.#nodeNumber.size !== n) throw new InputError({ source, message: 'binary graph file: two nodes share an id' });
    if (this.#edgeNumber.size !== m) throw new InputError({ source, message: 'binary graph file: two edges share an id' });
    const degree = new Uint32Array(n);
    for (let k = 0; k < 2 * m; k += 1) degree[c.edgeEnds[k]!]! += 1;
    const start = new Uint32Array(n + 1);
    for (let k = 0; k < n; k += 1) start[k + 1] = start[k]! + degree[k]!;
    const fill = start.slice(0, n);
    const incident = new Uint32Array(2 * m);
    for (let e = 0; e < m; e += 1) {
      incident[fill[c.edgeEnds[e]!]!++] = e;
      incident[fill[c.edgeEnds[m + e]!]!++] = e;
    }
    this.#incidentStart = start;
    this.#incident = incident;
    // As GraphologyGraphStore: the degree at the `hubShare` upper quantile, at least 3.
    const sorted = degree.slice().sort();
    const share = options.hubShare ?? 0.05;
    const cut = n === 0 ? 0 : sorted[n - 1 - Math.min(n - 1, Math.floor(n * share))]!;
    this.hubDegree = Math.max(3, cut);
    this.maxDegree = n === 0 ? 0 : sorted[n - 1]!;
    this.numberedEdges = {
      incidentEdges: (id) => {
        const k = this.#nodeNumber.get(id);
        return k === undefined ? undefined : this.#incident.subarray(this.#incidentStart[k]!, this.#incidentStart[k + 1]!);
      },
      edgeId: (edge) => this.#edgeIds[this.#edgeInRange(edge)]!,
      edgeNumber: (id) => this.#edgeNumber.get(id),
      neighbor: (id, edge) => this.#neighbor(id, edge),
      neighborNode: (id, edge) => this.#neighborNode(id, edge),
      passageChunks: (edges, spanLimit, numbering) => this.#passageChunks(edges, spanLimit, numbering),
      incidentPassageChunks: (id, edges, spanLimit, numbering) => this.#incidentPassageChunks(id, edges, spanLimit, numbering),
    };
  }

  /**
   * The store's own string for node id `id` (equal to `id`), or undefined for a node it does not hold:
   * a caller that keeps the same ids (a loaded index's entity ids) can hold one copy of each.
   */
  ownNodeId(id: string): string | undefined {
    const k = this.#nodeNumber.get(id);
    return k === undefined ? undefined : this.#nodeIds[k];
  }

  /** Edge id → edge number (what `numberedEdges.edgeNumber` answers), as the store keeps it; read-only. */
  get edgeNumbers(): ReadonlyMap<string, number> {
    return this.#edgeNumber;
  }

  #edgeInRange(edge: number): number {
    if (!(Number.isInteger(edge) && edge >= 0 && edge < this.edgeCount))
      throw new InvalidArgumentError({ argument: 'edge', message: `no edge number ${edge} in a graph of ${this.edgeCount} edges` });
    return edge;
  }

  /** The entry `neighbors(id)` has for edge number `edge`. */
  #neighbor(id: string, edge: number): Neighbor {
    const node = this.#neighborNode(id, edge);
    return { edge: this.#edge(edge), node };
  }

  /** The end of edge number `edge` other than node `id`. */
  #neighborNode(id: string, edge: number): string {
    const k = this.#nodeNumber.get(id);
    if (k === undefined) throw new InvalidArgumentError({ argument: 'id', message: `no node ${JSON.stringify(id)}` });
    const e = this.#edgeInRange(edge);
    const source = this.#c.edgeEnds[e]!;
    const target = this.#c.edgeEnds[this.edgeCount + e]!;
    if (source !== k && target !== k)
      throw new InvalidArgumentError({ argument: 'edge', message: `edge ${this.#edgeIds[e]} is not incident to node ${JSON.stringify(id)}` });
    return this.#nodeIds[source === k ? target : source]!;
  }

  /** NumberedEdgeView.passageChunks. */
  #passageChunks(edges: Uint32Array, spanLimit: number, numbering: ReadonlyMap<string, number>): { start: Uint32Array; chunks: Int32Array } {
    checkSpanLimit(spanLimit);
    const translate = this.#chunkNumbering(numbering);
    const start = new Uint32Array(edges.length + 1);
    let chunks: Int32Array = new Int32Array(Math.max(16, 2 * edges.length));
    let at = 0;
    const push = (string: number) => {
      if (at === chunks.length) chunks = doubled(chunks);
      chunks[at++] = this.#chunkNumberOf(translate, numbering, string);
    };
    for (let i = 0; i < edges.length; i += 1) {
      this.#forEachPassageChunk(this.#edgeInRange(edges[i]!), spanLimit, push);
      start[i + 1] = at;
    }
    return { start, chunks: chunks.subarray(0, at) };
  }

  /** The chunk id strings (heap numbers) of edge `e`'s passage: those of its first `spanLimit` spans, else its chunk ids. */
  #forEachPassageChunk(e: number, spanLimit: number, visit: (string: number) => void): void {
    const c = this.#c;
    const m = this.edgeCount;
    const spanLists = 2 * (m + 1);
    const chunkLists = m + 1;
    const first = c.edgeLists[spanLists + e]!;
    const spans = Math.min(spanLimit, c.edgeLists[spanLists + e + 1]! - first);
    if (spans > 0) for (let s = first; s < first + spans; s += 1) visit(c.edgeSpans[3 * s]!);
    else for (let k = c.edgeLists[chunkLists + e]!; k < c.edgeLists[chunkLists + e + 1]!; k += 1) visit(c.edgeChunks[k]!);
  }

  /** NumberedEdgeView.incidentPassageChunks. */
  #incidentPassageChunks(
    id: string,
    edges: Uint32Array,
    spanLimit: number,
    numbering: ReadonlyMap<string, number>,
  ): { start: Uint32Array; chunks: Int32Array } | undefined {
    const k = this.#nodeNumber.get(id);
    if (k === undefined) return undefined;
    const from = this.#incidentStart[k]!;
    const to = this.#incidentStart[k + 1]!;
    const incident = this.#incident;
    // Only the store's own incident list of the node (a subarray of one array: same buffer and place).
    if (edges.buffer !== incident.buffer || edges.byteOffset !== incident.byteOffset + from * 4 || edges.length !== to - from) return undefined;
    const table = this.#incidentPassageTable(spanLimit, numbering);
    return { start: table.start.subarray(from, to + 1), chunks: table.chunks };
  }

  /**
   * `passageChunks` of every incidence (`#incident`, node by node), made once per span limit and
   * numbering: a hub's relations' passage chunks are then one slice, where reading them edge by edge
   * touches the spans, strings and numbering of each relation wherever it lies (at 100 MB of text,
   * 3.5 million incidences: made in the first question that asks, instead of hub by hub). Kept for the
   * last numbering per span limit.
   */
  #incidentPassageTable(spanLimit: number, numbering: ReadonlyMap<string, number>): { start: Uint32Array; chunks: Int32Array } {
    const known = this.#incidentPassages.get(spanLimit);
    if (known?.numbering === numbering) return known;
    const m = this.edgeCount;
    const all = new Uint32Array(m);
    for (let e = 0; e < m; e += 1) all[e] = e;
    // Per edge, in edge order (its strings and spans read in order), then copied per incidence.
    const byEdge = this.#passageChunks(all, spanLimit, numbering);
    const incident = this.#incident;
    const start = new Uint32Array(incident.length + 1);
    for (let p = 0; p < incident.length; p += 1) {
      const e = incident[p]!;
      start[p + 1] = start[p]! + (byEdge.start[e + 1]! - byEdge.start[e]!);
    }
    const chunks = new Int32Array(start[incident.length]!);
    const edgeStart = byEdge.start;
    const edgeChunks = byEdge.chunks;
    for (let p = 0, at = 0; p < incident.length; p += 1) {
      const e = incident[p]!;
      for (let c = edgeStart[e]!, end = edgeStart[e + 1]!; c < end; c += 1) chunks[at++] = edgeChunks[c]!;
    }
    const table = { numbering, start, chunks };
    this.#incidentPassages.set(spanLimit, table);
    return table;
  }

  /** GraphStore.spanChunkNumbers: read from the span columns, each chunk id translated once per numbering. */
  spanChunkNumbers(kind: 'node' | 'edge', id: string, numbering: ReadonlyMap<string, number>): Int32Array | undefined {
    const node = kind === 'node';
    if (!node && kind !== 'edge') throw new InvalidArgumentError({ argument: 'kind', message: `must be 'node' or 'edge', got ${JSON.stringify(kind)}` });
    const k = node ? this.#nodeNumber.get(id) : this.#edgeNumber.get(id);
    if (k === undefined) return undefined;
    const c = this.#c;
    const lists = node ? c.nodeLists : c.edgeLists;
    const values = node ? c.nodeSpans : c.edgeSpans;
    const base = 2 * ((node ? this.nodeCount : this.edgeCount) + 1);
    const from = lists[base + k]!;
    const out = new Int32Array(lists[base + k + 1]! - from);
    const translate = this.#chunkNumbering(numbering);
    for (let at = 0; at < out.length; at += 1) out[at] = this.#chunkNumberOf(translate, numbering, values[3 * (from + at)]!);
    return out;
  }

  /** The string → chunk number table of `numbering` (−2: not looked up yet). */
  #chunkNumbering(numbering: ReadonlyMap<string, number>): Int32Array {
    let table = this.#chunkNumberings.get(numbering);
    if (!table) {
      // Every chunk id the edges name, looked up at once: each is decoded once, and no question
      // after the first pays for a hub's chunks.
      table = new Int32Array(this.#c.strings.length - 1).fill(-2);
      const { edgeSpans, edgeChunks } = this.#c;
      for (let at = 0; at < edgeSpans.length; at += 3) this.#chunkNumberOf(table, numbering, edgeSpans[at]!);
      for (let at = 0; at < edgeChunks.length; at += 1) this.#chunkNumberOf(table, numbering, edgeChunks[at]!);
      this.#chunkNumberings.set(numbering, table);
    }
    return table;
  }

  /** String k's number in `numbering` (−1 when absent), looked up once and kept in `table`. */
  #chunkNumberOf(table: Int32Array, numbering: ReadonlyMap<string, number>, k: number): number {
    let number = table[k]!;
    if (number === -2) table[k] = number = numbering.get(this.#text(k)) ?? -1;
    return number;
  }

  /** GraphStore.getNodes; with `{ spans: false }`, the nodes without `spans` (read them with `spanColumns`). */
  async getNodes(ids: readonly string[], options?: GetNodesOptions): Promise<EntityNode[]> {
    return this.getNodesSync(ids, options);
  }

  getNodesSync(ids: readonly string[], options?: GetNodesOptions): EntityNode[] {
    const spans = options?.spans !== false;
    const out: EntityNode[] = [];
    for (const id of ids) {
      const k = this.#nodeNumber.get(id);
      if (k !== undefined) out.push(spans ? this.#cachedNode(k) : this.#node(k, true, false));
    }
    return out;
  }

  /** GraphStore.spanColumns: node or edge `id`'s spans read in place from its span column. */
  spanColumns(kind: 'node' | 'edge', id: string): SpanColumns | undefined {
    const node = kind === 'node';
    if (!node && kind !== 'edge') throw new InvalidArgumentError({ argument: 'kind', message: `must be 'node' or 'edge', got ${JSON.stringify(kind)}` });
    const k = node ? this.#nodeNumber.get(id) : this.#edgeNumber.get(id);
    if (k === undefined) return undefined;
    const lists = node ? this.#c.nodeLists : this.#c.edgeLists;
    const base = 2 * ((node ? this.nodeCount : this.edgeCount) + 1);
    const from = lists[base + k]!;
    return new SpanColumnsOf(node ? this.#nodeSpanSource : this.#edgeSpanSource, from, lists[base + k + 1]! - from);
  }

  /**
   * The sentence number in `sentences` of every node span and every edge span, in column order (−1
   * for one it does not hold), made once per table for both: each chunk id looked up once.
   */
  #sentencesOfSpans(sentences: SentenceTokens): { node: Int32Array; edge: Int32Array } {
    const known = this.#spanSentences.get(sentences);
    if (known) return known;
    const chunkNumber = typeof sentences.chunkNumber === 'function' ? sentences.chunkNumber.bind(sentences) : undefined;
    const sentenceInChunk = typeof sentences.sentenceInChunk === 'function' ? sentences.sentenceInChunk.bind(sentences) : undefined;
    // String number → the table's chunk number (−1: not one of its chunks), each chunk id looked up once.
    const chunkOf = new Map<number, number>();
    const chunkOfString = (string: number): number => {
      let chunk = chunkOf.get(string);
      if (chunk === undefined) {
        const number = chunkNumber!(this.#string(string));
        chunk = number !== undefined && Number.isInteger(number) && number >= 0 ? number : -1;
        chunkOf.set(string, chunk);
      }
      return chunk;
    };
    const numbersOf = (values: Uint32Array): Int32Array => {
      const numbers = new Int32Array(values.length / 3);
      if (!chunkNumber || !sentenceInChunk) {
        for (let at = 0; at < numbers.length; at += 1)
          numbers[at] = sentences.sentence(this.#string(values[3 * at]!), values[3 * at + 1]!, values[3 * at + 2]!);
        return numbers;
      }
      // Spans come in runs of one chunk: its number is found once per run.
      let lastString = -1;
      let lastChunk = -1;
      for (let at = 0; at < numbers.length; at += 1) {
        const string = values[3 * at]!;
        if (string !== lastString) {
          lastString = string;
          lastChunk = chunkOfString(string);
        }
        numbers[at] = lastChunk < 0 ? -1 : sentenceInChunk(lastChunk, values[3 * at + 1]!, values[3 * at + 2]!);
      }
      return numbers;
    };
    const both = { node: numbersOf(this.#c.nodeSpans), edge: numbersOf(this.#c.edgeSpans) };
    this.#spanSentences.set(sentences, both);
    return both;
  }

  /** Hub nodes built and kept by `getNodes` (bounded by `hubNodeCacheSize`), and their chunk ids and spans. */
  get hubNodeCache(): { nodes: number; items: number } {
    return { nodes: this.#hubNodeCache.size, items: this.#hubNodeCache.weight };
  }

  /** Node k, from the hub cache when it is a hub (shared: callers treat nodes as read-only, as neighbour lists). */
  #cachedNode(k: number): EntityNode {
    if (this.#hubNodeLimit <= 0 || this.#incidentStart[k + 1]! - this.#incidentStart[k]! < this.hubDegree) return this.#node(k);
    const cached = this.#hubNodeCache.get(k);
    if (cached) return cached;
    const node = this.#node(k);
    if (hubItems(node) <= this.#hubNodeLimit) this.#hubNodeCache.set(k, node);
    return node;
  }

  /** Name and aliases of nodes by id, in input order; unknown ids skipped (no other field is built). */
  async getNodeNames(ids: readonly string[]): Promise<NodeNames[]> {
    const out: NodeNames[] = [];
    const n = this.nodeCount;
    for (const id of ids) {
      const k = this.#nodeNumber.get(id);
      if (k === undefined) continue;
      out.push({ id, name: this.#string(this.#c.nodeStrings[n + k]!), aliases: this.#strings(this.#c.nodeAliases, this.#c.nodeLists, 0, n, k) });
    }
    return out;
  }

  /** Nodes by id without `chunkIds` and `spans`, in input order; unknown ids skipped (every other field as `getNodes` gives it). */
  async getNodeSummaries(ids: readonly string[]): Promise<NodeSummary[]> {
    const out: NodeSummary[] = [];
    for (const id of ids) {
      const k = this.#nodeNumber.get(id);
      if (k !== undefined) out.push(this.#node(k, false));
    }
    return out;
  }

  async getEdges(ids: readonly string[]): Promise<RelationEdge[]> {
    return this.getEdgesSync(ids);
  }

  getEdgesSync(ids: readonly string[]): RelationEdge[] {
    const out: RelationEdge[] = [];
    for (const id of ids) {
      const k = this.#edgeNumber.get(id);
      if (k !== undefined) out.push(this.#edge(k));
    }
    return out;
  }

  /**
   * Edges by id as `EdgePassage`s, in input order; unknown ids skipped: each edge's ends and the chunk
   * ids of its first `spanLimit` spans, else its chunk ids (the chunks `passageChunks` numbers), with no
   * other field, span or chunk list built.
   */
  async getEdgePassages(ids: readonly string[], spanLimit: number): Promise<EdgePassage[]> {
    checkSpanLimit(spanLimit);
    const ends = this.#c.edgeEnds;
    const m = this.edgeCount;
    const out: EdgePassage[] = [];
    for (const id of ids) {
      const e = this.#edgeNumber.get(id);
      if (e === undefined) continue;
      const chunkIds: string[] = [];
      this.#forEachPassageChunk(e, spanLimit, (string) => chunkIds.push(this.#string(string)));
      out.push({ id: this.#edgeIds[e]!, source: this.#nodeIds[ends[e]!]!, target: this.#nodeIds[ends[m + e]!]!, chunkIds });
    }
    return out;
  }

  async neighbors(ids: readonly string[]): Promise<Map<string, Neighbor[]>> {
    const result = new Map<string, Neighbor[]>();
    for (const id of ids) {
      if (result.has(id)) continue;
      result.set(id, this.#neighborsOf(id));
    }
    return result;
  }

  /** Every node with its attributes, in file (graph) order. */
  forEachNode(callback: (id: string, attributes: EntityAttributes) => void): void {
    for (let k = 0; k < this.nodeCount; k += 1) {
      const { id: _id, degree: _degree, ...attributes } = this.#node(k);
      callback(this.#nodeIds[k]!, attributes);
    }
  }

  /** Every edge with its attributes and endpoints, in file (graph) order. */
  forEachEdge(callback: (id: string, attributes: RelationAttributes, source: string, target: string) => void): void {
    for (let k = 0; k < this.edgeCount; k += 1) {
      const { id, source, target, ...attributes } = this.#edge(k);
      callback(id, attributes, source, target);
    }
  }

  #neighborsOf(id: string): Neighbor[] {
    const cached = this.#neighborCache.get(id);
    if (cached) return cached;
    const list: Neighbor[] = [];
    const k = this.#nodeNumber.get(id);
    if (k !== undefined) {
      const m = this.edgeCount;
      for (let at = this.#incidentStart[k]!; at < this.#incidentStart[k + 1]!; at += 1) {
        const e = this.#incident[at]!;
        const source = this.#c.edgeEnds[e]!;
        list.push({ edge: this.#edge(e), node: this.#nodeIds[source === k ? this.#c.edgeEnds[m + e]! : source]! });
      }
      list.sort((a, b) => (a.edge.id < b.edge.id ? -1 : a.edge.id > b.edge.id ? 1 : 0));
    }
    this.#neighborCache.set(id, list);
    return list;
  }

  /** Neighbour lists and neighbours held by the cache of `neighbors` (bounded by `neighborCacheSize`). */
  get neighborCache(): { lists: number; neighbors: number } {
    return { lists: this.#neighborCache.size, neighbors: this.#neighborCache.weight };
  }

  /** String k, decoded once (ids, names, types, labels, keywords and chunk ids repeat). */
  #string(k: number): string {
    let value = this.#decoded[k];
    if (value === undefined) this.#decoded[k] = value = this.#text(k);
    return value;
  }

  /** String k decoded from the heap (for descriptions: each is used by one node or edge). */
  #text(k: number): string {
    return this.#c.heap.toString('utf8', this.#c.strings[k], this.#c.strings[k + 1]);
  }

  #strings(values: Uint32Array, lists: Uint32Array, list: number, count: number, k: number): string[] {
    const base = list * (count + 1);
    const out: string[] = [];
    for (let at = lists[base + k]!; at < lists[base + k + 1]!; at += 1) out.push(this.#string(values[at]!));
    return out;
  }

  #spans(values: Uint32Array, lists: Uint32Array, count: number, k: number): TextSpan[] {
    const base = 2 * (count + 1);
    const out: TextSpan[] = [];
    for (let at = lists[base + k]!; at < lists[base + k + 1]!; at += 1) {
      out.push({ chunkId: this.#string(values[3 * at]!), start: values[3 * at + 1]!, end: values[3 * at + 2]! });
    }
    return out;
  }

  /** Node k; without `chunkIds` and `spans` when `provenance` is false (a NodeSummary), without `spans` when `spans` is false. */
  #node(k: number): EntityNode;
  #node(k: number, provenance: false): NodeSummary;
  #node(k: number, provenance: true, spans: boolean): EntityNode;
  #node(k: number, provenance = true, spans = provenance): EntityNode | NodeSummary {
    const c = this.#c;
    const n = this.nodeCount;
    const flags = c.nodeFlags[k]!;
    // Field order as GraphologyGraphStore gives it: id, the attributes as the build set them, degree.
    const node = {
      id: this.#nodeIds[k]!,
      name: this.#string(c.nodeStrings[n + k]!),
      aliases: this.#strings(c.nodeAliases, c.nodeLists, 0, n, k),
      type: this.#string(c.nodeStrings[2 * n + k]!),
      description: this.#text(c.nodeStrings[3 * n + k]!),
    } as EntityNode;
    if (provenance) node.chunkIds = this.#strings(c.nodeChunks, c.nodeLists, 1, n, k);
    if (flags & QUESTION_LIKE_PRESENT) node.questionLike = (flags & QUESTION_LIKE) !== 0;
    if (spans && flags & SPANS_PRESENT) node.spans = this.#spans(c.nodeSpans, c.nodeLists, n, k);
    node.degree = this.#incidentStart[k + 1]! - this.#incidentStart[k]!;
    return node;
  }

  #edge(k: number): RelationEdge {
    const c = this.#c;
    const m = this.edgeCount;
    const flags = c.edgeFlags[k]!;
    const edge: RelationEdge = {
      id: this.#edgeIds[k]!,
      source: this.#nodeIds[c.edgeEnds[k]!]!,
      target: this.#nodeIds[c.edgeEnds[m + k]!]!,
      label: this.#string(c.edgeStrings[m + k]!),
      keywords: this.#strings(c.edgeKeywords, c.edgeLists, 0, m, k),
      description: this.#text(c.edgeStrings[2 * m + k]!),
      chunkIds: this.#strings(c.edgeChunks, c.edgeLists, 1, m, k),
    };
    if (flags & WEIGHT_PRESENT) edge.weight = c.edgeWeights[k]!;
    if (flags & SPANS_PRESENT) edge.spans = this.#spans(c.edgeSpans, c.edgeLists, m, k);
    return edge;
  }
}

/** What `SpanColumnsOf` reads: a span column (chunk string number, start, end per span), the store's strings, the column's sentence numbers. */
interface SpanColumnSource {
  readonly values: Uint32Array;
  string(k: number): string;
  sentenceNumbers(sentences: SentenceTokens): Int32Array;
}

/** One node's or edge's spans in the store's span column: spans `from` … `from + count − 1`. */
class SpanColumnsOf implements SpanColumns {
  constructor(
    private readonly source: SpanColumnSource,
    private readonly from: number,
    readonly count: number,
  ) {}

  chunkId(i: number): string {
    return this.source.string(this.source.values[3 * this.#at(i)]!);
  }

  start(i: number): number {
    return this.source.values[3 * this.#at(i) + 1]!;
  }

  end(i: number): number {
    return this.source.values[3 * this.#at(i) + 2]!;
  }

  sentenceNumbers(sentences: SentenceTokens): Int32Array {
    return this.source.sentenceNumbers(sentences).subarray(this.from, this.from + this.count);
  }

  /** Span i's position in the column; a RangeError outside 0 … count − 1. */
  #at(i: number): number {
    if (!(Number.isInteger(i) && i >= 0 && i < this.count)) throw new RangeError(`span ${i} of ${this.count}`);
    return this.from + i;
  }
}

/** A passage's span limit (`passageChunks`, `getEdgePassages`): an integer ≥ 1, else InvalidArgumentError. */
function checkSpanLimit(spanLimit: number): void {
  if (!(Number.isInteger(spanLimit) && spanLimit >= 1))
    throw new InvalidArgumentError({ argument: 'spanLimit', message: `must be an integer ≥ 1, got ${spanLimit}` });
}
