import { InvalidArgumentError } from '@mosaic/spec';
import type { ChunkStore, CorpusIndex, LexicalIndex, NumberedEdgeView, PassageRelevance, QuestionState, RelationEdge } from '@mosaic/spec';
import { labelMapOf, readEveryItem, scoresEveryItem } from './lexical-items.js';

export type { PassageRelevance } from '@mosaic/spec';

/** Sentences of a relation whose chunks its passage relevance reads: its first ones, in corpus order. */
export const PASSAGE_SPANS = 8;

/**
 * The passage relevance of a query: one BM25 scoring of the query over every window
 * (`index.lexical.windows`, unsorted through `scoreAll` when the index offers it), a chunk scoring
 * its best window (from the index's chunk table, see `chunkTableOf`, else read per chunk and cached).
 * Undefined when the index has no lexical window index.
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
  options: PassageRelevanceOptions = {},
): PassageRelevance | undefined {
  const lexical = index.lexical?.windows;
  if (!lexical) return undefined;
  const score = () => (options.few ? fewPassages(index, lexical, query) : undefined) ?? scorePassages(index, lexical, query, state?.onDone);
  if (!state) return score();
  if (state.passageRelevance.has(query)) return state.passageRelevance.get(query);
  const relevance = score();
  state.passageRelevance.set(query, relevance);
  return relevance;
}

export interface PassageRelevanceOptions {
  /**
   * The caller reads the passages of a few relations (seed selection, for a query other than the
   * question): when the window index scores one window at a time (`LexicalIndex.scorer`), only the
   * windows of the chunks asked are scored (each chunk once), instead of every window sharing a word
   * with the query. The same values; `chunkScoresByNumber` gives nothing for such a relevance, and a
   * later caller of the same query and state gets it back (read chunk by chunk).
   */
  few?: boolean;
}

/** `passageRelevance` of a query read for a few chunks (`PassageRelevanceOptions.few`); undefined when the index cannot score windows one at a time. */
function fewPassages(index: Pick<CorpusIndex, 'windowIds' | 'chunks'>, lexical: LexicalIndex, query: string): PassageRelevance | undefined {
  const labels = labelMapOf(index.windowIds);
  const scorer = labels && typeof lexical.scorer === 'function' ? lexical.scorer(query) : undefined;
  if (!labels || !scorer) return undefined;
  const chunk = chunkScores(index, (id) => {
    const label = labels.get(id);
    return label === undefined ? 0 : scorer(label);
  });
  return { chunk, relation: (relation) => bestPassage(relation, chunk) };
}

/** A relation's passage relevance: the best of its passage chunks' scores (`forEachPassageChunk`). */
function bestPassage(relation: Pick<RelationEdge, 'spans' | 'chunkIds'>, chunk: (chunkId: string) => number): number {
  let score = 0;
  forEachPassageChunk(relation, (chunkId) => {
    score = Math.max(score, chunk(chunkId));
  });
  return score;
}

/**
 * The chunks a relation's passage relevance reads (`PassageRelevance.relation` takes the best of
 * them), in order: those of its first `PASSAGE_SPANS` sentences, else its `chunkIds`.
 */
export function forEachPassageChunk(relation: Pick<RelationEdge, 'spans' | 'chunkIds'>, visit: (chunkId: string) => void): void {
  const spans = relation.spans;
  if (spans && spans.length > 0) {
    const n = Math.min(spans.length, PASSAGE_SPANS);
    for (let i = 0; i < n; i += 1) visit(spans[i].chunkId);
  } else {
    for (const chunkId of relation.chunkIds ?? []) visit(chunkId);
  }
}

/**
 * `forEachPassageChunk` for the edge numbers `edges` of a graph store's numbered view: the same
 * chunks, in the same order, as their numbers in `numbering` (−1 for a chunk id it does not hold);
 * edge `edges[i]`'s are `chunks[start[i] … start[i + 1])`.
 */
export function passageChunkNumbers(
  view: Pick<NumberedEdgeView, 'passageChunks'>,
  edges: Uint32Array,
  numbering: ReadonlyMap<string, number>,
): { start: Uint32Array; chunks: Int32Array } {
  return view.passageChunks(edges, PASSAGE_SPANS, numbering);
}

/**
 * `passageChunkNumbers` of `edges` = `view.incidentEdges(node)`, from the table the store keeps for
 * every node (`NumberedEdgeView.incidentPassageChunks`; `start[0]` need not be 0); undefined when the
 * store keeps none or `edges` is not that list.
 */
export function incidentPassageChunkNumbers(
  view: Pick<NumberedEdgeView, 'incidentPassageChunks'>,
  node: string,
  edges: Uint32Array,
  numbering: ReadonlyMap<string, number>,
): { start: Uint32Array; chunks: Int32Array } | undefined {
  return typeof view.incidentPassageChunks === 'function' ? view.incidentPassageChunks(node, edges, PASSAGE_SPANS, numbering) : undefined;
}

/**
 * The windows of an index as chunk numbers: window label k overlaps chunks
 * `windowChunks[windowChunkStart[k] … windowChunkStart[k + 1])`, numbered in `chunkNumber`. Made once
 * per index (its `windowIds` array and chunk store) from `chunks.getWindow`, so a question's chunk
 * scores are one pass over the windows it hit instead of a `windowsOfChunk` lookup per chunk asked.
 */
interface ChunkTable {
  chunks: ChunkStore;
  chunkNumber: ReadonlyMap<string, number>;
  windowChunkStart: Uint32Array;
  windowChunks: Uint32Array;
  /** Zeroed chunk-score arrays that questions gave back (see `scorePassages`), at most `FREE_CHUNK_SCORES`. */
  free: Float64Array[];
}

/** Chunk-score arrays a chunk table keeps for reuse: about what one question takes. */
const FREE_CHUNK_SCORES = 8;

const chunkTables = new WeakMap<readonly string[], ChunkTable | null>();

/** The chunk table of `index`, or null when a window of `windowIds` is not in its chunk store. */
function chunkTableOf(index: Pick<CorpusIndex, 'windowIds' | 'chunks'>): ChunkTable | null {
  const known = chunkTables.get(index.windowIds);
  if (known !== undefined && (known === null || known.chunks === index.chunks)) return known;
  const chunkNumber = new Map<string, number>();
  const windowChunkStart = new Uint32Array(index.windowIds.length + 1);
  const numbers: number[] = [];
  let table: ChunkTable | null = null;
  if (typeof index.chunks.getWindow === 'function') {
    let complete = true;
    for (let label = 0; label < index.windowIds.length; label += 1) {
      const window = index.chunks.getWindow(index.windowIds[label]);
      if (!window) {
        complete = false;
        break;
      }
      for (const chunkId of window.chunkIds) {
        let number = chunkNumber.get(chunkId);
        if (number === undefined) chunkNumber.set(chunkId, (number = chunkNumber.size));
        numbers.push(number);
      }
      windowChunkStart[label + 1] = numbers.length;
    }
    if (complete) table = { chunks: index.chunks, chunkNumber, windowChunkStart, windowChunks: Uint32Array.from(numbers), free: [] };
  }
  chunkTables.set(index.windowIds, table);
  return table;
}

/**
 * With `onDone` (the question state's), the chunk scores are an array of the index's chunk table,
 * given back, zeroed, when the question is over; the relevance must not be read after that (it
 * throws). A large corpus has about 100,000 chunks: an array of them for every query of every
 * question is garbage the collector would otherwise find often.
 */
function scorePassages(index: Pick<CorpusIndex, 'windowIds' | 'chunks'>, lexical: LexicalIndex, query: string, onDone?: (() => void)[]): PassageRelevance {
  const labels = scoresEveryItem(lexical) ? labelMapOf(index.windowIds) : null;
  const table = labels ? chunkTableOf(index) : null;
  let chunk: (chunkId: string) => number;
  let numbered: ChunkScoresByNumber | undefined;
  if (labels && table) {
    // Each chunk's best window, in one pass over the windows the query hit (a plain array by chunk
    // number): a question's terms can match most windows of a large corpus, and a hub's relations
    // ask about tens of thousands of chunks.
    const byChunk = (onDone ? table.free.pop() : undefined) ?? new Float64Array(table.chunkNumber.size);
    const { windowChunkStart, windowChunks } = table;
    const windowCount = index.windowIds.length;
    readEveryItem(lexical, query, windowCount, ({ count, labels, scores }) => {
      // Read into locals once: tens of thousands of windows a question at 100 MB of text.
      for (let i = 0; i < count; i += 1) {
        const label = labels[i];
        const score = scores[i];
        if (!(label < windowCount) || !(score > 0)) continue;
        for (let at = windowChunkStart[label], end = windowChunkStart[label + 1]; at < end; at += 1) {
          const chunk = windowChunks[at];
          if (score > byChunk[chunk]) byChunk[chunk] = score;
        }
      }
    });
    const { chunkNumber } = table;
    let returned = false;
    chunk = (chunkId) => {
      if (returned) {
        throw new InvalidArgumentError({
          argument: 'relevance',
          message: `the passage relevance of "${query.slice(0, 60)}" was read after its question was over`,
        });
      }
      const number = chunkNumber.get(chunkId);
      return number === undefined ? 0 : byChunk[number];
    };
    numbered = { chunkNumber, scores: byChunk };
    onDone?.push(() => {
      returned = true;
      if (table.free.length >= FREE_CHUNK_SCORES) return;
      byChunk.fill(0);
      table.free.push(byChunk);
    });
  } else {
    chunk = chunkScores(index, windowScoresOf(index, lexical, query, labels));
  }
  const relevance: PassageRelevance = { chunk, relation: (relation) => bestPassage(relation, chunk) };
  if (numbered) numberedScores.set(relevance, numbered);
  return relevance;
}

/**
 * A relevance's chunk scores by chunk number: `chunk(id)` is `scores[chunkNumber.get(id)]`, and 0 for
 * a chunk `chunkNumber` does not hold. The numbering is the index's chunk table, the same map for
 * every query over that index, so a caller may keep chunk numbers across questions and read a
 * question's scores with no lookup by id (a hub entity's tens of thousands of sentences). With a
 * question state that has `onDone`, `scores` is reused once the question is over: read it only during it.
 */
export interface ChunkScoresByNumber {
  chunkNumber: ReadonlyMap<string, number>;
  scores: Float64Array;
}

const numberedScores = new WeakMap<PassageRelevance, ChunkScoresByNumber>();

/** The chunk scores of `relevance` by number, when `passageRelevance` scored it from the index's chunk table (else undefined: use `relevance.chunk`). */
export function chunkScoresByNumber(relevance: PassageRelevance): ChunkScoresByNumber | undefined {
  return numberedScores.get(relevance);
}

/** A window's score by id: from `scoreAll` by label when the ids are distinct, else one ranked search. */
function windowScoresOf(
  index: Pick<CorpusIndex, 'windowIds'>,
  lexical: LexicalIndex,
  query: string,
  labels: ReadonlyMap<string, number> | null,
): (id: string) => number {
  if (labels) {
    const byLabel = new Float64Array(index.windowIds.length);
    readEveryItem(lexical, query, index.windowIds.length, (all) => {
      for (let i = 0; i < all.count; i += 1) if (all.labels[i] < byLabel.length) byLabel[all.labels[i]] = all.scores[i];
    });
    return (id) => {
      const label = labels.get(id);
      return label === undefined ? 0 : byLabel[label];
    };
  }
  // No scoreAll (or window ids that repeat, which a built index never has): one ranked search.
  const windowScores = new Map<string, number>();
  const hits = lexical.search(query, index.windowIds.length);
  let best = 0;
  for (const hit of hits) best = Math.max(best, hit.score);
  for (const hit of hits) {
    const id = index.windowIds[hit.label];
    if (id !== undefined && best > 0 && hit.score > 0) windowScores.set(id, hit.score / best);
  }
  return (id) => windowScores.get(id) ?? 0;
}

/** A chunk's score: its best window's (`windowsOfChunk`), cached per chunk. */
function chunkScores(index: Pick<CorpusIndex, 'chunks'>, windowScore: (id: string) => number): (chunkId: string) => number {
  const byChunk = new Map<string, number>();
  return (chunkId) => {
    let score = byChunk.get(chunkId);
    if (score === undefined) {
      score = 0;
      for (const window of index.chunks.windowsOfChunk(chunkId)) score = Math.max(score, windowScore(window.id));
      byChunk.set(chunkId, score);
    }
    return score;
  };
}
