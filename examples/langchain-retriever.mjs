// Mosaic as a LangChain.js retriever: `MosaicRetriever` (a BaseRetriever) returns the ranked source
// windows as Documents with metadata, and composes with other runnables.
//   node examples/langchain-retriever.mjs [question]
import { RunnableLambda } from '@langchain/core/runnables';
import { MosaicRetriever } from '@mosaic/langchain';
import { createMosaic } from '@mosaic/pipeline';
import { openExampleIndex } from './lib/example-index.mjs';

const question = process.argv[2] ?? 'Which drug treats the condition caused by veltrane dust?';
const { index, release } = await openExampleIndex();
const retriever = new MosaicRetriever({ mosaic: createMosaic({ index }), windows: 3 });

const documents = await retriever.invoke(question);
for (const document of documents) {
  const { rank, score, documentId, start, end } = document.metadata;
  console.log(`[${rank}] ${documentId}:${start}–${end} (score ${score.toFixed(3)}): ${document.pageContent.slice(0, 70).replace(/\s+/g, ' ')}…`);
}

// A retriever is a Runnable: pipe it into the next step of a chain (here: a context block for a prompt).
const context = retriever.pipe(
  RunnableLambda.from((/** @type {import('@langchain/core/documents').Document[]} */ found) => found.map((d, i) => `[${i + 1}] ${d.pageContent}`).join('\n\n')),
);
const block = await context.invoke(question);
console.log(`context block for a prompt: ${block.length} characters, ${documents.length} passages`);
await release();
