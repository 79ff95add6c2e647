// Swap in a hand-written window reranker: check it against the WindowReranker conformance suite,
// then run the pipeline with it.
//   node examples/custom-reranker.mjs
import { throwIfAborted } from '@mosaic/spec';
import { createMosaic } from '@mosaic/pipeline';
import { checkWindowRerankerConformance } from '@mosaic/window-reranker/conformance';
import { openExampleIndex } from './lib/example-index.mjs';

/** @param {string} text */
const words = (text) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);

// --- the reranker: the windows holding the evidence, ranked by the question words they contain ---
/** @type {import('@mosaic/spec').WindowReranker} */
export const wordOverlapReranker = {
  specificationVersion: 'v1',
  id: 'example:word-overlap',
  async rerank({ index, context, evidence, topN, abortSignal }) {
    throwIfAborted(abortSignal, 'rerank');
    const asked = words(context.question.text);
    /** @type {Map<string, { window: import('@mosaic/spec').SourceWindow, evidenceIds: string[] }>} */
    const reached = new Map();
    for (const unit of evidence) {
      for (const chunkId of unit.chunkIds) {
        for (const window of index.chunks.windowsOfChunk(chunkId)) {
          const entry = reached.get(window.id) ?? { window, evidenceIds: [] };
          if (!entry.evidenceIds.includes(unit.id)) entry.evidenceIds.push(unit.id);
          reached.set(window.id, entry);
        }
      }
    }
    const windows = [...reached.values()]
      .map(({ window, evidenceIds }) => {
        const shared = [...words(window.text)].filter((word) => asked.has(word)).length;
        return {
          id: window.id,
          text: window.text,
          documentId: window.documentId,
          start: window.start,
          end: window.end,
          evidenceIds,
          score: shared + 0.1 * evidenceIds.length,
        };
      })
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, topN);
    return { windows, trace: { reranker: 'example:word-overlap', candidateWindows: reached.size, windows } };
  },
};
// --- end of the reranker ---

const report = await checkWindowRerankerConformance({ reranker: wordOverlapReranker });
for (const check of report.checks) console.log(`${check.passed ? 'ok  ' : 'FAIL'} ${check.name}${check.message ? `: ${check.message}` : ''}`);
if (!report.passed) process.exit(1);

const { index, release } = await openExampleIndex();
const mosaic = createMosaic({ index, reranker: wordOverlapReranker, windows: 3 });
const result = await mosaic.ask({ question: 'How is Morrow syndrome diagnosed?' });
console.log(`reranker ${result.trace.rerank.reranker}: ${result.trace.rerank.candidateWindows} candidate windows`);
for (const window of result.windows) console.log(`  ${window.score.toFixed(1)} ${window.id}: ${window.text.slice(0, 70).replace(/\s+/g, ' ')}…`);
console.log(`answer: ${result.answer.text}`);
await release();
