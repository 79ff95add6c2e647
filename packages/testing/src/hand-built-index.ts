import { createHash } from 'node:crypto';
import { GraphologyGraphStore, createKnowledgeGraph } from '@mosaic/graph';
import { InvalidArgumentError } from '@mosaic/spec';
import type { Chunk, CorpusIndex, Encoder, IndexManifest, SourceDocument, SourceWindow, TextSpan } from '@mosaic/spec';
import { cutWindows, entityText, relationText } from '@mosaic/stage-utils';
import { createHashingEncoder } from './hashing-encoder.js';
import { InMemoryChunkStore } from './in-memory-chunk-store.js';
import { buildTextIndexes } from './text-indexes.js';

export { createHashingEncoder, hashingTokens, hashingVector, type HashingEncoderOptions } from './hashing-encoder.js';

// ---------------------------------------------------------------------------------------------
// Hand-built corpus index
// ---------------------------------------------------------------------------------------------

export interface HandEntity {
  id: string;
  name: string;
  description?: string;
  /** Default 'CONCEPT'. */
  type?: string;
  /** Default: the name ends with '?'. */
  questionLike?: boolean;
  aliases?: string[];
  /** Default: chunks whose text mentions the name (or a synthetic chunk, see buildHandIndex). */
  chunkIds?: string[];
  /** Sentence provenance (offsets into the chunk's text); default none. */
  spans?: TextSpan[];
}

export interface HandRelation {
  /** Default `r<position>`. */
  id?: string;
  source: string;
  target: string;
  label: string;
  description?: string;
  keywords?: string[];
  /** Default: chunks mentioning both endpoint names (or a synthetic chunk). */
  chunkIds?: string[];
  weight?: number;
  /** Sentence provenance (offsets into the chunk's text); default none. */
  spans?: TextSpan[];
}

export interface HandDocument {
  id: string;
  text: string;
  /** Default: the index's corpus name. */
  corpus?: string;
}

export interface BuildHandIndexOptions {
  entities: readonly HandEntity[];
  relations?: readonly HandRelation[];
  /** Source documents. Without `chunks`, each is split into paragraph chunks (blank-line separated). */
  documents?: readonly HandDocument[];
  /** Chunks with offsets into their documents; documents are reconstructed when not given. */
  chunks?: readonly Chunk[];
  /** Default: createHashingEncoder({ dimension: 256 }). */
  encoder?: Encoder;
  /** Corpus name (default 'hand-built'). */
  corpus?: string;
  /** Window size and stride in characters (defaults 1600 / 800). */
  window?: { size?: number; stride?: number };
  /** Build BM25 lexical indexes over entity, relation and window texts (default false). */
  lexical?: boolean;
  /** Passed to GraphologyGraphStore (share of nodes counted as hubs, default 0.05). */
  hubShare?: number;
}

/** A CorpusIndex plus the plain inputs it was built from. */
export interface HandBuiltIndex extends CorpusIndex {
  graph: GraphologyGraphStore;
  documents: SourceDocument[];
  chunkList: Chunk[];
  windowList: SourceWindow[];
  /** Text embedded for each entity, in entityIds order. */
  entityTexts: string[];
  /** Text embedded for each relation, in relationIds order. */
  relationTexts: string[];
}

/** Text embedded for an entity, as `buildIndex` embeds it (`entityText` of @mosaic/stage-utils): "name: description". */
export function entityIndexText(entity: { name: string; description?: string }): string {
  return entityText({ name: entity.name, description: entity.description ?? '' });
}

/** Text embedded for a relation, as `buildIndex` embeds it (`relationText` of @mosaic/stage-utils): "source label target: description". */
export function relationIndexText(relation: { sourceName: string; targetName: string; label: string; description?: string }): string {
  return relationText({ label: relation.label, description: relation.description ?? '' }, relation.sourceName, relation.targetName);
}

function paragraphChunks(document: HandDocument): Chunk[] {
  const chunks: Chunk[] = [];
  const pattern = /\S[\s\S]*?(?=\n\s*\n|$)/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(document.text)) !== null) {
    const text = match[0].trimEnd();
    chunks.push({ id: `${document.id}#${chunks.length}`, documentId: document.id, start: match.index, end: match.index + text.length, text });
  }
  return chunks;
}

function documentsFromChunks(chunks: readonly Chunk[], corpus: string): SourceDocument[] {
  const byDocument = new Map<string, Chunk[]>();
  for (const chunk of chunks) {
    const list = byDocument.get(chunk.documentId) ?? [];
    list.push(chunk);
    byDocument.set(chunk.documentId, list);
  }
  return [...byDocument.entries()].map(([id, list]) => {
    const length = Math.max(...list.map((chunk) => chunk.end));
    const characters = new Array<string>(length).fill(' ');
    for (const chunk of list) for (let i = 0; i < chunk.text.length && chunk.start + i < length; i += 1) characters[chunk.start + i] = chunk.text[i];
    return { id, corpus, text: characters.join('') };
  });
}

/** Fixed windows per document (`cutWindows` of @mosaic/stage-utils), with ids `<document>:w<n>`. */
function documentWindows(documents: readonly SourceDocument[], chunks: readonly Chunk[], size: number, stride: number): SourceWindow[] {
  return documents.flatMap((document) => {
    const documentChunks = chunks.filter((chunk) => chunk.documentId === document.id);
    return cutWindows(document.text, { size, stride }).map(({ start, end, text }, i) => ({
      id: `${document.id}:w${i}`,
      documentId: document.id,
      chunkIds: documentChunks.filter((chunk) => chunk.start < end && chunk.end > start).map((chunk) => chunk.id),
      start,
      end,
      text,
    }));
  });
}

function mentions(text: string, name: string): boolean {
  return name.length > 0 && text.toLowerCase().includes(name.toLowerCase());
}

/**
 * Build a small CorpusIndex by hand, for unit tests of an algorithm on a graph written in the
 * test. An index of a corpus as Mosaic builds it is `loadFixtureIndex()` (the real composition of
 * @mosaic/indexing, recorded); this builder's paragraph chunks are not the real chunker's. The texts
 * embedded are the ones `buildIndex` embeds (`entityIndexText`, `relationIndexText`).
 *
 * A GraphologyGraphStore over the given entities and
 * relations, exact in-memory entity/relation/window indexes filled by `encoder` (entity text:
 * `entityIndexText`, relation text: `relationIndexText`, window text), a chunk store with
 * windows, and optionally BM25 lexical indexes over the same texts.
 *
 * Provenance: without documents or chunks, every entity and relation without `chunkIds` gets
 * its own synthetic document and chunk (`doc:<id>`, text = its index text). With documents or
 * chunks, missing `chunkIds` are filled with the chunks mentioning the entity's name (relation:
 * both endpoint names). Deterministic: the manifest's createdAt is the epoch and buildTimeMs 0.
 */
export async function buildHandIndex(options: BuildHandIndexOptions): Promise<HandBuiltIndex> {
  const corpus = options.corpus ?? 'hand-built';
  const encoder = options.encoder ?? createHashingEncoder();
  const size = options.window?.size ?? 1600;
  const stride = options.window?.stride ?? 800;
  if (!Number.isInteger(size) || size < 1 || !Number.isInteger(stride) || stride < 1) {
    throw new InvalidArgumentError({ argument: 'window', message: 'size and stride must be positive integers' });
  }
  const entityById = new Map<string, HandEntity>();
  for (const entity of options.entities) {
    if (entityById.has(entity.id)) throw new InvalidArgumentError({ argument: 'entities', message: `duplicate entity id ${entity.id}` });
    entityById.set(entity.id, entity);
  }
  const relations = (options.relations ?? []).map((relation, i) => ({ ...relation, id: relation.id ?? `r${i}` }));
  const relationIds = new Set<string>();
  for (const relation of relations) {
    if (!entityById.has(relation.source) || !entityById.has(relation.target)) {
      throw new InvalidArgumentError({ argument: 'relations', message: `relation ${relation.id} has an unknown endpoint` });
    }
    if (relationIds.has(relation.id)) throw new InvalidArgumentError({ argument: 'relations', message: `duplicate relation id ${relation.id}` });
    relationIds.add(relation.id);
  }
  const nameOf = (id: string): string => entityById.get(id)!.name;
  const entityTexts = options.entities.map((entity) => entityIndexText(entity));
  const relationTexts = relations.map((relation) =>
    relationIndexText({
      sourceName: nameOf(relation.source),
      targetName: nameOf(relation.target),
      label: relation.label,
      description: relation.description,
    }),
  );

  // Documents and chunks.
  let documents: SourceDocument[];
  let chunks: Chunk[];
  const entityChunks = new Map<string, string[]>();
  const relationChunks = new Map<string, string[]>();
  if (options.chunks && options.chunks.length > 0) {
    chunks = [...options.chunks];
    documents = options.documents
      ? options.documents.map((document) => ({ id: document.id, corpus: document.corpus ?? corpus, text: document.text }))
      : documentsFromChunks(chunks, corpus);
  } else if (options.documents && options.documents.length > 0) {
    documents = options.documents.map((document) => ({ id: document.id, corpus: document.corpus ?? corpus, text: document.text }));
    chunks = options.documents.flatMap((document) => paragraphChunks(document));
  } else {
    documents = [];
    chunks = [];
    const synthesize = (id: string, text: string, target: Map<string, string[]>) => {
      const documentId = `doc:${id}`;
      documents.push({ id: documentId, corpus, text });
      chunks.push({ id: `${documentId}#0`, documentId, start: 0, end: text.length, text });
      target.set(id, [`${documentId}#0`]);
    };
    options.entities.forEach((entity, i) => {
      if (!entity.chunkIds) synthesize(entity.id, entityTexts[i], entityChunks);
    });
    relations.forEach((relation, i) => {
      if (!relation.chunkIds) synthesize(relation.id, relationTexts[i], relationChunks);
    });
  }
  if (documents.length > 0 && (options.chunks?.length || options.documents?.length)) {
    for (const entity of options.entities) {
      if (entity.chunkIds) continue;
      const names = [entity.name, ...(entity.aliases ?? [])];
      entityChunks.set(
        entity.id,
        chunks.filter((chunk) => names.some((name) => mentions(chunk.text, name))).map((chunk) => chunk.id),
      );
    }
    for (const relation of relations) {
      if (relation.chunkIds) continue;
      relationChunks.set(
        relation.id,
        chunks.filter((chunk) => mentions(chunk.text, nameOf(relation.source)) && mentions(chunk.text, nameOf(relation.target))).map((chunk) => chunk.id),
      );
    }
  }
  const windows = documentWindows(documents, chunks, size, stride);

  // Graph.
  const graph = createKnowledgeGraph();
  for (const entity of options.entities) {
    graph.addNode(entity.id, {
      name: entity.name,
      aliases: entity.aliases ?? [],
      type: entity.type ?? 'CONCEPT',
      description: entity.description ?? '',
      chunkIds: entity.chunkIds ?? entityChunks.get(entity.id) ?? [],
      questionLike: entity.questionLike ?? /\?\s*$/.test(entity.name),
      ...(entity.spans ? { spans: entity.spans } : {}),
    });
  }
  for (const relation of relations) {
    graph.addEdgeWithKey(relation.id, relation.source, relation.target, {
      label: relation.label,
      keywords: relation.keywords ?? [],
      description: relation.description ?? '',
      chunkIds: relation.chunkIds ?? relationChunks.get(relation.id) ?? [],
      ...(relation.weight !== undefined ? { weight: relation.weight } : {}),
      ...(relation.spans ? { spans: relation.spans } : {}),
    });
  }
  const store = new GraphologyGraphStore({ graph, ...(options.hubShare !== undefined ? { hubShare: options.hubShare } : {}) });

  // Vector indexes (one batched encoder call) and, when asked, BM25 over the same texts.
  const indexes = await buildTextIndexes({ encoder, entityTexts, relationTexts, windows, lexical: options.lexical === true });

  const manifest: IndexManifest = {
    formatVersion: 1,
    corpus,
    encoder: { id: encoder.id, dimension: encoder.dimension },
    extractor: 'hand-built',
    corpusChecksum: createHash('sha256')
      .update(documents.map((document) => document.text).join('\n'))
      .digest('hex'),
    counts: {
      documents: documents.length,
      chunks: chunks.length,
      windows: windows.length,
      entities: options.entities.length,
      relations: relations.length,
    },
    window: { size, stride },
    vectorIndex: { factory: 'in-memory' },
    buildTimeMs: 0,
    createdAt: new Date(0).toISOString(),
  };

  return {
    manifest,
    graph: store,
    chunks: new InMemoryChunkStore(chunks, windows),
    encoder,
    entityIndex: indexes.entityIndex,
    entityIds: options.entities.map((entity) => entity.id),
    relationIndex: indexes.relationIndex,
    relationIds: relations.map((relation) => relation.id),
    windowIndex: indexes.windowIndex,
    windowIds: windows.map((window) => window.id),
    ...(indexes.lexical ? { lexical: indexes.lexical } : {}),
    windowVector: indexes.windowVector,
    documents,
    chunkList: chunks,
    windowList: windows,
    entityTexts,
    relationTexts,
  };
}

/**
 * Two chapters that state the same kind of sentence ("a … test confirms the findings"); only the first
 * is about CML. For tests of passage relevance: a sentence does not name its chapter's subject.
 * Chunks are `cml#0` and `garden#0`; relations `rc` (CML chapter) and `rg` (garden chapter) share their
 * label and description, `rx` links the CML node to the blood test, `ry` to the soil test.
 */
export function twoChapterIndexOptions(): BuildHandIndexOptions {
  return {
    documents: [
      { id: 'cml', text: 'Chronic myeloid leukemia CML changes blood counts. A blood test confirms the findings in CML.' },
      { id: 'garden', text: 'Gardening needs patience. A soil test confirms the findings in the garden.' },
    ],
    entities: [
      { id: 'cmlNode', name: 'CML', chunkIds: ['cml#0'] },
      { id: 'bt', name: 'blood test', chunkIds: ['cml#0'] },
      { id: 'f1', name: 'findings', chunkIds: ['cml#0'] },
      { id: 'st', name: 'soil test', chunkIds: ['garden#0'] },
      { id: 'f2', name: 'garden findings', chunkIds: ['garden#0'] },
    ],
    relations: [
      { id: 'rc', source: 'bt', target: 'f1', label: 'confirms', description: 'A test confirms the findings', chunkIds: ['cml#0'] },
      { id: 'rg', source: 'st', target: 'f2', label: 'confirms', description: 'A test confirms the findings', chunkIds: ['garden#0'] },
      { id: 'rx', source: 'cmlNode', target: 'bt', label: 'changes', chunkIds: ['cml#0'] },
      { id: 'ry', source: 'cmlNode', target: 'st', label: 'unrelated to', chunkIds: ['garden#0'] },
    ],
    lexical: true,
  };
}
