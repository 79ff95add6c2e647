/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import Graph from 'graphology';
import Sigma from 'sigma';
import type { ExplorerAskResponse, ExplorerEdge, ExplorerNode } from '../explorer-types.js';
import { BEAM_EDGE_COLOR, CONNECTOR_EDGE_COLOR, HUB_COLOR, ROLE_COLORS, SEED_COLOR, depthColor, targetColor } from './colors.js';
import { h } from './dom.js';
import { layoutSubgraph } from './subgraph-layout.js';

export interface GraphFocus {
  nodes: readonly string[];
  edges: readonly string[];
}

export interface GraphView {
  /** Show what the traversal had reached by `depth` (0 = seeds only); the beam kept at `depth` is emphasised. */
  setDepth(depth: number): void;
  /** Emphasise some nodes and edges (a path, an evidence unit's paths); undefined clears. */
  focus(focus: GraphFocus | undefined): void;
  kill(): void;
}

export interface GraphViewOptions {
  /** Smaller nodes and fewer labels (side-by-side comparison). */
  compact?: boolean;
}

/** `type` is sigma's node program; the entity type moves to `entityType`. */
type NodeAttributes = Omit<ExplorerNode, 'type'> & { entityType: string; type: 'circle'; x: number; y: number; size: number; color: string; label: string };
type EdgeAttributes = ExplorerEdge & { size: number; color: string };

const DIM_NODE = '#d5dae1';
const DIM_EDGE = '#e6e9ee';

function nodeColor(node: ExplorerNode): string {
  if (node.targetIndices.length > 0) return targetColor(node.targetIndices[0]!);
  if (node.seed) return SEED_COLOR;
  if (node.hub) return HUB_COLOR;
  return depthColor(node.depth);
}

function nodeLabel(node: ExplorerNode): string {
  const hub = node.hub ? ` · hub, degree ${node.degree}` : '';
  return node.seed ? `S${node.seedRank} ${node.name}${hub}` : `${node.name}${hub}`;
}

function edgeColor(edge: ExplorerEdge): string {
  if (edge.roles.length > 0) return ROLE_COLORS[edge.roles[0]!];
  return edge.connector ? CONNECTOR_EDGE_COLOR : BEAM_EDGE_COLOR;
}

/**
 * Draw the explored subgraph with sigma.js over a graphology graph: seeds coloured per target (orange
 * when the seed query was the whole question), other nodes by the depth that reached them, hubs dark
 * with their degree in the label; beam edges grey, connector edges pink, edges of selected paths in
 * their role's colour and thicker. Throws when the browser has no WebGL (the caller shows why).
 */
export function createGraphView(container: HTMLElement, data: ExplorerAskResponse, options: GraphViewOptions = {}): GraphView {
  const compact = options.compact === true;
  const graph = new Graph<NodeAttributes, EdgeAttributes>({ multi: true, type: 'directed', allowSelfLoops: true });
  const positions = layoutSubgraph({ nodes: data.graph.nodes, edges: data.graph.edges });
  for (const node of data.graph.nodes) {
    const position = positions.get(node.id) ?? { x: 0, y: 0 };
    const base = node.seed ? 13 : node.hub ? 10 : node.roles.length > 0 ? 8 : 6;
    graph.addNode(node.id, {
      ...node,
      entityType: node.type,
      type: 'circle',
      x: position.x,
      y: position.y,
      size: compact ? base * 0.7 : base,
      color: nodeColor(node),
      label: nodeLabel(node),
    });
  }
  for (const edge of data.graph.edges) {
    if (!graph.hasNode(edge.source) || !graph.hasNode(edge.target)) continue;
    const size = edge.roles.length > 0 ? 3.2 : edge.connector ? 2.4 : 1.4;
    graph.addDirectedEdgeWithKey(edge.id, edge.source, edge.target, { ...edge, size: compact ? size * 0.8 : size, color: edgeColor(edge) });
  }

  const state: { depth: number; focus?: { nodes: Set<string>; edges: Set<string> } } = { depth: data.traversal.depthReached };
  const info = h('div', { class: 'node-info', hidden: true });

  const renderer = new Sigma(graph, container, {
    renderEdgeLabels: false,
    defaultEdgeType: 'line',
    labelSize: compact ? 10 : 12,
    labelRenderedSizeThreshold: compact ? 9 : 5,
    labelDensity: compact ? 0.5 : 1,
    zIndex: true,
    stagePadding: compact ? 16 : 36,
    nodeReducer: (id, attributes) => {
      const node = attributes as NodeAttributes;
      if (node.depth > state.depth) return { ...node, hidden: true };
      const focused = !state.focus || state.focus.nodes.has(id);
      const important = node.seed || node.targetIndices.length > 0 || node.roles.length > 0 || node.hub;
      return {
        ...node,
        color: focused ? node.color : DIM_NODE,
        label: focused || node.seed ? node.label : '',
        forceLabel: focused && (compact ? node.seed : important),
        zIndex: focused ? (node.seed ? 3 : 2) : 0,
      };
    },
    edgeReducer: (id, attributes) => {
      const edge = attributes as EdgeAttributes;
      if (edge.depth > state.depth) return { ...edge, hidden: true };
      if (state.focus && !state.focus.edges.has(id)) return { ...edge, color: DIM_EDGE, size: 1, zIndex: 0 };
      const current = edge.beamDepths.includes(state.depth);
      return { ...edge, size: current ? edge.size + 1.2 : edge.size, zIndex: edge.roles.length > 0 ? 2 : current ? 1 : 0 };
    },
  });
  container.appendChild(info);
  renderer.on('clickNode', ({ node }) => {
    const n = graph.getNodeAttributes(node);
    info.replaceChildren(
      h('strong', {}, n.name),
      h(
        'div',
        { class: 'muted' },
        `${n.entityType} · degree ${n.degree}${n.hub ? ' (hub)' : ''} · reached at depth ${n.depth}${n.seed ? ` · seed #${n.seedRank}` : ''}`,
      ),
      h('div', {}, n.roles.length ? `selected paths: ${n.roles.join(', ')}` : 'on no selected path'),
      h('div', {}, n.description),
    );
    info.hidden = false;
  });
  renderer.on('clickStage', () => {
    info.hidden = true;
  });

  return {
    setDepth(depth) {
      state.depth = depth;
      renderer.refresh({ skipIndexation: false });
    },
    focus(focus) {
      state.focus = focus ? { nodes: new Set(focus.nodes), edges: new Set(focus.edges) } : undefined;
      renderer.refresh({ skipIndexation: false });
    },
    kill() {
      renderer.kill();
    },
  };
}
