import { readPolicyLog, summarizePolicies, type PolicySummary } from '@mosaic/analyzer';
import { createIndexGraphView } from '@mosaic/pipeline';
import type { AnalyzerGraphView } from '@mosaic/spec';
import { oneOf, parseCommandArgs, positiveInteger } from '../args.js';
import { chooseEncoder } from '../choose-components.js';
import { CliError } from '../cli-error.js';
import { locateIndexes } from '../index-locator.js';
import { chooseAnalyzer, openIndex } from '../open-pipeline.js';
import { readQuestions } from '../questions.js';

export const POLICIES_HELP = `mosaic policies (--questions FILE | --log FILE) [options]

The policy distribution of the report's §7.4: unique policies, depth distribution, seed and
evidence ranges, activation of connector, adaptive evidence, hybrid selection, per-target seeding.

  --questions FILE      analyze every question of a GraphRAG-Bench file (writes --policy-log if given)
  --log FILE            summarise an existing policy log instead
  --index DIR           let the analyzer consult the graph (targets found, connected) for each question's source
  --analyzer NAME       offline (default) | openai
  --policy-log FILE     append every analysis as one JSON line
  --limit N             only the first N questions
  --json                print the summary as JSON
`;

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

export function formatPolicySummary(s: PolicySummary): string {
  const depth = Object.entries(s.depthDistribution)
    .map(([d, v]) => `${d}: ${pct(v)}`)
    .join(', ');
  return [
    `questions ${s.count}, unique policies ${s.uniquePolicies}`,
    `depth ${depth}`,
    `seeds ${s.seedRange.min}–${s.seedRange.max}, evidence ${s.evidenceRange.min}–${s.evidenceRange.max}, floor ${s.minEvidenceRange.min}–${s.minEvidenceRange.max}`,
    `connector ${pct(s.activation.connector)}, adaptive evidence ${pct(s.activation.adaptiveEvidence)}, hybrid ${pct(s.activation.hybridSelection)}, per-target ${pct(s.activation.perTargetSeeding)}, compact ${pct(s.activation.compactSeeding)}, anchoring ≥ 0.4 ${pct(s.activation.anchoring)}`,
    `stop regime ${Object.entries(s.stopRegimeDistribution)
      .map(([r, v]) => `${r} ${pct(v)}`)
      .join(', ')}`,
    `analyzer latency mean ${s.meanLatencyMs?.toFixed(3) ?? '–'} ms, fallback rate ${pct(s.fallbackRate)}`,
  ].join('\n');
}

export async function policiesCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs('policies', argv, {
    questions: { type: 'string' },
    log: { type: 'string' },
    index: { type: 'string' },
    analyzer: { type: 'string' },
    'policy-log': { type: 'string' },
    limit: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (values.help) return void process.stdout.write(POLICIES_HELP);
  let summary: PolicySummary;
  if (typeof values.log === 'string') {
    const { records, malformed } = await readPolicyLog({ path: values.log }).catch((error: Error) => {
      throw new CliError(`--log ${values.log}: ${error.message}`);
    });
    if (malformed > 0) process.stderr.write(`policies: skipped ${malformed} malformed line(s)\n`);
    summary = summarizePolicies(records);
  } else if (typeof values.questions === 'string') {
    const questions = readQuestions(values.questions, values.limit ? positiveInteger('limit', values.limit, 1) : undefined);
    const analyzer = chooseAnalyzer(oneOf('analyzer', values.analyzer, ['offline', 'openai'] as const, 'offline'), {
      policyLog: values['policy-log'] as string | undefined,
    });
    const views = new Map<string, AnalyzerGraphView>();
    if (typeof values.index === 'string') {
      const encoder = await chooseEncoder('embedded');
      for (const [corpus, located] of locateIndexes(values.index)) {
        if (questions.some((q) => q.source === corpus)) views.set(corpus, createIndexGraphView({ index: await openIndex(located, encoder) }));
      }
    }
    const analyses = [];
    for (const q of questions) {
      const analysis = await analyzer.analyze({ question: { id: q.id, text: q.question }, graph: views.get(q.source ?? '') });
      analyses.push({ policy: analysis.policy, latencyMs: analysis.latencyMs, fallback: analysis.fallback });
    }
    summary = summarizePolicies(analyses);
  } else {
    throw new CliError('pass --questions FILE or --log FILE');
  }
  process.stdout.write(values.json ? `${JSON.stringify(summary, null, 2)}\n` : `${formatPolicySummary(summary)}\n`);
}
