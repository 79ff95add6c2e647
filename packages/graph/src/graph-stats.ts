import type { KnowledgeGraph } from './graphology-graph-store.js';

export interface GraphStats {
  nodes: number;
  edges: number;
  /** 2·edges / nodes (each edge counted at both ends). */
  meanDegree: number;
  maxDegree: number;
  /** Degree from which a node counts as a hub (same rule as GraphologyGraphStore). */
  hubDegree: number;
  /** Share of nodes with degree ≥ hubDegree. */
  hubShare: number;
  /** Nodes with no edge. */
  isolatedNodes: number;
  /** Weakly connected components (isolated nodes included). */
  components: number;
  /** Share of nodes in the largest weakly connected component. */
  largestComponentShare: number;
  /** Nodes flagged question-like. */
  questionLikeNodes: number;
}

export interface GraphStatsOptions {
  graph: KnowledgeGraph;
  /** Hub quantile, as in GraphologyGraphStore (default 0.05). */
  hubShare?: number;
}

/** Size, degree and connectivity figures of a knowledge graph. */
export function computeGraphStats(options: GraphStatsOptions): GraphStats {
  const { graph } = options;
  const degrees: number[] = [];
  let isolated = 0;
  let questionLike = 0;
  graph.forEachNode((node, attributes) => {
    const degree = graph.degree(node);
    degrees.push(degree);
    if (degree === 0) isolated++;
    if (attributes.questionLike) questionLike++;
  });
  const sorted = [...degrees].sort((a, b) => b - a);
  const quantile = options.hubShare ?? 0.05;
  const cut = sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * quantile))];
  const hubDegree = Math.max(3, cut);
  const hubs = degrees.filter((d) => d >= hubDegree).length;

  // Weakly connected components by iterative DFS.
  const seen = new Set<string>();
  let components = 0;
  let largest = 0;
  graph.forEachNode((start) => {
    if (seen.has(start)) return;
    components++;
    let size = 0;
    const stack = [start];
    seen.add(start);
    while (stack.length > 0) {
      const node = stack.pop()!;
      size++;
      graph.forEachNeighbor(node, (neighbor) => {
        if (!seen.has(neighbor)) {
          seen.add(neighbor);
          stack.push(neighbor);
        }
      });
    }
    if (size > largest) largest = size;
  });

  const nodes = graph.order;
  return {
    nodes,
    edges: graph.size,
    meanDegree: nodes === 0 ? 0 : (2 * graph.size) / nodes,
    maxDegree: sorted[0] ?? 0,
    hubDegree,
    hubShare: nodes === 0 ? 0 : hubs / nodes,
    isolatedNodes: isolated,
    components,
    largestComponentShare: nodes === 0 ? 0 : largest / nodes,
    questionLikeNodes: questionLike,
  };
}
