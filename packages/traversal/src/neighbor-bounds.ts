import type { Neighbor, NumberedEdgeView } from '@mosaic/spec';
import { forEachPassageChunk, passageChunkNumbers, WeightedLru } from '@mosaic/stage-utils/internal';

/** Neighbour lists of at least this many relations are bounded from a table (see `NeighborBoundTables`). */
export const BOUND_TABLE_MIN = 256;

/**
 * One neighbour list's relations as numbers: relation i's label in an index id list (`labelOf`, −1
 * when the list does not hold it), and the chunks its passage relevance reads (`chunks[chunkStart[i]
 * … chunkStart[i + 1])`, numbers in a chunk numbering, −1 for a chunk it does not hold): the chunks
 * `forEachPassageChunk` gives, as `PassageRelevance.relation` reads them. Each part is made on first
 * use and remade when asked with another map.
 */
interface BoundTable {
  labels?: ReadonlyMap<string, number>;
  labelOf?: Int32Array;
  numbering?: ReadonlyMap<string, number>;
  chunkStart?: Int32Array;
  chunks?: Int32Array;
}

/** Edge numbers and passage chunk numbers `NeighborBoundTables` keeps by default (about 8 bytes each). */
const DEFAULT_EDGE_CHUNK_LIMIT = 4_000_000;

/** One node's relations' passage chunks (see `NeighborBoundTables.edgeChunksOf`). */
interface EdgeChunks {
  edges: Uint32Array;
  numbering: ReadonlyMap<string, number>;
  start: Uint32Array;
  chunks: Int32Array;
}

function sameEdges(a: Uint32Array, b: Uint32Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The numbers a hub's relations are bounded with, kept per neighbour list across questions. A
 * graph store that keeps its neighbour lists (CompactGraphStore returns the same list object while
 * its cache holds it) gets the table back for every question that reaches the hub; a list the
 * store no longer holds takes its table with it (weakly keyed). Bounding a relation is then two
 * array reads and a max over its chunks' scores, instead of a lookup by relation id into the
 * whole index's label map and one by chunk id per sentence.
 */
export class NeighborBoundTables {
  readonly #tables = new WeakMap<readonly Neighbor[], BoundTable>();
  readonly #edgeLabels = new WeakMap<NumberedEdgeView, EdgeLabels>();
  readonly #edgeChunks = new WeakMap<NumberedEdgeView, WeightedLru<string, EdgeChunks>>();

  constructor(private readonly edgeChunkLimit = DEFAULT_EDGE_CHUNK_LIMIT) {}

  /**
   * `passageChunkNumbers(view, edges, numbering)` of a node's relations, kept per view and node
   * across questions (a hub's relations name the same chunks for every question), least recently used
   * dropped beyond the limit's numbers. A kept table serves only the same edges (checked one by one:
   * a store may hand the edge numbers in a new array each time) and the same numbering.
   */
  edgeChunksOf(view: NumberedEdgeView, node: string, edges: Uint32Array, numbering: ReadonlyMap<string, number>): { start: Uint32Array; chunks: Int32Array } {
    let kept = this.#edgeChunks.get(view);
    if (!kept) this.#edgeChunks.set(view, (kept = new WeightedLru({ limit: this.edgeChunkLimit, weigh: (table) => table.edges.length + table.chunks.length })));
    const known = kept.get(node);
    if (known && known.numbering === numbering && sameEdges(known.edges, edges)) return known;
    const { start, chunks } = passageChunkNumbers(view, edges, numbering);
    const table = { edges: edges.slice(), numbering, start, chunks: chunks.slice() };
    kept.set(node, table);
    return table;
  }

  /**
   * The labels in `labels` of `view`'s edges (one table over every edge number, `edgeCount` of them,
   * kept per view and map): a graph store that numbers its edges lets a hub's relations be bounded
   * without building its neighbour list.
   */
  edgeLabels(view: NumberedEdgeView, labels: { labels: ReadonlyMap<string, number>; ids: readonly string[] }, edgeCount: number): EdgeLabels {
    let table = this.#edgeLabels.get(view);
    if (!table?.fits(labels.labels, edgeCount)) this.#edgeLabels.set(view, (table = new EdgeLabels(view, labels, edgeCount)));
    return table;
  }

  /** `labelOf` of `list` for `labels` (made once per list and map). */
  labelsOf(list: readonly Neighbor[], labels: ReadonlyMap<string, number>): Int32Array {
    const table = this.#tableOf(list);
    if (table.labels !== labels || table.labelOf?.length !== list.length) {
      const labelOf = new Int32Array(list.length);
      for (let i = 0; i < list.length; i += 1) labelOf[i] = labels.get(list[i].edge.id) ?? -1;
      table.labels = labels;
      table.labelOf = labelOf;
    }
    return table.labelOf;
  }

  /** The passage chunks of `list`'s relations in `numbering` (made once per list and numbering). */
  chunksOf(list: readonly Neighbor[], numbering: ReadonlyMap<string, number>): { chunkStart: Int32Array; chunks: Int32Array } {
    const table = this.#tableOf(list);
    if (table.numbering !== numbering || table.chunkStart?.length !== list.length + 1 || !table.chunks) {
      const chunkStart = new Int32Array(list.length + 1);
      const numbers: number[] = [];
      const push = (chunkId: string) => numbers.push(numbering.get(chunkId) ?? -1);
      for (let i = 0; i < list.length; i += 1) {
        forEachPassageChunk(list[i].edge, push);
        chunkStart[i + 1] = numbers.length;
      }
      table.numbering = numbering;
      table.chunkStart = chunkStart;
      table.chunks = Int32Array.from(numbers);
    }
    return { chunkStart: table.chunkStart, chunks: table.chunks };
  }

  #tableOf(list: readonly Neighbor[]): BoundTable {
    let table = this.#tables.get(list);
    if (!table) this.#tables.set(list, (table = {}));
    return table;
  }
}

/**
 * Edge number k's label in an id → label map (−1 when the map does not hold its id). When the ids
 * the labels number are the graph's edge ids in edge order (an index built by Mosaic numbers its
 * relations as its graph's edges: checked once, id by id), edge k's label is k; else each is looked
 * up once and kept.
 */
export class EdgeLabels {
  readonly #view: NumberedEdgeView;
  readonly #labels: ReadonlyMap<string, number>;
  readonly #edgeCount: number;
  /** Labels are edge numbers. */
  readonly #same: boolean;
  /** Per edge number: its label, −1 when absent, −2 until first asked (empty when `#same`). */
  readonly #labelOf: Int32Array;

  constructor(view: NumberedEdgeView, labels: { labels: ReadonlyMap<string, number>; ids: readonly string[] }, edgeCount: number) {
    this.#view = view;
    this.#labels = labels.labels;
    this.#edgeCount = edgeCount;
    const { ids } = labels;
    let same = ids.length === edgeCount && this.#labels.size === edgeCount;
    for (let k = 0; same && k < edgeCount; k += 1) same = ids[k] === view.edgeId(k);
    this.#same = same;
    this.#labelOf = new Int32Array(same ? 0 : edgeCount).fill(-2);
  }

  fits(labels: ReadonlyMap<string, number>, edgeCount: number): boolean {
    return this.#labels === labels && this.#edgeCount === edgeCount;
  }

  of(edge: number): number {
    if (this.#same) return edge;
    let label = this.#labelOf[edge];
    if (label === -2) this.#labelOf[edge] = label = this.#labels.get(this.#view.edgeId(edge)) ?? -1;
    return label;
  }
}
