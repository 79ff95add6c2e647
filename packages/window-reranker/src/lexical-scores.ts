import bm25 from 'wink-bm25-text-search';
import type { CorpusIndex, LexicalIndex, SourceWindow } from '@mosaic/spec';
import { metricTokens } from '@mosaic/stage-utils';
import { labelMapOf, readEveryItem } from '@mosaic/stage-utils/internal';

/**
 * Where BM25 scores came from: the index's lexical window index ('index'), a BM25 built over the
 * candidates at query time ('candidates'; IDF then reflects only the candidates), or nowhere ('none':
 * no lexical index and fewer than three candidates, wink's minimum).
 */
export type LexicalSource = 'index' | 'candidates' | 'none';

export interface LexicalScores {
  /** Raw BM25 per window id (absent = 0). */
  scores: Map<string, number>;
  source: LexicalSource;
}

/** BM25 of the question against the given windows (raw scores; the caller normalises). */
export function lexicalScores(options: {
  index: CorpusIndex;
  question: string;
  windows: readonly SourceWindow[];
  /** False for windows cut at query time (the index's lexical labels do not cover them). */
  precomputed?: boolean;
}): LexicalScores {
  const { index, question, windows } = options;
  const scores = new Map<string, number>();
  if (windows.length === 0) return { scores, source: 'none' };
  const lexical = options.precomputed === false ? undefined : index.lexical?.windows;
  if (lexical) {
    return { scores: indexScoresOf({ lexical, windowIds: index.windowIds, question, wanted: new Set(windows.map((window) => window.id)) }), source: 'index' };
  }
  if (windows.length < 3) return { scores, source: 'none' };
  const engine = bm25();
  engine.defineConfig({ fldWeights: { text: 1 } });
  engine.definePrepTasks([metricTokens]);
  windows.forEach((window, i) => {
    engine.addDoc({ text: window.text }, String(i));
  });
  engine.consolidate();
  for (const [i, score] of engine.search(question, windows.length)) scores.set(windows[Number(i)].id, score);
  return { scores, source: 'candidates' };
}

/** Per window id array, a mark per window that `indexScoresOf` sets for the wanted ones and clears again. */
const wantedMarks = new WeakMap<readonly string[], Uint8Array>();

/** The wanted windows marked by label in the kept table of `windowIds` (cleared by the caller); undefined when the ids repeat. */
function markWanted(
  windowIds: readonly string[],
  wanted: ReadonlySet<string> | ReadonlyMap<string, unknown>,
): { table: Uint8Array; labels: number[] } | undefined {
  const labelOf = labelMapOf(windowIds);
  if (!labelOf) return undefined;
  let table = wantedMarks.get(windowIds);
  if (!table) wantedMarks.set(windowIds, (table = new Uint8Array(windowIds.length)));
  const labels: number[] = [];
  for (const id of wanted.keys()) {
    const label = labelOf.get(id);
    if (label !== undefined && table[label] === 0) {
      table[label] = 1;
      labels.push(label);
    }
  }
  return { table, labels };
}

/**
 * The index's BM25 of `question` (divided by the query's best window, as `LexicalIndex.search` gives
 * it) for the `wanted` window ids only. Reads the index's unsorted scores when it has them (lent by
 * `withScores`, else `scoreAll`): the question's terms can match most windows of a large corpus, and
 * ranking them all (one `search` over the whole index) is what made reranking grow with the corpus;
 * else that one search. When the window ids are distinct, the wanted windows are marked by label
 * first, so that each of the tens of thousands of hits is one array read rather than an id lookup
 * (about 2 ms a question at 100 MB of text); scores come in the same order either way.
 */
export function indexScoresOf(options: {
  lexical: LexicalIndex;
  windowIds: readonly string[];
  question: string;
  wanted: ReadonlySet<string> | ReadonlyMap<string, unknown>;
}): Map<string, number> {
  const { windowIds, wanted } = options;
  const scores = new Map<string, number>();
  const marks = markWanted(windowIds, wanted);
  const marked = marks?.table;
  try {
    readEveryItem(options.lexical, options.question, windowIds.length, (all) => {
      for (let i = 0; i < all.count; i += 1) {
        const label = all.labels[i];
        // A marked label is read by number; only without marks is each hit's id looked up.
        if (marked ? marked[label] !== 1 : !wanted.has(windowIds[label])) continue;
        const id = windowIds[label];
        if (id !== undefined) scores.set(id, all.scores[i]);
      }
    });
  } finally {
    if (marks) for (const label of marks.labels) marks.table[label] = 0;
  }
  return scores;
}
