import { InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type { AbortOptions, Chunk, CorpusIndex, EntityNode, IndexManifest, LexicalIndex, RelationEdge, SourceDocument, SourceWindow } from '@mosaic/spec';
import { entityText, relationText } from '@mosaic/stage-utils';
import { VECTOR_KINDS, type VectorKind } from '@mosaic/stage-utils/internal';
import type { Bm25Index, Bm25IndexJson } from '@mosaic/vector-index';
import { batches } from './surreal-tables.js';

/** The three vector tables of an index (one definition, in @mosaic/stage-utils). */
export { VECTOR_KINDS, type VectorKind } from '@mosaic/stage-utils/internal';

/** One vector table: `ids[label]` ↔ `vectors[label]`. */
export interface VectorTablePiece {
  ids: readonly string[];
  vectors: readonly Float32Array[];
  /** Hash of the text each vector embeds (`textHash` of @mosaic/indexing): lets an addition reuse unchanged vectors. */
  textHashes?: readonly string[];
}

/** The extraction of one chunk, as @mosaic/indexing stores it (`{ chunkId, extraction }`). */
export interface ExtractionPiece {
  chunkId: string;
  extraction: unknown;
}

/** A lexical index as stored: the JSON of a Bm25Index (`Bm25Index.toJSON()`), or the index itself (stringified with its toJSON). */
export type LexicalPiece = Bm25IndexJson | Bm25Index;

/**
 * Everything an index consists of, as plain data: what writeIndexToSurreal writes. Build it with
 * `piecesFromCorpusIndex`, or from the files of an index directory (see README, "Migrate").
 */
export interface SurrealIndexPieces {
  manifest: IndexManifest;
  /** Graph nodes (degree is recomputed from `relations`). */
  entities: ReadonlyArray<Omit<EntityNode, 'degree'>>;
  relations: readonly RelationEdge[];
  chunks: readonly Chunk[];
  windows: readonly SourceWindow[];
  /** Source documents (optional; stored for reference, not needed for retrieval). */
  documents?: readonly SourceDocument[];
  vectors: Record<VectorKind, VectorTablePiece>;
  lexical?: Partial<Record<VectorKind, LexicalPiece>>;
  /** Per-chunk extractions in corpus order: stored so that documents can be added later (addDocumentsInto). */
  extractions?: Iterable<ExtractionPiece> & { readonly length: number };
}

/** How the vectors of each kind were obtained by piecesFromCorpusIndex. */
export type VectorSource = 'given' | 'window-vector' | 're-encoded';

export interface PiecesFromCorpusIndexOptions extends AbortOptions {
  index: CorpusIndex;
  /**
   * Stored vectors in label order (`index.entityIds` etc.), e.g. `contents.vectors.entities.vectors`
   * from readIndexContents of @mosaic/indexing. Kinds left out are re-encoded with `index.encoder`
   * (windows: `index.windowVector(id)` first).
   */
  vectors?: Partial<Record<VectorKind, readonly Float32Array[]>>;
  /**
   * Texts to re-encode, in label order. Defaults: entity "name: description" and relation
   * "source label target: description" — the texts @mosaic/indexing embeds. Vectors only equal
   * the original ones when these texts are the ones the index was built from.
   */
  texts?: Partial<Record<'entities' | 'relations', readonly string[]>>;
  /** Texts per encoder call (default 256). */
  encodeBatchSize?: number;
}

export interface PiecesFromCorpusIndexResult {
  pieces: SurrealIndexPieces;
  vectorSources: Record<VectorKind, VectorSource>;
}

/** Default entity text: `entityText` of @mosaic/stage-utils, the one @mosaic/indexing embeds. */
export const defaultEntityText = entityText;

/** Default relation text: `relationText` of @mosaic/stage-utils, the one @mosaic/indexing embeds. */
export const defaultRelationText = relationText;

/** The graphology graph behind a GraphologyGraphStore, or a store that enumerates itself (CompactGraphStore): complete enumeration. */
export interface EnumerableGraph {
  forEachNode(callback: (id: string, attributes: Omit<EntityNode, 'id' | 'degree'>) => void): void;
  forEachEdge(callback: (id: string, attributes: Omit<RelationEdge, 'id' | 'source' | 'target'>, source: string, target: string) => void): void;
}

/** Every node and edge of a graphology graph (a KnowledgeGraph of @mosaic/graph), in graph order. */
export function enumerateGraph(graph: EnumerableGraph): { entities: EntityNode[]; relations: RelationEdge[] } {
  const entities: EntityNode[] = [];
  graph.forEachNode((id, attributes) => entities.push({ id, ...attributes, degree: 0 }));
  const relations: RelationEdge[] = [];
  graph.forEachEdge((id, attributes, source, target) => relations.push({ id, source, target, ...attributes }));
  return { entities, relations };
}

function enumerableGraph(index: CorpusIndex): EnumerableGraph | undefined {
  // A GraphologyGraphStore exposes its graphology graph; a CompactGraphStore (a loaded index
  // directory) enumerates itself.
  const store = index.graph as Partial<EnumerableGraph> & { graph?: Partial<EnumerableGraph> };
  const graph = store.graph ?? store;
  return graph && typeof graph.forEachNode === 'function' && typeof graph.forEachEdge === 'function' ? (graph as EnumerableGraph) : undefined;
}

function lexicalJson(index: LexicalIndex | undefined): LexicalPiece | undefined {
  const json = (index as { toJSON?: () => unknown } | undefined)?.toJSON?.();
  return json && typeof json === 'object' && (json as { format?: unknown }).format === 'mosaic-bm25' ? (json as LexicalPiece) : undefined;
}

/** Nodes and edges: the whole graph when the store exposes its graphology graph, else the indexed ones and their endpoints. */
async function readGraph(index: CorpusIndex, abortSignal: AbortSignal | undefined): Promise<{ entities: EntityNode[]; relations: RelationEdge[] }> {
  const graph = enumerableGraph(index);
  if (graph) {
    const read = enumerateGraph(graph);
    throwIfAborted(abortSignal, 'read index');
    return read;
  }
  const relations = await index.graph.getEdges(index.relationIds);
  const nodeIds = new Set(index.entityIds);
  for (const relation of relations) nodeIds.add(relation.source).add(relation.target);
  const entities: EntityNode[] = [];
  for (const batch of batches([...nodeIds], 1000)) entities.push(...(await index.graph.getNodes(batch)));
  throwIfAborted(abortSignal, 'read index');
  return { entities, relations };
}

/** The windows in label order, and every chunk a window, entity or relation names. */
function readTexts(index: CorpusIndex, items: ReadonlyArray<{ chunkIds: readonly string[] }>): { windows: SourceWindow[]; chunks: Chunk[] } {
  const windows: SourceWindow[] = [];
  for (const id of index.windowIds) {
    const window = index.chunks.getWindow(id);
    if (!window) throw new InvalidArgumentError({ argument: 'index', message: `window ${id} of windowIds is not in the chunk store` });
    windows.push(window);
  }
  const chunkIds = new Set<string>();
  for (const item of [...windows, ...items]) for (const id of item.chunkIds) chunkIds.add(id);
  const chunks: Chunk[] = [];
  for (const id of chunkIds) {
    const chunk = index.chunks.getChunk(id);
    if (chunk) chunks.push(chunk);
  }
  return { windows, chunks };
}

/** What the vector phase reads: the index, the graph read from it, the options, and an encoder in batches. */
interface VectorReading {
  index: CorpusIndex;
  options: PiecesFromCorpusIndexOptions;
  nodeById: Map<string, EntityNode>;
  edgeById: Map<string, RelationEdge>;
  windows: readonly SourceWindow[];
  encode(texts: readonly string[]): Promise<Float32Array[]>;
}

function sized(kind: VectorKind, ids: readonly string[], vectors: readonly Float32Array[]): readonly Float32Array[] {
  if (vectors.length !== ids.length) {
    throw new InvalidArgumentError({ argument: `vectors.${kind}`, message: `has ${vectors.length} vectors for ${ids.length} ids` });
  }
  return vectors;
}

/** The vectors of one kind, in label order: given, else the stored window vectors, else re-encoded from the texts. */
async function vectorsOf(reading: VectorReading, kind: VectorKind): Promise<{ vectors: readonly Float32Array[]; source: VectorSource }> {
  const { index, options, nodeById, edgeById } = reading;
  const ids = kind === 'entities' ? index.entityIds : kind === 'relations' ? index.relationIds : index.windowIds;
  const given = options.vectors?.[kind];
  if (given) return { vectors: sized(kind, ids, given), source: 'given' };
  if (kind === 'entities') {
    const texts = options.texts?.entities ?? ids.map((id) => defaultEntityText(nodeById.get(id) ?? { name: id, description: '' }));
    return { vectors: sized(kind, ids, await reading.encode(texts)), source: 're-encoded' };
  }
  if (kind === 'relations') {
    const name = (id: string) => nodeById.get(id)?.name ?? id;
    const texts =
      options.texts?.relations ??
      ids.map((id) => {
        const edge = edgeById.get(id);
        return edge ? defaultRelationText(edge, name(edge.source), name(edge.target)) : id;
      });
    return { vectors: sized(kind, ids, await reading.encode(texts)), source: 're-encoded' };
  }
  const stored = ids.map((id) => index.windowVector?.(id));
  const missing = reading.windows.filter((_, i) => !stored[i]);
  const encoded = await reading.encode(missing.map((window) => window.text));
  let next = 0;
  return { vectors: stored.map((vector) => vector ?? encoded[next++]), source: missing.length === 0 ? 'window-vector' : 're-encoded' };
}

/**
 * Read a loaded CorpusIndex into SurrealIndexPieces. Nodes and edges: the whole graph when the
 * store exposes its graphology graph (GraphologyGraphStore), else `entityIds` plus relation
 * endpoints and `relationIds`. Chunks: every chunk a window, entity or relation names. Lexical
 * indexes are kept when they serialise to the Bm25Index JSON.
 */
export async function piecesFromCorpusIndex(options: PiecesFromCorpusIndexOptions): Promise<PiecesFromCorpusIndexResult> {
  const { index, abortSignal } = options;
  const encodeBatchSize = options.encodeBatchSize ?? 256;
  if (!Number.isInteger(encodeBatchSize) || encodeBatchSize < 1) {
    throw new InvalidArgumentError({ argument: 'encodeBatchSize', message: 'must be a positive integer' });
  }
  const { entities, relations } = await readGraph(index, abortSignal);
  const { windows, chunks } = readTexts(index, [...entities, ...relations]);
  const reading: VectorReading = {
    index,
    options,
    nodeById: new Map(entities.map((node) => [node.id, node])),
    edgeById: new Map(relations.map((edge) => [edge.id, edge])),
    windows,
    async encode(texts) {
      const out: Float32Array[] = [];
      for (const batch of batches(texts, encodeBatchSize)) {
        out.push(...(await index.encoder.encode(batch, { abortSignal })));
        throwIfAborted(abortSignal, 'encode');
      }
      return out;
    },
  };
  const vectorSources = {} as Record<VectorKind, VectorSource>;
  const vectors = {} as Record<VectorKind, VectorTablePiece>;
  const ids: Record<VectorKind, readonly string[]> = { entities: index.entityIds, relations: index.relationIds, windows: index.windowIds };
  for (const kind of VECTOR_KINDS) {
    const read = await vectorsOf(reading, kind);
    vectors[kind] = { ids: ids[kind], vectors: read.vectors };
    vectorSources[kind] = read.source;
  }
  const lexical: Partial<Record<VectorKind, LexicalPiece>> = {};
  for (const kind of VECTOR_KINDS) {
    const json = lexicalJson(index.lexical?.[kind]);
    if (json) lexical[kind] = json;
  }
  const documents = (index as { documents?: readonly SourceDocument[] }).documents;
  return {
    pieces: {
      manifest: index.manifest,
      entities: entities.map(({ degree: _degree, ...node }) => node),
      relations,
      chunks,
      windows,
      ...(Array.isArray(documents) ? { documents } : {}),
      vectors,
      ...(Object.keys(lexical).length > 0 ? { lexical } : {}),
    },
    vectorSources,
  };
}
