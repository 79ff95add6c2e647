// Plug in an analyzer that wraps the offline one: a house rule on top of its policy, validated by
// @mosaic/policy-schema, checked against the Analyzer conformance suite, then used by the pipeline.
//   node examples/wrapped-analyzer.mjs
import { createOfflineAnalyzer } from '@mosaic/analyzer';
import { checkAnalyzerConformance } from '@mosaic/analyzer/conformance';
import { createMosaic } from '@mosaic/pipeline';
import { validatePolicy } from '@mosaic/policy-schema';
import { openExampleIndex } from './lib/example-index.mjs';

const offline = createOfflineAnalyzer();
const ID = 'example:explanations-deep';

// --- the analyzer: how/why questions search deeper and keep at least 12 evidence units ---
/** @type {import('@mosaic/spec').Analyzer} */
export const comparisonAnalyzer = {
  specificationVersion: 'v1',
  id: ID,
  async analyze(options) {
    const analysis = await offline.analyze(options);
    if (!/^\s*(how|why)\b/i.test(options.question.text)) return { ...analysis, analyzer: `${ID}(${analysis.analyzer})` };
    // validatePolicy clamps into the policy's ranges and says what it changed.
    const { policy, changes } = validatePolicy({ ...analysis.policy, stopRegime: 'deep', evidenceCount: Math.max(12, analysis.policy.evidenceCount) });
    return { ...analysis, policy, changes: [...analysis.changes, ...changes], analyzer: `${ID}(${analysis.analyzer})` };
  },
};
// --- end of the analyzer ---

const report = await checkAnalyzerConformance({ analyzer: comparisonAnalyzer });
for (const check of report.checks) console.log(`${check.passed ? 'ok  ' : 'FAIL'} ${check.name}${check.message ? `: ${check.message}` : ''}`);
if (!report.passed) process.exit(1);

const { index, release } = await openExampleIndex();
const mosaic = createMosaic({ index, analyzer: comparisonAnalyzer, windows: 3 });
for (const question of ['How is Morrow syndrome diagnosed and treated?', 'Who keeps the lamp at Kestrel Point?']) {
  const plain = await offline.analyze({ question: { text: question } });
  const result = await mosaic.ask({ question });
  console.log(
    `${question}\n  ${result.analysis.analyzer}: evidence ${plain.policy.evidenceCount} → ${result.policy.evidenceCount}, stop regime ${plain.policy.stopRegime} → ${result.policy.stopRegime}`,
  );
  console.log(`  answer: ${result.answer.text.slice(0, 140)}`);
}
await release();
