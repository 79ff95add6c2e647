// Test oracle: this file as it was before the performance work (commit d6aeda6), unchanged.
// The optimised implementation must return deep-equal results; see performance-equivalence.test.ts.

import type { PathScoreTerms } from '@mosaic/spec';
import type { EdgeFeatures, NodeFeatures } from './path-features.js';
import { tokenJaccard } from './text-tokens.js';

/** The weights of equation (8). */
export interface PathWeights {
  /** w_r, relation similarity r̄. */
  relation: number;
  /** w_t, target relevance t̄. */
  target: number;
  /** w_s, specificity s̄. */
  specificity: number;
  /** w_a, anchor consistency ā. */
  anchor: number;
  /** w_x, transition alignment x̄. */
  transition: number;
  /** w_c, coherence c̄. */
  coherence: number;
  /** w_h, hub exposure h̄ (subtracted). */
  hub: number;
  /** w_rep, repetition ρ_rep/h (subtracted). */
  repetition: number;
  /** w_ql, question-like labels ρ_ql (subtracted). */
  questionLike: number;
}

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
export function anchorAdjustedWeights(
  weights: Readonly<PathWeights>,
  anchorStrength: number,
  activation: number = ANCHOR_ACTIVATION,
): PathWeights {
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

function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
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
  const relation = mean(edges.map((edge) => edge.relation));
  const target = mean(nodes.map((node) => node.target));
  const specificity = mean(nodes.map((node) => node.specificity));

  let tied = 0;
  for (let i = 0; i < nodes.length; i += 1) {
    if (nodes[i].anchor || nodes[i - 1]?.anchor === true || nodes[i + 1]?.anchor === true) tied += 1;
  }
  const anchor = nodes.length === 0 ? 0 : tied / nodes.length;

  let transition: number;
  let coherence: number;
  if (h <= 1) {
    transition = edges[0]?.fit ?? 0;
    coherence = h === 1 ? 1 : 0;
  } else {
    const pairsX: number[] = [];
    const pairsC: number[] = [];
    for (let j = 0; j + 1 < h; j += 1) {
      pairsX.push(Math.sqrt(edges[j].fit * edges[j + 1].fit));
      pairsC.push(sharesChunk(edges[j].chunkIds, edges[j + 1].chunkIds) ? 1 : tokenJaccard(edges[j].tokens, edges[j + 1].tokens));
    }
    transition = mean(pairsX);
    coherence = mean(pairsC);
  }

  const hub = nodes.length === 0 ? 0 : nodes.filter((node) => node.hub && !node.anchor).length / nodes.length;

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
  const questionLike = nodes.length === 0 ? 0 : nodes.filter((node) => node.questionLike).length / nodes.length;

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
