import type { Chunk } from './corpus.js';
import type { AbortOptions } from './models.js';

/** An entity mention extracted from one chunk (before cross-chunk merging). */
export interface ExtractedEntity {
  name: string;
  /** e.g. 'PERSON', 'ORGANIZATION', 'LOCATION', 'CONCEPT', 'HEADING'. */
  type: string;
  description: string;
  /** The mention reads as a question (a heading such as "What is basal cell skin cancer?"). */
  questionLike?: boolean;
  /** The sentences of the chunk that mention it (character offsets into the chunk's text). */
  spans?: ChunkOffsets[];
}

/** A stretch of one chunk's text: character offsets, end exclusive. */
export interface ChunkOffsets {
  start: number;
  end: number;
}

/** A relation extracted from one chunk; endpoints are entity names from the same extraction. */
export interface ExtractedRelation {
  source: string;
  target: string;
  /** Predicate phrase. */
  label: string;
  keywords: string[];
  description: string;
  /** The sentences of the chunk that state it (character offsets into the chunk's text). */
  spans?: ChunkOffsets[];
}

export interface Extraction {
  entities: ExtractedEntity[];
  relations: ExtractedRelation[];
}

export interface ExtractOptions extends AbortOptions {
  chunk: Chunk;
}

/** Chunk text → entities and relations (LightRAG-style). */
export interface Extractor {
  readonly specificationVersion: 'v1';
  /** Stable id recorded in the index manifest (e.g. 'offline:wink', 'openai:gpt-4o-mini'). */
  readonly id: string;
  extract(options: ExtractOptions): Promise<Extraction>;
}
