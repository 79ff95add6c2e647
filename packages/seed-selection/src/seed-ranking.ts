import type { Seed, SelectionMode } from '@mosaic/spec';
import { compareStrings } from '@mosaic/stage-utils/internal';
import type { MentionFactor } from './mention-factor.js';
import type { ScoredHits } from './relation-scores.js';

/** The score components behind one candidate of one query. */
export interface SeedComponents {
  nodeId: string;
  query: string;
  /** Dense entity-index similarity (clamped to [0,1]; 0 when not among the hits). */
  entityDense: number;
  /** Normalised BM25 entity score (0 without a lexical index or hit). */
  entityLexical: number;
  /** Dense similarity of the relation that gave s_rel. */
  relationDense: number;
  /** Normalised BM25 score of that relation. */
  relationLexical: number;
  /** Passage term of that relation (0 when off). */
  relationPassage: number;
  /** The incident relation hit with the best fused score (s_rel = its score). */
  viaRelation?: string;
  /** m(v): share of the node name's content tokens found in the query (1 when the mention factor is off). */
  mention: number;
}

/** A node proposed by one query. */
export interface Candidate {
  seed: Seed;
  components: SeedComponents;
}

/** Best first: score, then node id, then target index. */
function compareCandidates(a: Candidate, b: Candidate): number {
  return b.seed.score - a.seed.score || compareStrings(a.seed.nodeId, b.seed.nodeId) || (a.seed.targetIndex ?? -1) - (b.seed.targetIndex ?? -1);
}

/**
 * s_seed per query, ranked: relation-only s_seed = s_rel; hybrid s_seed = w·s_ent + (1 − w)·s_rel,
 * with s_ent = (1 − λ)·dense + λ·bm25; either times the mention factor (1 − μ) + μ·m(v).
 * Candidates scoring 0 are dropped.
 */
export function rankCandidates(options: {
  scored: readonly ScoredHits[];
  mention: MentionFactor;
  lambda: number;
  selectionMode: SelectionMode;
  hybridEntityWeight: number;
  mentionWeight: number;
}): Candidate[][] {
  const { mention, lambda, selectionMode, hybridEntityWeight, mentionWeight } = options;
  return options.scored.map((entry) => {
    const ids = new Set([...entry.entityDense.keys(), ...entry.entityLexical.keys(), ...entry.relationBest.keys()]);
    const list: Candidate[] = [];
    for (const nodeId of ids) {
      const name = mention.names.get(nodeId);
      if (name === undefined) continue;
      const entityDense = entry.entityDense.get(nodeId) ?? 0;
      const entityLexical = entry.entityLexical.get(nodeId) ?? 0;
      const entityScore = (1 - lambda) * entityDense + lambda * entityLexical;
      const relation = entry.relationBest.get(nodeId);
      const relationScore = relation?.score ?? 0;
      const m = mention.of(nodeId, entry.query);
      const base = selectionMode === 'hybrid' ? hybridEntityWeight * entityScore + (1 - hybridEntityWeight) * relationScore : relationScore;
      const score = base * (1 - mentionWeight + mentionWeight * m);
      if (!(score > 0)) continue;
      const targetIndex = entry.query.targetIndex;
      list.push({
        seed: { nodeId, name, entityScore, relationScore, score, query: entry.query.text, ...(targetIndex !== undefined ? { targetIndex } : {}) },
        components: {
          nodeId,
          query: entry.query.text,
          entityDense,
          entityLexical,
          relationDense: relation?.dense ?? 0,
          relationLexical: relation?.lexical ?? 0,
          relationPassage: relation?.passage ?? 0,
          ...(relation ? { viaRelation: relation.relation } : {}),
          mention: m,
        },
      });
    }
    return list.sort(compareCandidates);
  });
}

/** The seeds chosen, with what the trace shows of the choice. */
export interface SeedChoice {
  seeds: Seed[];
  /** Candidates skipped because their node was chosen already. */
  deduplicated: number;
  /** All candidates by score. */
  merged: Candidate[];
  /** Candidates kept first (per-target reservations). */
  reserved: Candidate[];
}

/**
 * Priority order: the best `perTargetReserve` candidates of every query (round-robin over the
 * targets; 0 outside per-target mode), then every candidate by score; the first `seedLimit`
 * distinct nodes are the seeds.
 */
export function chooseSeeds(options: { ranked: readonly Candidate[][]; seedLimit: number; perTargetReserve: number }): SeedChoice {
  const { ranked, seedLimit } = options;
  const reserved: Candidate[] = [];
  for (let rank = 0; rank < options.perTargetReserve; rank += 1) {
    for (const list of ranked) if (list[rank]) reserved.push(list[rank]);
  }
  const reservedSet = new Set(reserved);
  const merged = ranked.flat().sort(compareCandidates);
  const ordered = [...reserved, ...merged.filter((candidate) => !reservedSet.has(candidate))];
  const seeds: Seed[] = [];
  const chosen = new Set<string>();
  let deduplicated = 0;
  for (const candidate of ordered) {
    if (seeds.length >= seedLimit) break;
    if (chosen.has(candidate.seed.nodeId)) {
      deduplicated += 1;
      continue;
    }
    chosen.add(candidate.seed.nodeId);
    seeds.push(candidate.seed);
  }
  return { seeds, deduplicated, merged, reserved };
}
