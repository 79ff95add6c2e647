import type { PathRole } from '@mosaic/spec';

/** One colour per policy target (seeds and nodes of target i share TARGET_COLORS[i % n]). */
export const TARGET_COLORS = ['#d62728', '#1f77b4', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#bcbd22'];
export const SEED_COLOR = '#ff7f0e';
export const HUB_COLOR = '#5b5f66';
/** Nodes first reached at depth 1, 2, … (lighter = nearer the seeds). */
export const DEPTH_COLORS = ['#ff7f0e', '#9ecae1', '#6baed6', '#4292c6', '#2171b5', '#08519c'];
export const BEAM_EDGE_COLOR = '#b8c0cc';
export const CONNECTOR_EDGE_COLOR = '#e377c2';
export const ROLE_COLORS: Record<PathRole, string> = {
  core: '#2ca02c',
  connector: '#d6278f',
  'uncovered-target': '#ff7f0e',
  'uncovered-facet': '#17a2b8',
  'new-relation': '#9467bd',
  fill: '#8c8c8c',
};
export const ROLE_ORDER: PathRole[] = ['core', 'connector', 'uncovered-target', 'uncovered-facet', 'new-relation', 'fill'];

export function targetColor(index: number): string {
  return TARGET_COLORS[index % TARGET_COLORS.length]!;
}

export function depthColor(depth: number): string {
  return DEPTH_COLORS[Math.min(depth, DEPTH_COLORS.length - 1)]!;
}
