import { throwIfAborted, type CorpusIndex, type GraphStore, type LexicalIndex, type RelationEdge, type VectorIndex } from '@mosaic/spec';
import { clamp01, compareStrings } from '@mosaic/stage-utils';
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

/** BM25 hits normalised by the query's best hit (so the best scores 1). */
function lexicalHits(index: LexicalIndex | undefined, ids: readonly string[], text: string, k: number): Map<string, number> {
  const out = new Map<string, number>();
  if (!index || k <= 0) return out;
  const hits = index.search(text, k);
  let best = 0;
  for (const hit of hits) best = Math.max(best, hit.score);
  if (best <= 0) return out;
  for (const hit of hits) {
    const id = ids[hit.label];
    if (id !== undefined && !out.has(id) && hit.score > 0) out.set(id, hit.score / best);
  }
  return out;
}

/** The top-k dense and BM25 hits of every query against the entity and relation indexes. */
export async function queryHits(options: {
  index: CorpusIndex;
  queries: readonly SeedQuery[];
  lexical: { entities: LexicalIndex | undefined; relations: LexicalIndex | undefined };
  k: { entities: number; relations: number };
  abortSignal: AbortSignal | undefined;
}): Promise<QueryHits[]> {
  const { index, lexical, k } = options;
  const out: QueryHits[] = [];
  for (const query of options.queries) {
    const entityDense = await denseHits(index.entityIndex, index.entityIds, query.vector!, k.entities);
    const relationDense = await denseHits(index.relationIndex, index.relationIds, query.vector!, k.relations);
    const entityLexical = lexicalHits(lexical.entities, index.entityIds, query.text, k.entities);
    const relationLexical = lexicalHits(lexical.relations, index.relationIds, query.text, k.relations);
    out.push({ query, entityDense, entityLexical, relationDense, relationLexical });
    throwIfAborted(options.abortSignal, 'seed selection');
  }
  return out;
}

/** The relations behind every relation hit, in one graph call. */
export async function relationEndpoints(graph: GraphStore, hits: readonly QueryHits[]): Promise<Map<string, RelationEdge>> {
  const ids = new Set<string>();
  for (const entry of hits) {
    for (const id of entry.relationDense.keys()) ids.add(id);
    for (const id of entry.relationLexical.keys()) ids.add(id);
  }
  const relations = new Map<string, RelationEdge>();
  if (ids.size > 0) for (const edge of await graph.getEdges([...ids].sort(compareStrings))) relations.set(edge.id, edge);
  return relations;
}
