import bm25 from 'wink-bm25-text-search';
import type { CorpusIndex, SourceWindow } from '@mosaic/spec';
import { metricTokens } from '@mosaic/stage-utils';

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
    const wanted = new Set(windows.map((window) => window.id));
    // Every window that shares a term; restricted to the candidates here.
    for (const hit of lexical.search(question, index.windowIds.length)) {
      const id = index.windowIds[hit.label];
      if (id !== undefined && wanted.has(id)) scores.set(id, hit.score);
    }
    return { scores, source: 'index' };
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
