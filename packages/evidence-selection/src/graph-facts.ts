import { throwIfAborted, type EntityNode, type GraphStore, type RelationEdge } from '@mosaic/spec';
import { compareStrings } from '@mosaic/stage-utils/internal';

/**
 * The nodes and relations one selection has read from the graph. Each `fetch` asks only for ids
 * not asked for before, in one `getNodes` and one `getEdges` call (sorted ids).
 */
export class GraphFacts {
  readonly nodes = new Map<string, EntityNode>();
  readonly edges = new Map<string, RelationEdge>();
  readonly #askedNodes = new Set<string>();
  readonly #askedEdges = new Set<string>();

  constructor(
    /** The store the facts are read from. */
    readonly graph: GraphStore,
    private readonly abortSignal: AbortSignal | undefined,
  ) {}

  /** Whether a node was asked for (found or not). */
  askedNode(id: string): boolean {
    return this.#askedNodes.has(id);
  }

  async fetch(nodeIds: Iterable<string>, edgeIds: Iterable<string>): Promise<void> {
    const wantNodes = [...new Set(nodeIds)].filter((id) => !this.#askedNodes.has(id));
    const wantEdges = [...new Set(edgeIds)].filter((id) => !this.#askedEdges.has(id));
    for (const id of wantNodes) this.#askedNodes.add(id);
    for (const id of wantEdges) this.#askedEdges.add(id);
    if (wantNodes.length > 0) for (const node of await this.graph.getNodes(wantNodes.sort(compareStrings))) this.nodes.set(node.id, node);
    if (wantEdges.length > 0) for (const edge of await this.graph.getEdges(wantEdges.sort(compareStrings))) this.edges.set(edge.id, edge);
    throwIfAborted(this.abortSignal, 'evidence selection');
  }
}
