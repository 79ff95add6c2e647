import type { GraphStore, NodeNames } from '@mosaic/spec';
import { matchTokens, tokenContainment } from '@mosaic/stage-utils';
import { compareStrings, readNodeNames } from '@mosaic/stage-utils/internal';
import type { ScoredHits } from './relation-scores.js';
import type { SeedQuery } from './seed-queries.js';

/** The candidate nodes' names, and m(v) of each for a query. */
export interface MentionFactor {
  names: ReadonlyMap<string, string>;
  /** m(v): the share of the content tokens of v's name (best of name and aliases) that the question and the query contain; 1 when μ = 0. */
  of(nodeId: string, query: SeedQuery): number;
}

/** Fetches the names of every candidate node not in `known` (one graph call) and prepares the mention factor. */
export async function mentionFactor(options: {
  graph: GraphStore;
  /** Candidate nodes whose names are already read (the entity hits). */
  known: ReadonlyMap<string, NodeNames>;
  scored: readonly ScoredHits[];
  question: string;
  mentionWeight: number;
}): Promise<MentionFactor> {
  const { scored, question, mentionWeight } = options;
  const nodeIds = new Set<string>();
  for (const entry of scored) {
    for (const id of entry.entityDense.keys()) nodeIds.add(id);
    for (const id of entry.entityLexical.keys()) nodeIds.add(id);
    for (const id of entry.relationBest.keys()) nodeIds.add(id);
  }
  const names = new Map<string, string>();
  const nameTokens = new Map<string, Set<string>[]>();
  if (nodeIds.size > 0) {
    const sorted = [...nodeIds].sort(compareStrings);
    const missing = sorted.filter((id) => !options.known.has(id));
    const fetched = missing.length === 0 ? [] : await readNodeNames(options.graph, missing);
    const read = new Map<string, NodeNames>(fetched.map((node) => [node.id, node]));
    for (const id of sorted) {
      const node = options.known.get(id) ?? read.get(id);
      if (!node) continue;
      names.set(node.id, node.name);
      if (mentionWeight > 0)
        nameTokens.set(
          node.id,
          [node.name, ...(node.aliases ?? [])].map((name) => new Set(matchTokens(name))),
        );
    }
  }
  const questionTokens = matchTokens(question);
  const queryTokenSets = new Map<string, Set<string>>();
  const of = (nodeId: string, query: SeedQuery): number => {
    if (mentionWeight === 0) return 1;
    let queryTokens = queryTokenSets.get(query.text);
    if (!queryTokens) {
      queryTokens = new Set([...questionTokens, ...(query.text === question ? [] : matchTokens(query.text))]);
      queryTokenSets.set(query.text, queryTokens);
    }
    let best = 0;
    for (const tokens of nameTokens.get(nodeId) ?? []) if (tokens.size > 0) best = Math.max(best, tokenContainment(tokens, queryTokens));
    return best;
  };
  return { names, of };
}
