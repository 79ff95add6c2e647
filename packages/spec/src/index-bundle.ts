import type { ChunkStore } from './corpus.js';
import type { GraphStore } from './graph.js';
import type { Encoder, LexicalIndex, VectorIndex } from './models.js';

/** What an index directory records about itself. */
export interface IndexManifest {
  formatVersion: number;
  corpus: string;
  encoder: { id: string; dimension: number };
  extractor: string;
  /** sha256 of the corpus text, hex. */
  corpusChecksum: string;
  counts: {
    documents: number;
    chunks: number;
    windows: number;
    entities: number;
    relations: number;
  };
  window: { size: number; stride: number };
  vectorIndex: { factory: string };
  buildTimeMs: number;
  createdAt: string;
}

/**
 * A loaded corpus index: the graph, the chunk store and three vector indexes whose labels
 * map to ids through the `*Ids` arrays. Every retrieval stage reads only this.
 */
export interface CorpusIndex {
  manifest: IndexManifest;
  graph: GraphStore;
  chunks: ChunkStore;
  encoder: Encoder;
  /** Entity index (name + description); label i ↔ entityIds[i]. */
  entityIndex: VectorIndex;
  entityIds: readonly string[];
  /** Relation index (relation text); label i ↔ relationIds[i]. */
  relationIndex: VectorIndex;
  relationIds: readonly string[];
  /** Window index (every window precomputed); label i ↔ windowIds[i]. */
  windowIndex: VectorIndex;
  windowIds: readonly string[];
  /** Optional lexical indexes over the same labels, for score fusion. */
  lexical?: {
    entities?: LexicalIndex;
    relations?: LexicalIndex;
    windows?: LexicalIndex;
  };
  /** Precomputed vector of a window by id, when available (avoids re-encoding). */
  windowVector?(id: string): Float32Array | undefined;
  /**
   * Stored vector of an entity by id (its row in entityIndex), when available. An index may decode
   * it into `out` (when given, of the index's dimension) and return that array instead of a new one;
   * the caller then reads it before the next call.
   */
  entityVector?(id: string, out?: Float32Array): Float32Array | undefined;
  /** Stored vector of a relation by id (its row in relationIndex), when available; `out` as for `entityVector`. */
  relationVector?(id: string, out?: Float32Array): Float32Array | undefined;
  /**
   * Optional: `entityVector(entityIds[label], out)` read by position, without the lookup by id (a map
   * of half a million ids at 100 MB of text, a cache miss or more each). The same vector, for every
   * label 0 … entityIds.length − 1.
   */
  entityVectorAt?(label: number, out?: Float32Array): Float32Array | undefined;
  /** Optional: `relationVector(relationIds[label], out)` read by position, as `entityVectorAt`. */
  relationVectorAt?(label: number, out?: Float32Array): Float32Array | undefined;
  /** Requests sent to a backing database so far, when the index counts them (the pipeline traces them per stage). */
  readonly roundTrips?: number;
  /**
   * A view of this index for one retrieval (e.g. with a read cache that lives as long as the
   * retrieval). The pipeline calls it once per question and gives the view to every stage.
   */
  forRetrieval?(): CorpusIndex;
}
