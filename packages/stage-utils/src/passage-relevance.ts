import type { CorpusIndex, LexicalIndex, PassageRelevance, QuestionState } from '@mosaic/spec';
import { labelMapOf } from './lexical-items.js';

export type { PassageRelevance } from '@mosaic/spec';

/** Sentences of a relation whose chunks its passage relevance reads: its first ones, in corpus order. */
export const PASSAGE_SPANS = 8;

/**
 * The passage relevance of a query: one BM25 scoring of the query over every window
 * (`index.lexical.windows`, unsorted through `scoreAll` when the index offers it), read per chunk
 * and cached. Undefined when the index has no lexical window index.
 *
 * Seed selection, the traversal and evidence selection read the same question's relevance one after
 * the other: given the question's `state` (`QueryContext.state`, one per question and index, created
 * by the pipeline), the first call stores it there and the others read it back, so a relation's
 * passage scores the same in every stage and is computed once. Without a state it is computed afresh
 * (the same values).
 */
export function passageRelevance(
  index: Pick<CorpusIndex, 'lexical' | 'windowIds' | 'chunks'>,
  query: string,
  state?: QuestionState,
): PassageRelevance | undefined {
  const lexical = index.lexical?.windows;
  if (!lexical) return undefined;
  if (!state) return scorePassages(index, lexical, query);
  if (state.passageRelevance.has(query)) return state.passageRelevance.get(query);
  const relevance = scorePassages(index, lexical, query);
  state.passageRelevance.set(query, relevance);
  return relevance;
}

/** Window id → label per `windowIds` array (an index's), made once. */
const windowLabelMaps = new WeakMap<readonly string[], ReadonlyMap<string, number> | null>();

function scorePassages(index: Pick<CorpusIndex, 'windowIds' | 'chunks'>, lexical: LexicalIndex, query: string): PassageRelevance {
  let windowScore: (id: string) => number;
  const labels = typeof lexical.scoreAll === 'function' ? labelMapOf(index.windowIds, windowLabelMaps) : null;
  if (lexical.scoreAll && labels) {
    // By label, in a plain array: a question's terms can match most windows of a large corpus, and
    // only the windows of the chunks a stage asks about are read back.
    const all = lexical.scoreAll(query);
    const byLabel = new Float64Array(index.windowIds.length);
    for (let i = 0; i < all.count; i += 1) if (all.labels[i] < byLabel.length) byLabel[all.labels[i]] = all.scores[i];
    windowScore = (id) => {
      const label = labels.get(id);
      return label === undefined ? 0 : byLabel[label];
    };
  } else {
    // No scoreAll (or window ids that repeat, which a built index never has): one ranked search.
    const windowScores = new Map<string, number>();
    const hits = lexical.search(query, index.windowIds.length);
    let best = 0;
    for (const hit of hits) best = Math.max(best, hit.score);
    for (const hit of hits) {
      const id = index.windowIds[hit.label];
      if (id !== undefined && best > 0 && hit.score > 0) windowScores.set(id, hit.score / best);
    }
    windowScore = (id) => windowScores.get(id) ?? 0;
  }
  const byChunk = new Map<string, number>();
  const chunk = (chunkId: string): number => {
    let score = byChunk.get(chunkId);
    if (score === undefined) {
      score = 0;
      for (const window of index.chunks.windowsOfChunk(chunkId)) score = Math.max(score, windowScore(window.id));
      byChunk.set(chunkId, score);
    }
    return score;
  };
  return {
    chunk,
    relation(relation) {
      let score = 0;
      const spans = relation.spans;
      if (spans && spans.length > 0) {
        const n = Math.min(spans.length, PASSAGE_SPANS);
        for (let i = 0; i < n; i += 1) score = Math.max(score, chunk(spans[i].chunkId));
      } else {
        for (const chunkId of relation.chunkIds ?? []) score = Math.max(score, chunk(chunkId));
      }
      return score;
    },
  };
}
