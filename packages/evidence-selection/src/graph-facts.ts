import { throwIfAborted, type EntityNode, type GraphStore, type RelationEdge, type SpanColumns, type TextSpan } from '@mosaic/spec';
import { compareStrings } from '@mosaic/stage-utils/internal';

/**
 * The nodes and relations one selection has read from the graph. Each `fetch` asks only for ids
 * not asked for before, in one `getNodes` and one `getEdges` call (sorted ids). A store that gives
 * spans as columns (`GraphStore.spanColumns`) is asked for nodes without their spans, and
 * `nodeSpans` reads them there: a hub entity's thousands of sentences are not built. Relations come
 * whole; `edgeColumns` gives a relation's spans as the store's columns too.
 */
export class GraphFacts {
  readonly nodes = new Map<string, EntityNode>();
  readonly edges = new Map<string, RelationEdge>();
  readonly #askedNodes = new Set<string>();
  readonly #askedEdges = new Set<string>();
  readonly #columns: boolean;

  constructor(
    /** The store the facts are read from. */
    readonly graph: GraphStore,
    private readonly abortSignal: AbortSignal | undefined,
  ) {
    this.#columns = typeof graph.spanColumns === 'function';
  }

  /** The spans of node `id` when it was fetched and found: the store's columns when it gives them, else the node's `spans`. */
  nodeSpans(id: string): readonly TextSpan[] | SpanColumns | undefined {
    const node = this.nodes.get(id);
    if (!node) return undefined;
    return this.#columns ? this.graph.spanColumns!('node', id) : node.spans;
  }

  /** The store's columns of edge `id`'s spans, when it gives them and the edge was fetched and found. */
  edgeColumns(id: string): SpanColumns | undefined {
    return this.#columns && this.edges.has(id) ? this.graph.spanColumns!('edge', id) : undefined;
  }

  /** Whether a node was asked for (found or not). */
  askedNode(id: string): boolean {
    return this.#askedNodes.has(id);
  }

  async fetch(nodeIds: Iterable<string>, edgeIds: Iterable<string>): Promise<void> {
    const wantNodes = [...new Set(nodeIds)].filter((id) => !this.#askedNodes.has(id));
    const wantEdges = [...new Set(edgeIds)].filter((id) => !this.#askedEdges.has(id));
    for (const id of wantNodes) this.#askedNodes.add(id);
    for (const id of wantEdges) this.#askedEdges.add(id);
    if (wantNodes.length > 0) {
      const ids = wantNodes.sort(compareStrings);
      for (const node of await (this.#columns ? this.graph.getNodes(ids, { spans: false }) : this.graph.getNodes(ids))) this.nodes.set(node.id, node);
    }
    if (wantEdges.length > 0) for (const edge of await this.graph.getEdges(wantEdges.sort(compareStrings))) this.edges.set(edge.id, edge);
    throwIfAborted(this.abortSignal, 'evidence selection');
  }
}
