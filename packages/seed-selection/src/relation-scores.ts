import type { CorpusIndex, QuestionState } from '@mosaic/spec';
import { passageRelevance, type PassageRelevance } from '@mosaic/stage-utils';
import { compareStrings } from '@mosaic/stage-utils/internal';
import type { QueryHits, RelationRecord } from './index-hits.js';

/** The relation hit that gives a node its s_rel, with its components. */
export interface RelationBest {
  score: number;
  relation: string;
  dense: number;
  lexical: number;
  passage: number;
}

/** A query's hits with s_rel per node. */
export interface ScoredHits extends QueryHits {
  relationBest: Map<string, RelationBest>;
}

/**
 * s_rel(v) per query: the best score among the relation hits incident to v, where a relation
 * scores (1 − λ)·dense + λ·bm25, blended with its passage term when κ > 0:
 * (1 − κ)·own + κ·p(e), p(e) the query's BM25 over the best window holding e's sentences.
 */
export function relationScores(options: {
  index: CorpusIndex;
  hits: readonly QueryHits[];
  /** The relation hits' records (`hitRecords`): ends and passage chunks. */
  relations: ReadonlyMap<string, RelationRecord>;
  lambda: number;
  contextWeight: number;
  /** The question's state (`QueryContext.state`): where the passage relevance of each query is kept for the later stages. */
  state?: QuestionState;
  /**
   * The question's text: its passage relevance is scored over every window (the later stages read
   * it whole); another query's only for the few relations read here (`PassageRelevanceOptions.few`).
   */
  question?: string;
}): ScoredHits[] {
  const { index, relations, lambda, contextWeight } = options;
  // One passage relevance per distinct query (none without a lexical window index), kept in the
  // question's state when there is one, else for this call only.
  const state: QuestionState = options.state ?? { passageRelevance: new Map() };
  const passageOf = (query: string): PassageRelevance | undefined =>
    contextWeight === 0 ? undefined : passageRelevance(index, query, state, { few: options.question !== undefined && query !== options.question });
  return options.hits.map((entry) => {
    const relationBest = new Map<string, RelationBest>();
    const relationIds = new Set([...entry.relationDense.keys(), ...entry.relationLexical.keys()]);
    for (const id of [...relationIds].sort(compareStrings)) {
      const relation = relations.get(id);
      if (!relation) continue;
      const dense = entry.relationDense.get(id) ?? 0;
      const lexical = entry.relationLexical.get(id) ?? 0;
      const own = (1 - lambda) * dense + lambda * lexical;
      const passage = passageOf(entry.query.text);
      const passageScore = passage ? passage.relation(relation) : 0;
      const score = passage ? (1 - contextWeight) * own + contextWeight * passageScore : own;
      for (const node of [relation.source, relation.target]) {
        const current = relationBest.get(node);
        if (!current || score > current.score) relationBest.set(node, { score, relation: id, dense, lexical, passage: passageScore });
      }
    }
    return { ...entry, relationBest };
  });
}
