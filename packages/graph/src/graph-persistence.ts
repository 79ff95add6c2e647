import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { InputError } from '@mosaic/spec';
import type { SerializedGraph } from 'graphology-types';
import { createKnowledgeGraph, type EntityAttributes, type KnowledgeGraph, type RelationAttributes } from './graphology-graph-store.js';

/** File format tag and version written by `saveGraph`. */
export const GRAPH_FILE_FORMAT = 'mosaic-knowledge-graph';
export const GRAPH_FILE_VERSION = 1;

/** The JSON document `saveGraph` writes: a tag, a version and graphology's export. */
export interface GraphFile {
  format: typeof GRAPH_FILE_FORMAT;
  version: number;
  graph: SerializedGraph<EntityAttributes, RelationAttributes>;
}

/** The graph as a JSON-serialisable document (graphology `export()` wrapped with format and version). */
export function serializeGraph(graph: KnowledgeGraph): GraphFile {
  return { format: GRAPH_FILE_FORMAT, version: GRAPH_FILE_VERSION, graph: graph.export() };
}

/** A knowledge graph from a `serializeGraph` document; throws InputError naming `source` when malformed. */
export function deserializeGraph(document: unknown, source = 'graph'): KnowledgeGraph {
  if (typeof document !== 'object' || document === null) {
    throw new InputError({ source, message: 'graph file is not a JSON object' });
  }
  const file = document as Partial<GraphFile>;
  if (file.format !== GRAPH_FILE_FORMAT) {
    throw new InputError({ source, message: `unknown graph format ${JSON.stringify(file.format)}` });
  }
  if (file.version !== GRAPH_FILE_VERSION) {
    throw new InputError({ source, message: `unsupported graph version ${JSON.stringify(file.version)}` });
  }
  if (typeof file.graph !== 'object' || file.graph === null || !Array.isArray(file.graph.nodes)) {
    throw new InputError({ source, message: 'graph file has no nodes array' });
  }
  const graph = createKnowledgeGraph();
  try {
    graph.import(file.graph as SerializedGraph<EntityAttributes, RelationAttributes>);
  } catch (cause) {
    throw new InputError({ source, message: 'graph file does not import', cause });
  }
  return graph;
}

export interface SaveGraphOptions {
  graph: KnowledgeGraph;
  path: string;
}

/** Write the graph as JSON; atomic (temporary file in the same folder, then rename). */
export async function saveGraph(options: SaveGraphOptions): Promise<{ path: string; bytes: number }> {
  const json = JSON.stringify(serializeGraph(options.graph));
  const temporary = `${options.path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(temporary, json, 'utf8');
    await rename(temporary, options.path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return { path: options.path, bytes: Buffer.byteLength(json) };
}

export interface LoadGraphOptions {
  path: string;
}

/** Read a graph written by `saveGraph`. Missing file, invalid JSON or wrong format → InputError naming the path. */
export async function loadGraph(options: LoadGraphOptions): Promise<KnowledgeGraph> {
  let text: string;
  try {
    text = await readFile(options.path, 'utf8');
  } catch (cause) {
    throw new InputError({ source: options.path, message: 'graph file cannot be read', cause });
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (cause) {
    throw new InputError({ source: options.path, message: 'graph file is not valid JSON', cause });
  }
  return deserializeGraph(document, options.path);
}
