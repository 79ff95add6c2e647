export interface LayoutNode {
  id: string;
  /** First depth that reached the node (0 = seed). */
  depth: number;
  /** Seed order (1-based) for seeds. */
  seedRank?: number;
}

export interface LayoutEdge {
  source: string;
  target: string;
}

export interface LayoutOptions {
  nodes: readonly LayoutNode[];
  edges: readonly LayoutEdge[];
  /** Least distance between consecutive depth rings (default 0.8). */
  ringGap?: number;
  /** Least distance between neighbours on a ring (default 2.4); crowded rings grow. */
  spacing?: number;
}

const TAU = Math.PI * 2;

function circularMean(angles: readonly number[]): number | undefined {
  if (angles.length === 0) return undefined;
  let x = 0;
  let y = 0;
  for (const a of angles) {
    x += Math.cos(a);
    y += Math.sin(a);
  }
  if (Math.abs(x) < 1e-9 && Math.abs(y) < 1e-9) return angles[0];
  return Math.atan2(y, x);
}

function normalizeAngle(angle: number): number {
  const a = angle % TAU;
  return a < 0 ? a + TAU : a;
}

/**
 * Deterministic radial layout of an explored subgraph: seeds on the inner ring (or at the centre when
 * there is one), the nodes first reached at depth d on ring d. Each node is placed near the mean angle of
 * its already placed neighbours, then the ring is spread evenly in that order, so a path grows outward
 * from its seed and rings do not pile up. Same nodes and edges (in any order), same positions.
 */
export function layoutSubgraph(options: LayoutOptions): Map<string, { x: number; y: number }> {
  const gap = options.ringGap ?? 0.8;
  const spacing = options.spacing ?? 2.4;
  const positions = new Map<string, { x: number; y: number }>();
  const angles = new Map<string, number>();
  const neighbours = new Map<string, string[]>();
  for (const { source, target } of options.edges) {
    if (source === target) continue;
    (neighbours.get(source) ?? neighbours.set(source, []).get(source)!).push(target);
    (neighbours.get(target) ?? neighbours.set(target, []).get(target)!).push(source);
  }
  const rings = new Map<number, LayoutNode[]>();
  for (const node of options.nodes) (rings.get(node.depth) ?? rings.set(node.depth, []).get(node.depth)!).push(node);
  const depths = [...rings.keys()].sort((a, b) => a - b);
  // Input order must not matter: rings and neighbour lists are sorted by id.
  for (const ring of rings.values()) ring.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const list of neighbours.values()) list.sort();

  let radius = 0;
  depths.forEach((depth, ringIndex) => {
    const ring = rings.get(depth)!;
    const needed = ring.length === 1 ? 0 : Math.max(1, (ring.length * spacing) / TAU);
    radius = ringIndex === 0 ? needed : Math.max(radius + gap, needed);
    const preferred = ring.map((node, i) => {
      const placed = (neighbours.get(node.id) ?? []).map((n) => angles.get(n)).filter((a): a is number => a !== undefined);
      const fallback = (TAU * i) / ring.length;
      return { node, angle: normalizeAngle(circularMean(placed) ?? fallback) };
    });
    if (ringIndex === 0) {
      preferred.sort((a, b) => (a.node.seedRank ?? Infinity) - (b.node.seedRank ?? Infinity) || (a.node.id < b.node.id ? -1 : 1));
      preferred.forEach((p, i) => {
        p.angle = (TAU * i) / ring.length - Math.PI / 2;
      });
    } else {
      preferred.sort((a, b) => a.angle - b.angle || (a.node.id < b.node.id ? -1 : 1));
      // Even spacing in preferred order, rotated to stay as close as possible to the preferred angles.
      const step = TAU / ring.length;
      const offset = circularMean(preferred.map((p, i) => p.angle - i * step)) ?? 0;
      preferred.forEach((p, i) => {
        p.angle = offset + i * step;
      });
    }
    for (const { node, angle } of preferred) {
      angles.set(node.id, angle);
      positions.set(node.id, { x: radius * Math.cos(angle), y: radius * Math.sin(angle) });
    }
  });
  return positions;
}
