// Swap in a hand-written traverser: check it against the Traverser conformance suite, then run
// the pipeline with it.
//   node examples/custom-traverser.mjs
import { scoredPath, throwIfAborted, traversalResult } from '@mosaic/spec';
import { createMosaic } from '@mosaic/pipeline';
import { checkTraverserConformance } from '@mosaic/traversal/conformance';
import { openExampleIndex } from './lib/example-index.mjs';

// --- the traverser: a small beam search, scored by the question words each relation states ---
/** @type {import('@mosaic/spec').Traverser} */
export const wordBeamTraverser = {
  specificationVersion: 'v1',
  id: 'example:word-beam',
  async traverse({ index, context, seeds, abortSignal }) {
    throwIfAborted(abortSignal, 'traverse');
    const words = new Set(context.question.text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
    /** @param {string} text */
    const said = (text) => (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((word) => words.has(word)).length;
    const paths = [];
    let beam = seeds.map((seed) => ({ nodes: [seed.nodeId], edges: /** @type {string[]} */ ([]), score: seed.score }));
    for (let depth = 1; depth <= context.policy.maxDepth && beam.length > 0; depth += 1) {
      throwIfAborted(abortSignal, 'traverse');
      const neighbors = await index.graph.neighbors([...new Set(beam.map((path) => path.nodes[path.nodes.length - 1]))]);
      const grown = beam.flatMap((path) =>
        (neighbors.get(path.nodes[path.nodes.length - 1]) ?? [])
          .filter(({ node }) => !path.nodes.includes(node)) // simple paths only
          .map(({ edge, node }) => ({
            nodes: [...path.nodes, node],
            edges: [...path.edges, edge.id],
            score: path.score / 2 + said(`${edge.label} ${edge.description}`),
          })),
      );
      beam = grown.sort((a, b) => b.score - a.score).slice(0, context.policy.beamWidth);
      paths.push(...beam.map((path) => scoredPath(path)));
    }
    return traversalResult({ paths });
  },
};
// --- end of the traverser ---

const report = await checkTraverserConformance({ traverser: wordBeamTraverser });
for (const check of report.checks) console.log(`${check.passed ? 'ok  ' : 'FAIL'} ${check.name}${check.message ? `: ${check.message}` : ''}`);
if (!report.passed) process.exit(1);

const { index, release } = await openExampleIndex();
const mosaic = createMosaic({ index, traverser: wordBeamTraverser, windows: 3 });
const result = await mosaic.retrieve({ question: 'Which drug treats the condition caused by veltrane dust?' });
const names = new Map((await index.graph.getNodes([...new Set(result.paths.flatMap((path) => path.nodes))])).map((node) => [node.id, node.name]));
console.log(`traverser ${mosaic.stages.traverser.id}: ${result.trace.traversal.pathsEvaluated} paths, ${result.paths.length} selected`);
for (const path of result.paths.slice(0, 3)) console.log(`  ${path.role}: ${path.nodes.map((node) => names.get(node)).join(' → ')}`);
console.log(`top window: ${result.windows[0]?.text.slice(0, 80).replace(/\s+/g, ' ')}…`);
await release();
