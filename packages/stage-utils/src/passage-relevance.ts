import type { CorpusIndex, LexicalIndex, RelationEdge } from '@mosaic/spec';

/** Sentences of a relation whose chunks its passage relevance reads: its first ones, in corpus order. */
export const PASSAGE_SPANS = 8;

/** How relevant to one query the passages are that hold a chunk or state a relation, each in [0, 1]. */
export interface PassageRelevance {
  /** BM25 of the query over the best window overlapping the chunk, divided by the query's best window. */
  chunk(chunkId: string): number;
  /** The best `chunk` score over the chunks of the relation's first `PASSAGE_SPANS` sentences (its `chunkIds` when it has no spans). */
  relation(relation: Pick<RelationEdge, 'spans' | 'chunkIds'>): number;
}

/**
 * The passage relevance of a query: one BM25 scoring of the query over every window
 * (`index.lexical.windows`, unsorted through `scoreAll` when the index offers it), read per chunk
 * and cached. Seed selection and the traversal share it, so a relation's passage scores the same in
 * both. Undefined when the index has no lexical window index.
 */
export function passageRelevance(index: Pick<CorpusIndex, 'lexical' | 'windowIds' | 'chunks'>, query: string): PassageRelevance | undefined {
  const lexical = index.lexical?.windows;
  if (!lexical) return undefined;
  // Seed selection and the traversal ask for the same question one after the other: the last few
  // queries' relevances are kept per lexical window index (for the windows and chunks they were read from).
  let recent = RECENT.get(lexical);
  if (!recent || recent.windowIds !== index.windowIds || recent.chunks !== index.chunks) {
    recent = { windowIds: index.windowIds, chunks: index.chunks, byQuery: new Map() };
    RECENT.set(lexical, recent);
  }
  let relevance = recent.byQuery.get(query);
  if (!relevance) {
    relevance = scorePassages(index, lexical, query);
    if (recent.byQuery.size >= RECENT_QUERIES) recent.byQuery.delete(recent.byQuery.keys().next().value as string);
    recent.byQuery.set(query, relevance);
  }
  return relevance;
}

const RECENT_QUERIES = 8;
const RECENT = new WeakMap<object, { windowIds: CorpusIndex['windowIds']; chunks: CorpusIndex['chunks']; byQuery: Map<string, PassageRelevance> }>();

function scorePassages(index: Pick<CorpusIndex, 'windowIds' | 'chunks'>, lexical: LexicalIndex, query: string): PassageRelevance {
  const windowScores = new Map<string, number>();
  if (typeof lexical.scoreAll === 'function') {
    const all = lexical.scoreAll(query);
    for (let i = 0; i < all.count; i += 1) {
      const id = index.windowIds[all.labels[i]];
      if (id !== undefined) windowScores.set(id, all.scores[i]);
    }
  } else {
    const hits = lexical.search(query, index.windowIds.length);
    let best = 0;
    for (const hit of hits) best = Math.max(best, hit.score);
    for (const hit of hits) {
      const id = index.windowIds[hit.label];
      if (id !== undefined && best > 0 && hit.score > 0) windowScores.set(id, hit.score / best);
    }
  }
  const byChunk = new Map<string, number>();
  const chunk = (chunkId: string): number => {
    let score = byChunk.get(chunkId);
    if (score === undefined) {
      score = 0;
      for (const window of index.chunks.windowsOfChunk(chunkId)) score = Math.max(score, windowScores.get(window.id) ?? 0);
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
