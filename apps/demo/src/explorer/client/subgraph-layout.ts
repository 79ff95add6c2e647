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
  /** Distance between consecutive depth rings (default 1). */
  ringGap?: number;
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
 * from its seed and rings do not pile up. Same input, same positions.
 */
export function layoutSubgraph(options: LayoutOptions): Map<string, { x: number; y: number }> {
  const gap = options.ringGap ?? 1;
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

  depths.forEach((depth, ringIndex) => {
    const ring = rings.get(depth)!;
    const innerRadius = rings.get(depths[0]!)!.length === 1 ? 0 : 1;
    const radius = innerRadius + ringIndex * gap;
    const preferred = ring.map((node, i) => {
      const placed = (neighbours.get(node.id) ?? []).map((n) => angles.get(n)).filter((a): a is number => a !== undefined);
      const fallback = (TAU * i) / ring.length;
      return { node, angle: normalizeAngle(circularMean(placed) ?? fallback) };
    });
    if (ringIndex === 0) {
      preferred.sort((a, b) => (a.node.seedRank ?? Infinity) - (b.node.seedRank ?? Infinity) || a.node.id.localeCompare(b.node.id));
      preferred.forEach((p, i) => (p.angle = (TAU * i) / ring.length - Math.PI / 2));
    } else {
      preferred.sort((a, b) => a.angle - b.angle || a.node.id.localeCompare(b.node.id));
      // Even spacing in preferred order, rotated to stay as close as possible to the preferred angles.
      const step = TAU / ring.length;
      const offset = circularMean(preferred.map((p, i) => p.angle - i * step)) ?? 0;
      preferred.forEach((p, i) => (p.angle = offset + i * step));
    }
    for (const { node, angle } of preferred) {
      angles.set(node.id, angle);
      positions.set(node.id, { x: radius * Math.cos(angle), y: radius * Math.sin(angle) });
    }
  });
  return positions;
}
