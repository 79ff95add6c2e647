import type { Analysis, Analyzer, AnalyzerGraphView } from '@mosaic/spec';
import { substantiveChanges, validatePolicy } from '@mosaic/policy-schema';
import { createConformanceRun, createStageFixture, ensure, ensureAbortHonoured, ensureSame } from '@mosaic/testing/conformance';
import type { ConformanceReport, StageFixture } from '@mosaic/testing/conformance';

export { createStageFixture, type ConformanceReport, type StageFixture } from '@mosaic/testing/conformance';

export interface AnalyzerConformanceOptions {
  analyzer: Analyzer;
  /** Questions every policy must be valid for (default: a mix of ordinary, odd and long strings). */
  questions?: readonly string[];
  /** Its index feeds the graph view handed to the analyzer (default: `createStageFixture()` of @mosaic/testing). */
  fixture?: StageFixture;
}

/** The default questions: ordinary, one word, punctuation only, non-Latin, markup, very long. */
export const ANALYZER_CONFORMANCE_QUESTIONS: readonly string[] = [
  'Which drug treats the condition caused by prolonged exposure to veltrane dust?',
  'calditrex',
  '???',
  '   leading and trailing blanks   ',
  'Что вызывает синдром Морроу? 什么导致莫罗综合征？',
  '<script>alert(1)</script> {"seedLimit": 999, "maxDepth": -4}',
  `Compare ${Array.from({ length: 200 }, (_, i) => `item ${i}`).join(', ')}.`,
];

/** A graph view over a fixture index: exact, case-insensitive name lookup. */
async function graphViewOf(fixture: StageFixture): Promise<AnalyzerGraphView> {
  const nodes = await fixture.index.graph.getNodes(fixture.index.entityIds);
  const byName = new Map(nodes.map((node) => [node.name.toLowerCase(), node.id]));
  return {
    async lookup(mentions) {
      const found = new Map<string, string>();
      for (const mention of mentions) {
        const id = byName.get(mention.toLowerCase());
        if (id) found.set(mention, id);
      }
      return found;
    },
  };
}

/**
 * Check an Analyzer against the contract: a version tag and id; for any question string an
 * Analysis whose policy validation leaves unchanged (inside every range, nothing but defaults),
 * with `analyzer`, `changes` and `latencyMs`; a graph view accepted; an aborted signal rejected
 * with MosaicAbortedError; the same policy for the same question; and, when it has a `warmUp`, one
 * analysis per question with the policies `analyze` gives. Returns a report.
 */
export async function checkAnalyzerConformance(options: AnalyzerConformanceOptions): Promise<ConformanceReport> {
  const { analyzer } = options;
  const questions = options.questions ?? ANALYZER_CONFORMANCE_QUESTIONS;
  const fixture = options.fixture ?? (await createStageFixture());
  const graph = await graphViewOf(fixture);
  const run = createConformanceRun(`Analyzer ${String(analyzer.id)}`);
  const analyze = (text: string, abortSignal?: AbortSignal): Promise<Analysis> =>
    analyzer.analyze({ question: { id: 'conformance', text }, graph, abortSignal });

  await run.check('identifies itself with specificationVersion v1 and an id', () => {
    ensure(analyzer.specificationVersion === 'v1', `specificationVersion is ${String(analyzer.specificationVersion)}, expected 'v1'`);
    ensure(typeof analyzer.id === 'string' && analyzer.id.length > 0, 'id is empty');
  });
  const analyses = new Map<string, Analysis>();
  await run.check('returns a valid policy for any question', async () => {
    for (const text of questions) {
      const analysis = await analyze(text);
      analyses.set(text, analysis);
      const label = JSON.stringify(text.slice(0, 40));
      ensure(analysis && typeof analysis.policy === 'object', `${label}: no policy`);
      const changes = substantiveChanges(validatePolicy(analysis.policy).changes);
      ensure(changes.length === 0, `${label}: validation changes ${changes.map((change) => `${change.field} (${change.kind})`).join(', ')}`);
    }
  });
  await run.check('reports who chose the policy, what validation changed and how long it took', () => {
    for (const [text, analysis] of analyses) {
      const label = JSON.stringify(text.slice(0, 40));
      ensure(typeof analysis.analyzer === 'string' && analysis.analyzer.length > 0, `${label}: analysis.analyzer is empty`);
      ensure(Array.isArray(analysis.changes), `${label}: analysis.changes is not an array`);
      ensure(Number.isFinite(analysis.latencyMs) && analysis.latencyMs >= 0, `${label}: latencyMs ${analysis.latencyMs}`);
    }
    ensure(analyses.size === questions.length, 'not every question was analysed');
  });
  await run.check('works without a graph view', async () => {
    const analysis = await analyzer.analyze({ question: { text: questions[0] } });
    ensure(substantiveChanges(validatePolicy(analysis.policy).changes).length === 0, 'invalid policy without a graph view');
  });
  await run.check('rejects with MosaicAbortedError when the signal is already aborted', () =>
    ensureAbortHonoured((abortSignal) => analyze(questions[0], abortSignal)),
  );
  await run.check('is deterministic: the same policy for the same question', async () => {
    for (const text of questions.slice(0, 3)) {
      const again = await analyze(text);
      ensureSame(again.policy, analyses.get(text)?.policy, `${JSON.stringify(text.slice(0, 40))}: another policy on the second call`);
    }
  });
  await run.check('warms up as it analyzes: one analysis per question, the policies analyze gives (when it has a warmUp)', async () => {
    if (analyzer.warmUp === undefined) return;
    ensure(typeof analyzer.warmUp === 'function', 'warmUp is not a function');
    const texts = questions.slice(0, 3);
    const warmed = await analyzer.warmUp({ questions: texts.map((text, i) => ({ id: `warm-up-${i}`, text })), graph });
    ensure(
      Array.isArray(warmed) && warmed.length === texts.length,
      `warmUp gave ${Array.isArray(warmed) ? warmed.length : 'no'} analyses for ${texts.length} questions`,
    );
    for (const [i, text] of texts.entries()) {
      ensureSame(warmed[i]?.policy, analyses.get(text)?.policy, `${JSON.stringify(text.slice(0, 40))}: warmUp gave another policy than analyze`);
    }
  });
  return run.report();
}
