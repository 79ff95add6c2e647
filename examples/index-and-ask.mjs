// Index a small folder of text and ask it a question, offline: the embedded encoder, the offline
// extractor, faiss, and the default stages of the pipeline.
//   node examples/index-and-ask.mjs [question]
// Needs `npx mosaic-offline-setup` once (the faiss addon and the embedded encoder model).
// --- the quick-start (shown in the README)
import { fileURLToPath } from 'node:url';
import { createEmbeddedEncoder } from '@mosaic/encoders';
import { buildIndex, createOfflineExtractor, loadIndex } from '@mosaic/indexing';
import { createMosaic } from '@mosaic/pipeline';

const corpusPath = fileURLToPath(new URL('./corpus/', import.meta.url));
const outDir = '.mosaic/indexes/example-corpus';
const question = process.argv[2] ?? 'Which drug treats the condition caused by veltrane dust?';

const encoder = await createEmbeddedEncoder(); // onnx:wink-sg-100d, built by mosaic-offline-setup
const built = await buildIndex({ corpusPath, corpus: 'example', outDir, encoder, extractor: createOfflineExtractor() });
console.log(
  `indexed ${built.manifest.counts.documents} documents: ${built.manifest.counts.entities} entities, ${built.manifest.counts.relations} relations → ${outDir}`,
);

const index = await loadIndex({ dir: outDir, encoder }); // the encoder must be the one the index was built with
const mosaic = createMosaic({ index, windows: 3 });
const result = await mosaic.ask({ question });

console.log(`answer: ${result.answer.text}`);
for (const quote of result.answer.quotes ?? []) {
  const { documentId, section, lines } = quote.source;
  console.log(`  “${quote.text}” — ${documentId}${section ? `, ${section.join(' › ')}` : ''}${lines ? `, lines ${lines.start}–${lines.end}` : ''}`);
}
// --- end of the quick-start ---

console.log(`question: ${question}`);
console.log(
  `policy (${result.analysis.analyzer}): seeds ${result.policy.seedLimit}, depth ${result.policy.maxDepth}, width ${result.policy.beamWidth}, evidence ${result.policy.evidenceCount}`,
);
console.log(`seeds: ${result.seeds.map((seed) => seed.name).join(', ')}`);
console.log(`paths: ${result.paths.length}, evidence units: ${result.evidence.length}, stop: ${result.trace.traversal.stopReason}`);
for (const window of result.windows) console.log(`window ${window.id} (${window.score.toFixed(3)}): ${window.text.slice(0, 70).replace(/\s+/g, ' ')}…`);
await encoder.release();
