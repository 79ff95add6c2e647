import type { PathScoreTerms } from '@mosaic/spec';
import type { EdgeFeatures, NodeFeatures } from './path-features.js';
import { tokenJaccard } from '@mosaic/stage-utils';

/**
 * The weights of equation (8), one per term of `PathScoreTerms`: w_r relation similarity r̄, w_t target
 * relevance t̄, w_s specificity s̄, w_a anchor consistency ā, w_x transition alignment x̄, w_c coherence c̄,
 * and — subtracted — w_h hub exposure h̄, w_rep repetition ρ_rep/h, w_ql question-like labels ρ_ql.
 */
export type PathWeights = { [Term in keyof PathScoreTerms]: number };

/** Report defaults (w_r, w_t, w_s, w_a, w_x, w_c, w_h, w_rep, w_ql) = (0.45, 0.15, 0.15, 0.10, 0.15, 0.05, 0.20, 1.0, 1.0). */
export const DEFAULT_PATH_WEIGHTS: Readonly<PathWeights> = Object.freeze({
  relation: 0.45,
  target: 0.15,
  specificity: 0.15,
  anchor: 0.1,
  transition: 0.15,
  coherence: 0.05,
  hub: 0.2,
  repetition: 1.0,
  questionLike: 1.0,
});

/** Anchor strength at or above which the target, anchor, transition and hub weights grow. */
export const ANCHOR_ACTIVATION = 0.4;

/**
 * Weights after the anchor adjustment: when a ≥ 0.4, w_t, w_a, w_x and w_h are multiplied
 * by (1 + a); below 0.4 the weights are unchanged.
 */
export function anchorAdjustedWeights(weights: Readonly<PathWeights>, anchorStrength: number, activation: number = ANCHOR_ACTIVATION): PathWeights {
  const a = Number.isFinite(anchorStrength) ? Math.min(1, Math.max(0, anchorStrength)) : 0;
  if (a < activation) return { ...weights };
  const factor = 1 + a;
  return {
    ...weights,
    target: weights.target * factor,
    anchor: weights.anchor * factor,
    transition: weights.transition * factor,
    hub: weights.hub * factor,
  };
}

function sharesChunk(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const chunk of a) if (b.has(chunk)) return true;
  return false;
}

/**
 * The terms of equation (8) for a path v0 –e1→ v1 … –eh→ vh (h ≥ 1). Definitions:
 * - relation r̄: mean of r(e_j) over the edges.
 * - target t̄: mean of t(v_i) over the nodes.
 * - specificity s̄: mean of s(v_i) over the nodes.
 * - anchor ā: share of nodes at most one hop (along the path) from an anchor node (a seed or a target match).
 * - transition x̄: h = 1: fit(e1); h ≥ 2: mean over consecutive pairs of √(fit(e_j)·fit(e_j+1)).
 * - coherence c̄: h = 1: 1; h ≥ 2: mean over consecutive pairs of 1 when both relations share a
 *   source chunk, else the Jaccard overlap of their label+keyword tokens.
 * - hub h̄: share of nodes that are hubs and not anchors.
 * - repetition ρ_rep: hops j whose relation label repeats an earlier label or whose node v_j
 *   repeats an earlier node's name (0…h).
 * - questionLike ρ_ql: share of question-like nodes.
 */
export function pathTerms(nodes: readonly NodeFeatures[], edges: readonly EdgeFeatures[]): PathScoreTerms {
  const h = edges.length;
  const n = nodes.length;
  // Sums accumulate in path order, as mean() of the mapped values would.
  let relationSum = 0;
  for (let j = 0; j < h; j += 1) relationSum += edges[j].relation;
  const relation = h === 0 ? 0 : relationSum / h;
  let targetSum = 0;
  let specificitySum = 0;
  let tied = 0;
  let hubs = 0;
  let questionLikes = 0;
  for (let i = 0; i < n; i += 1) {
    const node = nodes[i];
    targetSum += node.target;
    specificitySum += node.specificity;
    if (node.anchor || nodes[i - 1]?.anchor === true || nodes[i + 1]?.anchor === true) tied += 1;
    if (node.hub && !node.anchor) hubs += 1;
    if (node.questionLike) questionLikes += 1;
  }
  const target = n === 0 ? 0 : targetSum / n;
  const specificity = n === 0 ? 0 : specificitySum / n;
  const anchor = n === 0 ? 0 : tied / n;

  let transition: number;
  let coherence: number;
  if (h <= 1) {
    transition = edges[0]?.fit ?? 0;
    coherence = h === 1 ? 1 : 0;
  } else {
    let transitionSum = 0;
    let coherenceSum = 0;
    for (let j = 0; j + 1 < h; j += 1) {
      transitionSum += Math.sqrt(edges[j].fit * edges[j + 1].fit);
      coherenceSum += sharesChunk(edges[j].chunkIds, edges[j + 1].chunkIds) ? 1 : tokenJaccard(edges[j].tokens, edges[j + 1].tokens);
    }
    transition = transitionSum / (h - 1);
    coherence = coherenceSum / (h - 1);
  }

  const hub = n === 0 ? 0 : hubs / n;

  let repetition = 0;
  const labels = new Set<string>();
  const names = new Set<string>([nodes[0]?.nameKey ?? '']);
  for (let j = 0; j < h; j += 1) {
    const label = edges[j].labelKey;
    const name = nodes[j + 1]?.nameKey ?? '';
    const repeats = (label.length > 0 && labels.has(label)) || (name.length > 0 && names.has(name));
    if (repeats) repetition += 1;
    labels.add(label);
    names.add(name);
  }
  const questionLike = n === 0 ? 0 : questionLikes / n;

  return { relation, target, specificity, anchor, transition, coherence, hub, repetition, questionLike };
}

/** Equation (8): the weighted sum of the positive terms minus the penalties. */
export function pathScore(terms: PathScoreTerms, hops: number, weights: Readonly<PathWeights>): number {
  const h = Math.max(1, hops);
  return (
    weights.relation * terms.relation +
    weights.target * terms.target +
    weights.specificity * terms.specificity +
    weights.anchor * terms.anchor +
    weights.transition * terms.transition +
    weights.coherence * terms.coherence -
    weights.hub * terms.hub -
    (weights.repetition * terms.repetition) / h -
    weights.questionLike * terms.questionLike
  );
}

/**
 * The running sums behind `pathTerms`, for a path grown one hop at a time (beam expansions):
 * extending a state adds the new node's and edge's values to the sums in path order, so
 * `stateTerms` gives bit for bit what `pathTerms` gives for the whole path.
 */
export interface PathTermState {
  parent: PathTermState | undefined;
  /** The last node. */
  node: NodeFeatures;
  /** The last edge (undefined for a one-node path). */
  edge: EdgeFeatures | undefined;
  /** Nodes and edges. */
  n: number;
  h: number;
  relationSum: number;
  targetSum: number;
  specificitySum: number;
  /** Nodes tied to an anchor among all but the last node (their neighbours along the path are final). */
  tiedBeforeLast: number;
  /** The last node is an anchor or follows one. */
  lastTiedSoFar: boolean;
  hubs: number;
  questionLikes: number;
  transitionSum: number;
  coherenceSum: number;
  repetition: number;
}

/** The state of a one-node path. */
export function startTermState(node: NodeFeatures): PathTermState {
  return {
    parent: undefined,
    node,
    edge: undefined,
    n: 1,
    h: 0,
    relationSum: 0,
    targetSum: 0 + node.target,
    specificitySum: 0 + node.specificity,
    tiedBeforeLast: 0,
    lastTiedSoFar: node.anchor,
    hubs: node.hub && !node.anchor ? 1 : 0,
    questionLikes: node.questionLike ? 1 : 0,
    transitionSum: 0,
    coherenceSum: 0,
    repetition: 0,
  };
}

/** Writes into `out` the state of `state`'s path extended by `edge` to `node`; returns `out`. */
export function extendTermStateInto(out: PathTermState, state: PathTermState, edge: EdgeFeatures, node: NodeFeatures): PathTermState {
  const previous = state.edge;
  let transitionSum = state.transitionSum;
  let coherenceSum = state.coherenceSum;
  if (previous) {
    transitionSum += Math.sqrt(previous.fit * edge.fit);
    coherenceSum += sharesChunk(previous.chunkIds, edge.chunkIds) ? 1 : tokenJaccard(previous.tokens, edge.tokens);
  }
  // Repetition: the new label among the earlier edges' labels, the new name among the earlier nodes' names.
  const label = edge.labelKey;
  const name = node.nameKey;
  let repeats = false;
  for (let at: PathTermState | undefined = state; at && !repeats; at = at.parent) {
    if (label.length > 0 && at.edge?.labelKey === label) repeats = true;
    else if (name.length > 0 && at.node.nameKey === name) repeats = true;
  }
  out.parent = state;
  out.node = node;
  out.edge = edge;
  out.n = state.n + 1;
  out.h = state.h + 1;
  out.relationSum = state.relationSum + edge.relation;
  out.targetSum = state.targetSum + node.target;
  out.specificitySum = state.specificitySum + node.specificity;
  out.tiedBeforeLast = state.tiedBeforeLast + (state.lastTiedSoFar || node.anchor ? 1 : 0);
  out.lastTiedSoFar = node.anchor || state.node.anchor;
  out.hubs = state.hubs + (node.hub && !node.anchor ? 1 : 0);
  out.questionLikes = state.questionLikes + (node.questionLike ? 1 : 0);
  out.transitionSum = transitionSum;
  out.coherenceSum = coherenceSum;
  out.repetition = state.repetition + (repeats ? 1 : 0);
  return out;
}

/** The state of `state`'s path extended by `edge` to `node`. */
export function extendTermState(state: PathTermState, edge: EdgeFeatures, node: NodeFeatures): PathTermState {
  return extendTermStateInto(startTermState(node), state, edge, node);
}

/** The terms of equation (8) of the path a state describes (as `pathTerms` computes them). */
export function stateTerms(state: PathTermState): PathScoreTerms {
  const { n, h } = state;
  const tied = state.tiedBeforeLast + (state.lastTiedSoFar ? 1 : 0);
  return {
    relation: h === 0 ? 0 : state.relationSum / h,
    target: state.targetSum / n,
    specificity: state.specificitySum / n,
    anchor: tied / n,
    transition: h <= 1 ? (state.edge?.fit ?? 0) : state.transitionSum / (h - 1),
    coherence: h <= 1 ? (h === 1 ? 1 : 0) : state.coherenceSum / (h - 1),
    hub: state.hubs / n,
    repetition: state.repetition,
    questionLike: state.questionLikes / n,
  };
}
