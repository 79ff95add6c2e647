import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { InputError } from '@mosaic/spec';
import { createKnowledgeGraph, type EntityAttributes, type KnowledgeGraph, type RelationAttributes } from './graphology-graph-store.js';

/** Format tag of the first line `saveGraphLines` writes. */
export const GRAPH_LINES_FORMAT = 'mosaic-knowledge-graph-lines';
export const GRAPH_LINES_VERSION = 1;

/** The first line of a graph-lines file. */
export interface GraphLinesHeader {
  format: typeof GRAPH_LINES_FORMAT;
  version: number;
  nodes: number;
  edges: number;
}

/** One node line: `{ "key", "attributes" }`. */
interface NodeLine {
  key: string;
  attributes: EntityAttributes;
}
/** One edge line: `{ "key", "source", "target", "attributes" }`. */
interface EdgeLine {
  key: string;
  source: string;
  target: string;
  attributes: RelationAttributes;
}

export interface SaveGraphLinesOptions {
  graph: KnowledgeGraph;
  path: string;
}

/**
 * Write the graph as JSON Lines, streamed: a header line (format, version, counts), one line per
 * node (in graph order), then one line per edge. No string ever holds the whole graph, so graphs
 * far beyond V8's string limit (~512 MB) save. A path ending in `.gz` is gzip-compressed on the
 * way (the graph's descriptions compress about fivefold). Atomic: a temporary sibling renamed into place.
 */
export async function saveGraphLines(options: SaveGraphLinesOptions): Promise<{ path: string; bytes: number }> {
  const { graph } = options;
  const temporary = `${options.path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const file = createWriteStream(temporary);
  const gzip = options.path.endsWith('.gz') ? createGzip({ level: 6 }) : undefined;
  gzip?.pipe(file);
  const out: Writable = gzip ?? file;
  const streams: (Readable | Writable)[] = gzip ? [gzip, file] : [file];
  const failed = new Promise<never>((_, reject) => {
    for (const stream of streams) stream.once('error', reject);
  });
  failed.catch(() => undefined);
  let pending = '';
  const write = async (value: unknown) => {
    pending += `${JSON.stringify(value)}\n`;
    if (pending.length < 1 << 16) return;
    const flushed = out.write(pending);
    pending = '';
    if (!flushed) await Promise.race([once(out, 'drain'), failed]);
  };
  try {
    const header: GraphLinesHeader = { format: GRAPH_LINES_FORMAT, version: GRAPH_LINES_VERSION, nodes: graph.order, edges: graph.size };
    await write(header);
    for (const { node, attributes } of graph.nodeEntries()) await write({ key: node, attributes });
    for (const { edge, attributes, source, target } of graph.edgeEntries()) await write({ key: edge, source, target, attributes });
    if (pending !== '') out.write(pending);
    out.end();
    await Promise.race([once(file, 'close'), failed]);
    await rename(temporary, options.path);
  } catch (error) {
    for (const stream of streams) stream.destroy();
    await rm(temporary, { force: true });
    throw error;
  }
  return { path: options.path, bytes: file.bytesWritten };
}

export interface LoadGraphLinesOptions {
  path: string;
}

/**
 * Read a graph written by `saveGraphLines`, line by line (never the whole file as one string),
 * gunzipping a `.gz` path.
 * Missing file, a malformed line, a wrong header or counts that disagree with the header →
 * InputError naming the path (and the line).
 */
export async function loadGraphLines(options: LoadGraphLinesOptions): Promise<KnowledgeGraph> {
  const { path } = options;
  const file = createReadStream(path);
  const opened = new Promise<void>((resolve, reject) => {
    file.once('open', () => resolve());
    file.once('error', reject);
  });
  try {
    await opened;
  } catch (cause) {
    throw new InputError({ source: path, message: 'graph file cannot be read', cause });
  }
  const input = path.endsWith('.gz') ? file.pipe(createGunzip()) : file;
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  const graph = createKnowledgeGraph();
  let header: GraphLinesHeader | undefined;
  let number = 0;
  try {
    for await (const line of lines) {
      number += 1;
      if (line === '') continue;
      const value = parseLine(line, path, number);
      if (!header) {
        header = checkHeader(value, path);
        continue;
      }
      addLine(graph, value, path, number);
    }
  } catch (error) {
    // A read or gunzip error surfaces through the line iterator.
    if (InputError.isInstance(error)) throw error;
    throw new InputError({ source: path, message: `graph file cannot be read (${(error as Error).message})`, cause: error });
  } finally {
    lines.close();
    file.destroy();
    input.destroy();
  }
  if (!header) throw new InputError({ source: path, message: 'graph file is empty (no header line)' });
  if (graph.order !== header.nodes || graph.size !== header.edges) {
    throw new InputError({
      source: path,
      message: `graph file is incomplete: header says ${header.nodes} nodes and ${header.edges} edges, read ${graph.order} and ${graph.size}`,
    });
  }
  return graph;
}

function parseLine(line: string, path: string, number: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (cause) {
    throw new InputError({ source: path, message: `line ${number} is not valid JSON`, cause });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InputError({ source: path, message: `line ${number} is not a JSON object` });
  return value as Record<string, unknown>;
}

function checkHeader(value: Record<string, unknown>, path: string): GraphLinesHeader {
  if (value.format !== GRAPH_LINES_FORMAT) throw new InputError({ source: path, message: `unknown graph format ${JSON.stringify(value.format)}` });
  if (value.version !== GRAPH_LINES_VERSION) throw new InputError({ source: path, message: `unsupported graph version ${JSON.stringify(value.version)}` });
  if (!Number.isInteger(value.nodes) || !Number.isInteger(value.edges))
    throw new InputError({ source: path, message: 'graph header has no node and edge counts' });
  return value as unknown as GraphLinesHeader;
}

function addLine(graph: KnowledgeGraph, value: Record<string, unknown>, path: string, number: number): void {
  if (typeof value.key !== 'string' || typeof value.attributes !== 'object' || value.attributes === null) {
    throw new InputError({ source: path, message: `line ${number} has no key and attributes` });
  }
  try {
    if (value.source === undefined) {
      const node = value as unknown as NodeLine;
      graph.addNode(node.key, node.attributes);
    } else {
      const edge = value as unknown as EdgeLine;
      graph.addDirectedEdgeWithKey(edge.key, edge.source, edge.target, edge.attributes);
    }
  } catch (cause) {
    throw new InputError({ source: path, message: `line ${number} does not fit the graph (${(cause as Error).message})`, cause });
  }
}
