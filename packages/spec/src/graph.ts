import type { SentenceTokens } from './corpus.js';

/**
 * Sentence-level provenance: a stretch of one chunk's text (character offsets into the chunk's
 * text, end exclusive) that mentions an entity or states a relation.
 */
export interface TextSpan {
  chunkId: string;
  start: number;
  end: number;
}

/** An entity node of the corpus knowledge graph. */
export interface EntityNode {
  id: string;
  /** Canonical display name. */
  name: string;
  aliases: string[];
  /** Entity type (e.g. 'PERSON', 'CONCEPT', 'HEADING'). */
  type: string;
  description: string;
  /** Ids of the chunks this entity was extracted from. */
  chunkIds: string[];
  degree: number;
  /** True when the label reads as a question ("What is basal cell skin cancer?"). */
  questionLike: boolean;
  /** The sentences that mention it, in corpus order (absent in indexes built without spans). */
  spans?: TextSpan[];
}

/** A relation edge between two entities. */
export interface RelationEdge {
  id: string;
  source: string;
  target: string;
  /** Predicate phrase / relation label. */
  label: string;
  keywords: string[];
  description: string;
  chunkIds: string[];
  /** Optional extraction weight (number of supporting mentions). */
  weight?: number;
  /** The sentences that state it, in corpus order (absent in indexes built without spans). */
  spans?: TextSpan[];
}

/** A node's id, canonical name and aliases (GraphStore.getNodeNames). */
export type NodeNames = Pick<EntityNode, 'id' | 'name' | 'aliases'>;

/** A node without its provenance lists, `chunkIds` and `spans` (GraphStore.getNodeSummaries). */
export type NodeSummary = Omit<EntityNode, 'chunkIds' | 'spans'>;

/**
 * A relation's ends and the chunks its passage is read from (GraphStore.getEdgePassages): `chunkIds`
 * holds the chunk ids of its first `spanLimit` spans (in span order, repeats kept), or its own
 * `chunkIds` when it has no spans — the chunks `PassageRelevance.relation` reads of the whole edge.
 * Without `spans`, it is itself what `PassageRelevance.relation` takes.
 */
export interface EdgePassage {
  id: string;
  source: string;
  target: string;
  chunkIds: string[];
}

/** An incident edge seen from one endpoint. */
export interface Neighbor {
  edge: RelationEdge;
  /** The node on the other side of the edge. */
  node: string;
}

/**
 * Optional view of a graph store that numbers its edges (CompactGraphStore): a node's relations as
 * edge numbers, so that a stage ranking a hub's tens of thousands of relations can read what it
 * ranks them by from numbers and build only the few relations it keeps. Agrees with `neighbors`:
 * `incidentEdges(id)` holds the edges of `neighbors(id)` (as often as that list holds them, in no
 * set order), and `neighbor(id, edge)` is the entry that list has for the edge.
 */
export interface NumberedEdgeView {
  /** Numbers (0 … edgeCount − 1) of the edges incident to node `id`; undefined for an unknown node. Read-only. */
  incidentEdges(id: string): Uint32Array | undefined;
  /** The id of edge number `edge`. */
  edgeId(edge: number): string;
  /** The number of the edge with id `id`; undefined for an unknown id. */
  edgeNumber(id: string): number | undefined;
  /** The entry `neighbors(id)` lists for edge number `edge`: the edge, and its end other than `id`. */
  neighbor(id: string, edge: number): Neighbor;
  /** `neighbor(id, edge).node` (the end of edge number `edge` other than `id`) without building the edge. */
  neighborNode(id: string, edge: number): string;
  /**
   * The chunks a relation's passage is read from, for each edge number in `edges`: the chunk ids of
   * its first `spanLimit` (≥ 1) spans (in span order), or its `chunkIds` when it has no spans; each as its
   * number in `numbering` (−1 for an id the map does not hold). Edge `edges[i]`'s chunks are
   * `chunks[start[i] … start[i + 1])`.
   */
  passageChunks(edges: Uint32Array, spanLimit: number, numbering: ReadonlyMap<string, number>): { start: Uint32Array; chunks: Int32Array };
  /**
   * Optional: `passageChunks(edges, spanLimit, numbering)` of `edges` = the array `incidentEdges(id)`
   * returned (unchanged), read from a table the store keeps for every node of the graph (made on the
   * first call for a `spanLimit` and `numbering`): edge `edges[i]`'s chunks are
   * `chunks[start[i] … start[i + 1])`, where `start[0]` need not be 0. Undefined when `edges` is not
   * that array (ask `passageChunks`).
   */
  incidentPassageChunks?(
    id: string,
    edges: Uint32Array,
    spanLimit: number,
    numbering: ReadonlyMap<string, number>,
  ): { start: Uint32Array; chunks: Int32Array } | undefined;
}

/**
 * The graph interface every stage depends on. Implementations: in-memory graphology
 * (`@mosaic/graph`), or any other store. Batched and async so that a remote store can
 * answer one beam depth in one round trip.
 */
export interface GraphStore {
  readonly specificationVersion: 'v1';
  readonly nodeCount: number;
  readonly edgeCount: number;
  /**
   * Nodes by id, in input order; unknown ids are skipped. With `{ spans: false }` a store may leave
   * each node's `spans` out (a store that offers `spanColumns` does, and a caller then reads the
   * spans there); one that ignores the option gives them anyway.
   */
  getNodes(ids: readonly string[], options?: GetNodesOptions): Promise<EntityNode[]>;
  /**
   * Optional: the names and aliases of nodes by id, in input order, unknown ids skipped — what
   * `getNodes` gives for those two fields, for a store that can give them without building whole
   * nodes (the analyzer's name table reads every node's names once).
   */
  getNodeNames?(ids: readonly string[]): Promise<NodeNames[]>;
  /**
   * Optional: nodes by id without `chunkIds` and `spans`, in input order, unknown ids skipped — what
   * `getNodes` gives for every other field, for a store that can give them without building the
   * provenance lists (a node named in thousands of sentences has thousands of spans; the traversal
   * reads none of them).
   */
  getNodeSummaries?(ids: readonly string[]): Promise<NodeSummary[]>;
  /** Edges by id, in input order; unknown ids are skipped. */
  getEdges(ids: readonly string[]): Promise<RelationEdge[]>;
  /**
   * Optional: edges by id as `EdgePassage`s (ends, and the chunks of their first `spanLimit` spans, an
   * integer ≥ 1, else their chunk ids), in input order, unknown ids skipped — what `getEdges` gives for
   * those, for a store that can give them without building the edges' provenance lists (seed selection
   * reads the passage of every relation hit, and a relation stated in thousands of sentences has
   * thousands of spans and chunk ids).
   */
  getEdgePassages?(ids: readonly string[], spanLimit: number): Promise<EdgePassage[]>;
  /** Incident edges of several nodes at once (one round trip), sorted by edge id. */
  neighbors(ids: readonly string[]): Promise<Map<string, Neighbor[]>>;
  /** Degree above which a node counts as a hub (e.g. a high percentile of degrees). */
  readonly hubDegree: number;
  /** Maximum degree in the graph (for normalising specificity). */
  readonly maxDegree: number;
  /**
   * Optional: the graph's edges by number (see NumberedEdgeView), for a store that keeps them in
   * columns. The traversal ranks a hub's relations through it without building its neighbour list.
   */
  readonly numberedEdges?: NumberedEdgeView;
  /**
   * Optional: the chunks of the spans of node `id` (`kind` 'node') or edge `id` ('edge'), one number
   * per span in the order `getNodes` / `getEdges` give the spans: the chunk id's number in
   * `numbering` (−1 for an id the map does not hold). An empty array for one without spans; undefined
   * for an id the store does not hold. For a store that keeps chunk ids as numbers: a caller that
   * reads a hub's thousands of spans by chunk then looks each distinct chunk up once per numbering,
   * not once per hub and question.
   */
  spanChunkNumbers?(kind: 'node' | 'edge', id: string, numbering: ReadonlyMap<string, number>): Int32Array | undefined;
  /**
   * Optional: the spans of node `id` (`kind` 'node') or edge `id` ('edge') as columns
   * (`SpanColumns`), in the order `getNodes` / `getEdges` give them, without building them; undefined
   * for an id the store does not hold. For a store that keeps spans as numbers: a hub entity is named
   * in thousands of sentences, and evidence selection ranks them all but keeps a dozen, so it builds
   * only those.
   */
  spanColumns?(kind: 'node' | 'edge', id: string): SpanColumns | undefined;
}

/** How `GraphStore.getNodes` builds the nodes. */
export interface GetNodesOptions {
  /** false: the caller does not read `spans` (see `GraphStore.getNodes`). Default true. */
  spans?: boolean;
}

/** A node's or edge's spans read from a store's columns (`GraphStore.spanColumns`): span i is `{ chunkId(i), start(i), end(i) }`. */
export interface SpanColumns {
  /** The number of spans (0 for a node or edge without any). */
  readonly count: number;
  chunkId(i: number): string;
  start(i: number): number;
  end(i: number): number;
  /**
   * Optional: per span, its sentence number in `sentences` (what `sentences.sentence(chunkId(i),
   * start(i), end(i))` gives, −1 for one it does not hold), made for every node's and edge's spans at
   * once the first time a table is asked about and read in place after: a table built from the same
   * spans when the index was built holds them all, so a hub met for the first time costs no lookup.
   */
  sentenceNumbers?(sentences: SentenceTokens): Int32Array;
}
