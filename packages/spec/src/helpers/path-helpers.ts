import type { PathScoreTerms, ScoredPath } from '../values.js';

/** Path id: node and edge ids interleaved, joined by '|' (v0|e1|v1|…|eh|vh). The built-in traverser uses the same ids. */
export function pathId(nodes: readonly string[], edges: readonly string[]): string {
  let out = '';
  for (let i = 0; i < nodes.length; i += 1) {
    if (i > 0) out += '|';
    out += nodes[i];
    if (i < edges.length) out += `|${edges[i]}`;
  }
  return out;
}

/** Every term of equation (8) at 0: for a traverser that scores paths its own way. */
export function emptyScoreTerms(): PathScoreTerms {
  return { relation: 0, target: 0, specificity: 0, anchor: 0, transition: 0, coherence: 0, hub: 0, repetition: 0, questionLike: 0 };
}

export interface ScoredPathInput {
  /** v0 … vh (v0 is the seed unless `seed` says otherwise). */
  nodes: readonly string[];
  /** e1 … eh; one fewer than `nodes`. */
  edges: readonly string[];
  score: number;
  /** Default `nodes[0]`. */
  seed?: string;
  /** Default 'beam'. */
  origin?: ScoredPath['origin'];
  /** Default: every term 0 (`emptyScoreTerms()`); a partial object fills the rest with 0. */
  terms?: Partial<PathScoreTerms>;
}

/** A ScoredPath with its derived fields filled: `id` = pathId, `depth` = edges.length, terms, seed, origin. */
export function scoredPath(input: ScoredPathInput): ScoredPath {
  return {
    id: pathId(input.nodes, input.edges),
    nodes: [...input.nodes],
    edges: [...input.edges],
    score: input.score,
    terms: { ...emptyScoreTerms(), ...input.terms },
    seed: input.seed ?? input.nodes[0],
    origin: input.origin ?? 'beam',
    depth: input.edges.length,
  };
}
