import Graph from 'graphology';
import type { AbstractGraph } from 'graphology-types';
import type { EntityNode, GraphStore, Neighbor, RelationEdge } from '@mosaic/spec';

/** Node attributes stored in graphology (everything of EntityNode but id and degree). */
export type EntityAttributes = Omit<EntityNode, 'id' | 'degree'>;
/** Edge attributes stored in graphology (everything of RelationEdge but id and endpoints). */
export type RelationAttributes = Omit<RelationEdge, 'id' | 'source' | 'target'>;

// Typed through graphology-types' AbstractGraph (the interface graphology's classes implement), not
// graphology's default-exported class: consumers compiling under NodeNext with skipLibCheck false
// see graphology's CJS declaration as a namespace, and `Graph<…>` in our .d.ts failed there.
export type KnowledgeGraph = AbstractGraph<EntityAttributes, RelationAttributes>;

/** A new, empty knowledge graph: multi (parallel relations allowed), undirected traversal over directed facts. */
export function createKnowledgeGraph(): KnowledgeGraph {
  return new Graph<EntityAttributes, RelationAttributes>({ type: 'directed', multi: true, allowSelfLoops: false });
}

export interface GraphologyGraphStoreOptions {
  graph: KnowledgeGraph;
  /**
   * Share of nodes counted as hubs: a node is a hub when its degree is at or above the
   * degree at this upper quantile (default 0.05 → top 5 % by degree), and at least 3.
   */
  hubShare?: number;
}

/**
 * The in-memory GraphStore over a graphology graph. Relations are directed facts but are
 * traversed in both directions; neighbours are returned sorted by edge id (deterministic).
 */
export class GraphologyGraphStore implements GraphStore {
  readonly specificationVersion = 'v1' as const;
  readonly graph: KnowledgeGraph;
  readonly hubDegree: number;
  readonly maxDegree: number;
  private readonly neighborCache = new Map<string, Neighbor[]>();

  constructor(options: GraphologyGraphStoreOptions) {
    this.graph = options.graph;
    const degrees: number[] = [];
    this.graph.forEachNode((node) => degrees.push(this.graph.degree(node)));
    degrees.sort((a, b) => b - a);
    const share = options.hubShare ?? 0.05;
    const cut = degrees.length === 0 ? 0 : degrees[Math.min(degrees.length - 1, Math.floor(degrees.length * share))];
    this.hubDegree = Math.max(3, cut);
    this.maxDegree = degrees[0] ?? 0;
  }

  get nodeCount(): number {
    return this.graph.order;
  }

  get edgeCount(): number {
    return this.graph.size;
  }

  async getNodes(ids: readonly string[]): Promise<EntityNode[]> {
    return this.getNodesSync(ids);
  }

  getNodesSync(ids: readonly string[]): EntityNode[] {
    const out: EntityNode[] = [];
    for (const id of ids) {
      if (!this.graph.hasNode(id)) continue;
      out.push({ id, ...this.graph.getNodeAttributes(id), degree: this.graph.degree(id) });
    }
    return out;
  }

  async getEdges(ids: readonly string[]): Promise<RelationEdge[]> {
    return this.getEdgesSync(ids);
  }

  getEdgesSync(ids: readonly string[]): RelationEdge[] {
    const out: RelationEdge[] = [];
    for (const id of ids) {
      if (!this.graph.hasEdge(id)) continue;
      out.push(this.edge(id));
    }
    return out;
  }

  async neighbors(ids: readonly string[]): Promise<Map<string, Neighbor[]>> {
    const result = new Map<string, Neighbor[]>();
    for (const id of ids) {
      if (result.has(id)) continue;
      result.set(id, this.neighborsOf(id));
    }
    return result;
  }

  private neighborsOf(id: string): Neighbor[] {
    const cached = this.neighborCache.get(id);
    if (cached) return cached;
    const list: Neighbor[] = [];
    if (this.graph.hasNode(id)) {
      this.graph.forEachEdge(id, (edgeId, _attributes, source, target) => {
        list.push({ edge: this.edge(edgeId), node: source === id ? target : source });
      });
      list.sort((a, b) => (a.edge.id < b.edge.id ? -1 : a.edge.id > b.edge.id ? 1 : 0));
    }
    this.neighborCache.set(id, list);
    return list;
  }

  private edge(id: string): RelationEdge {
    return {
      id,
      source: this.graph.source(id),
      target: this.graph.target(id),
      ...this.graph.getEdgeAttributes(id),
    };
  }
}
