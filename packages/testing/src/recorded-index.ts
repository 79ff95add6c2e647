import { GraphologyGraphStore, createKnowledgeGraph, type EntityAttributes, type RelationAttributes } from '@mosaic/graph';
import { InvalidArgumentError } from '@mosaic/spec';
import type { Encoder, IndexManifest, SourceDocument } from '@mosaic/spec';
import { entityText, relationText } from '@mosaic/stage-utils';
import { RECORDED_FIXTURE_INDEX } from './__fixtures__/recorded-fixture-index.js';
import type { HandBuiltIndex } from './hand-built-index.js';
import { createHashingEncoder } from './hashing-encoder.js';
import { InMemoryChunkStore } from './in-memory-chunk-store.js';
import { buildTextIndexes } from './text-indexes.js';

/**
 * How the recorded fixture index is built: the fixture corpus's three pages (FIXTURE_DOCUMENTS, one
 * document each, ids = corpus names) cut by @mosaic/indexing's chunker and windows with these
 * settings, each chunk extracted by `fixtureExtraction` and the extractions merged by
 * `mergeExtractions` of @mosaic/graph, all through `composeIndex` of @mosaic/indexing (the
 * composition `buildIndex` uses). A test of @mosaic/indexing rebuilds it and compares.
 */
export const RECORDED_INDEX_SETTINGS = Object.freeze({
  corpus: 'Fixture',
  extractor: 'fixture',
  chunkSize: 400,
  window: Object.freeze({ size: 800, stride: 400 }),
});

/** A chunk or window as recorded: offsets only (the text is sliced from its document). */
export interface RecordedSegment {
  id: string;
  documentId: string;
  start: number;
  end: number;
}

/** The recorded fixture index as plain data: what `composeIndex` produced, without vectors. */
export interface RecordedIndexData {
  corpus: string;
  extractor: string;
  chunkSize: number;
  window: { size: number; stride: number };
  /** The manifest's corpusChecksum (sha256 of the documents). */
  corpusChecksum: string;
  documents: SourceDocument[];
  chunks: RecordedSegment[];
  windows: Array<RecordedSegment & { chunkIds: string[] }>;
  /** Merged entities in merge order (graph nodes). */
  entities: Array<{ id: string } & EntityAttributes>;
  /** Merged relations in merge order (graph edges). */
  relations: Array<{ id: string; source: string; target: string } & RelationAttributes>;
}

/** The recorded fixture index data (generated; see `RECORDED_INDEX_SETTINGS`). */
export function recordedIndexData(): RecordedIndexData {
  return structuredClone(RECORDED_FIXTURE_INDEX as RecordedIndexData);
}

export interface LoadFixtureIndexOptions {
  /** Encoder the vectors are computed with at load (default `createHashingEncoder()`, 256 dimensions). */
  encoder?: Encoder;
  /** Build BM25 lexical indexes over entity, relation and window texts, as `buildIndex` does (default true). */
  lexical?: boolean;
  /** Keep only these documents (ids: 'Medical', 'Novel-90001', 'Novel-90002'), with their chunks, windows and the graph part extracted from them. Default all. */
  documents?: readonly string[];
}

/**
 * The fixture index: the recorded output of @mosaic/indexing's real index composition over the
 * fixture corpus (chunks, windows, merged graph), with exact in-memory vector indexes filled at load
 * by `encoder` over the texts `buildIndex` embeds (`entityText`, `relationText`, window text) and
 * BM25 indexes over the same texts. Deterministic; no @mosaic/indexing needed at run time.
 */
export async function loadFixtureIndex(options: LoadFixtureIndexOptions = {}): Promise<HandBuiltIndex> {
  const data = recordedIndexData();
  const encoder = options.encoder ?? createHashingEncoder();
  let { documents, chunks, windows, entities, relations } = data;
  if (options.documents) {
    const known = new Set(documents.map((document) => document.id));
    for (const id of options.documents) {
      if (!known.has(id)) throw new InvalidArgumentError({ argument: 'documents', message: `no recorded document '${id}' (known: ${[...known].join(', ')})` });
    }
    const kept = new Set(options.documents);
    documents = documents.filter((document) => kept.has(document.id));
    chunks = chunks.filter((chunk) => kept.has(chunk.documentId));
    windows = windows.filter((window) => kept.has(window.documentId));
    const chunkIds = new Set(chunks.map((chunk) => chunk.id));
    const keep = <T extends { chunkIds: string[] }>(item: T): T | undefined => {
      const ids = item.chunkIds.filter((id) => chunkIds.has(id));
      return ids.length > 0 ? { ...item, chunkIds: ids } : undefined;
    };
    entities = entities.flatMap((entity) => {
      const kept = keep(entity);
      return kept ? [{ ...kept, ...(entity.spans ? { spans: entity.spans.filter((span) => chunkIds.has(span.chunkId)) } : {}) }] : [];
    });
    const entityIds = new Set(entities.map((entity) => entity.id));
    relations = relations.flatMap((relation) => {
      const kept = keep(relation);
      return kept && entityIds.has(relation.source) && entityIds.has(relation.target)
        ? [{ ...kept, ...(relation.spans ? { spans: relation.spans.filter((span) => chunkIds.has(span.chunkId)) } : {}) }]
        : [];
    });
  }
  const textOf = new Map(documents.map((document) => [document.id, document.text]));
  const slice = <T extends RecordedSegment>(segment: T) => ({ ...segment, text: textOf.get(segment.documentId)!.slice(segment.start, segment.end) });
  const chunkList = chunks.map(slice);
  const windowList = windows.map(slice);

  const graph = createKnowledgeGraph();
  for (const { id, ...attributes } of entities) graph.addNode(id, attributes);
  for (const { id, source, target, ...attributes } of relations) graph.addEdgeWithKey(id, source, target, attributes);
  const nameOf = new Map(entities.map((entity) => [entity.id, entity.name]));
  const entityTexts = entities.map((entity) => entityText(entity));
  const relationTexts = relations.map((relation) => relationText(relation, nameOf.get(relation.source)!, nameOf.get(relation.target)!));
  const indexes = await buildTextIndexes({ encoder, entityTexts, relationTexts, windows: windowList, lexical: options.lexical !== false });

  const manifest: IndexManifest = {
    formatVersion: 1,
    corpus: data.corpus,
    encoder: { id: encoder.id, dimension: encoder.dimension },
    extractor: data.extractor,
    corpusChecksum: data.corpusChecksum,
    counts: { documents: documents.length, chunks: chunks.length, windows: windows.length, entities: entities.length, relations: relations.length },
    window: { ...data.window },
    vectorIndex: { factory: 'in-memory' },
    buildTimeMs: 0,
    createdAt: new Date(0).toISOString(),
  };
  return {
    manifest,
    graph: new GraphologyGraphStore({ graph }),
    chunks: new InMemoryChunkStore(chunkList, windowList),
    encoder,
    entityIndex: indexes.entityIndex,
    entityIds: entities.map((entity) => entity.id),
    relationIndex: indexes.relationIndex,
    relationIds: relations.map((relation) => relation.id),
    windowIndex: indexes.windowIndex,
    windowIds: windowList.map((window) => window.id),
    ...(indexes.lexical ? { lexical: indexes.lexical } : {}),
    windowVector: indexes.windowVector,
    documents,
    chunkList,
    windowList,
    entityTexts,
    relationTexts,
  };
}

/** The id of the fixture index's entity named `name` (case-insensitive); throws when there is none. */
export function fixtureEntityId(index: Pick<HandBuiltIndex, 'graph'>, name: string): string {
  const wanted = name.toLowerCase();
  let found: string | undefined;
  index.graph.graph.forEachNode((id, attributes) => {
    if (found === undefined && attributes.name.toLowerCase() === wanted) found = id;
  });
  if (found === undefined) throw new InvalidArgumentError({ argument: 'name', message: `the fixture index has no entity named '${name}'` });
  return found;
}

/** The id of the fixture index's relation `source label target` (entity names, case-insensitive); throws when there is none. */
export function fixtureRelationId(index: Pick<HandBuiltIndex, 'graph'>, source: string, label: string, target: string): string {
  const from = fixtureEntityId(index, source);
  const to = fixtureEntityId(index, target);
  const found = index.graph.graph.edges(from, to).find((id) => index.graph.graph.getEdgeAttribute(id, 'label') === label);
  if (found === undefined) throw new InvalidArgumentError({ argument: 'label', message: `the fixture index has no relation '${source} ${label} ${target}'` });
  return found;
}
