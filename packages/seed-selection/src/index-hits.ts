import { throwIfAborted, type CorpusIndex, type GraphStore, type LexicalIndex, type NodeNames, type RelationEdge, type VectorIndex } from '@mosaic/spec';
import { PASSAGE_SPANS } from '@mosaic/stage-utils';
import { clamp01, compareStrings, readNodeNames, searchWholeQuery } from '@mosaic/stage-utils/internal';
import type { SeedQuery } from './seed-queries.js';

/** One query's hits, by entity or relation id. */
export interface QueryHits {
  query: SeedQuery;
  /** Dense similarity, clamped to [0,1]. */
  entityDense: Map<string, number>;
  /** BM25, divided by the query's best hit. */
  entityLexical: Map<string, number>;
  relationDense: Map<string, number>;
  relationLexical: Map<string, number>;
}

async function denseHits(index: VectorIndex, ids: readonly string[], vector: Float32Array, k: number): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const limit = Math.min(k, index.size, ids.length);
  if (limit <= 0) return out;
  for (const hit of await index.search(vector, limit)) {
    const id = ids[hit.label];
    if (id !== undefined && !out.has(id)) out.set(id, clamp01(hit.score));
  }
  return out;
}

/**
 * BM25 hits normalised by the query's best hit (so the best scores 1). `whole`: the query is the
 * question, whose scores the traversal reads whole afterwards: read them whole now
 * (`searchWholeQuery`), so that the index scores it once; another query is asked with `search`.
 */
function lexicalHits(index: LexicalIndex | undefined, ids: readonly string[], text: string, k: number, whole: boolean): Map<string, number> {
  const out = new Map<string, number>();
  if (!index || k <= 0) return out;
  const hits = whole ? searchWholeQuery(index, text, k, ids.length) : index.search(text, k);
  let best = 0;
  for (const hit of hits) best = Math.max(best, hit.score);
  if (best <= 0) return out;
  for (const hit of hits) {
    const id = ids[hit.label];
    if (id !== undefined && !out.has(id) && hit.score > 0) out.set(id, hit.score / best);
  }
  return out;
}

/**
 * The top-k dense and BM25 hits of every query against the entity and relation indexes. A query
 * whose text is `question` is read whole from the lexical indexes (see `lexicalHits`).
 */
export async function queryHits(options: {
  index: CorpusIndex;
  queries: readonly SeedQuery[];
  question: string;
  lexical: { entities: LexicalIndex | undefined; relations: LexicalIndex | undefined };
  k: { entities: number; relations: number };
  abortSignal: AbortSignal | undefined;
}): Promise<QueryHits[]> {
  const { index, lexical, k } = options;
  // Every dense search is issued at once (a database-backed index may answer them in one request, a
  // faiss index on the thread pool), and the BM25 hits are scored while they run; results keep query order.
  const densePending = Promise.all(
    options.queries.map((query) =>
      Promise.all([
        denseHits(index.entityIndex, index.entityIds, query.vector!, k.entities),
        denseHits(index.relationIndex, index.relationIds, query.vector!, k.relations),
      ]),
    ),
  );
  let lexicalHitsOf: { entities: Map<string, number>; relations: Map<string, number> }[];
  try {
    lexicalHitsOf = options.queries.map((query) => ({
      entities: lexicalHits(lexical.entities, index.entityIds, query.text, k.entities, query.text === options.question),
      relations: lexicalHits(lexical.relations, index.relationIds, query.text, k.relations, query.text === options.question),
    }));
  } catch (error) {
    await densePending.catch(() => undefined); // no search left running, nor a rejection unheard
    throw error;
  }
  const dense = await densePending;
  throwIfAborted(options.abortSignal, 'seed selection');
  return options.queries.map((query, i) => ({
    query,
    entityDense: dense[i][0],
    entityLexical: lexicalHitsOf[i].entities,
    relationDense: dense[i][1],
    relationLexical: lexicalHitsOf[i].relations,
  }));
}

/**
 * What seed selection reads of a relation hit: its ends, and what its passage relevance reads
 * (`PassageRelevance.relation`). A whole `RelationEdge`, or an `EdgePassage` (no spans; its chunk ids
 * are the passage's chunks).
 */
export type RelationRecord = Pick<RelationEdge, 'id' | 'source' | 'target' | 'chunkIds' | 'spans'>;

/**
 * The records behind the hits: every relation hit, and the names of every entity hit (`readNodeNames`),
 * asked for at once (one graph call each, issued together). A relation is read as an `EdgePassage`
 * (`GraphStore.getEdgePassages`, with `PASSAGE_SPANS`) when the store offers it, else as a whole edge:
 * the same ends and the same passage chunks, without building the spans and chunk ids of a relation
 * stated in thousands of sentences.
 */
export async function hitRecords(
  graph: GraphStore,
  hits: readonly QueryHits[],
): Promise<{ relations: Map<string, RelationRecord>; nodes: Map<string, NodeNames> }> {
  const relationIds = new Set<string>();
  const nodeIds = new Set<string>();
  for (const entry of hits) {
    for (const id of entry.relationDense.keys()) relationIds.add(id);
    for (const id of entry.relationLexical.keys()) relationIds.add(id);
    for (const id of entry.entityDense.keys()) nodeIds.add(id);
    for (const id of entry.entityLexical.keys()) nodeIds.add(id);
  }
  const nodeList = [...nodeIds].sort(compareStrings);
  const relationList = [...relationIds].sort(compareStrings);
  const [edges, nodes] = await Promise.all([
    relationList.length === 0
      ? []
      : typeof graph.getEdgePassages === 'function'
        ? graph.getEdgePassages(relationList, PASSAGE_SPANS)
        : graph.getEdges(relationList),
    nodeList.length === 0 ? [] : readNodeNames(graph, nodeList),
  ]);
  return { relations: new Map<string, RelationRecord>(edges.map((edge) => [edge.id, edge])), nodes: new Map(nodes.map((node) => [node.id, node])) };
}
