import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { FIXED_POLICY_NAMES } from '@mosaic/policy-schema';
import type { Mosaic } from '@mosaic/pipeline';
import { oneOf, parseCommandArgs, positiveInteger, requireString } from '../args.js';
import { chooseEncoder, chooseGraph, chooseRerankerName, ENCODER_HELP, RERANKER_HELP } from '../choose-components.js';
import { CliError } from '../cli-error.js';
import { locateIndexes } from '../index-locator.js';
import { chooseAnalyzer, openIndex, openPipeline } from '../open-pipeline.js';
import { readQuestions } from '../questions.js';
import { retrievalLine } from '../retrieval-line.js';

export const RETRIEVE_HELP = `mosaic retrieve --index DIR --questions FILE --out FILE [options]

Retrieves windows for every question of a GraphRAG-Bench question file; a question's
'source' picks the corpus index in DIR. Writes one JSON line per question:
{"id", "contexts", "policy", "latency_ms", "paths_evaluated", "depth_reached", "evidence_units"}
(latency_ms covers retrieval only, no LLM call).

  --index DIR           a folder of corpus indexes (as written by mosaic index) or one index
  --questions FILE      GraphRAG-Bench questions JSON (required)
  --out FILE            output JSON-lines file (required)
  --policy NAME         adaptive (default) | narrow | medium | wide
  --analyzer NAME       offline (default) | openai
  --reranker NAME       ${RERANKER_HELP}
  --graph on|off        on (default) | off: the no-graph ablation: the same pipeline and reranker, but no
                        seed selection, traversal or evidence selection (the reranker gets an empty
                        evidence list); same line format, paths_evaluated/depth_reached/evidence_units 0
  --windows N           contexts per question (default 15)
  --limit N             only the first N questions
  --encoder NAME        ${ENCODER_HELP}
  --policy-log FILE     append every analysis (policy, validation changes, analyzer, latency) as a JSON line
`;

export async function retrieveCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs('retrieve', argv, {
    index: { type: 'string' },
    questions: { type: 'string' },
    out: { type: 'string' },
    policy: { type: 'string' },
    analyzer: { type: 'string' },
    windows: { type: 'string' },
    limit: { type: 'string' },
    encoder: { type: 'string' },
    'policy-log': { type: 'string' },
    reranker: { type: 'string' },
    graph: { type: 'string' },
  });
  if (values.help) return void process.stdout.write(RETRIEVE_HELP);
  const reranker = chooseRerankerName('retrieve', values.reranker);
  const graph = chooseGraph('retrieve', values.graph);
  const indexes = locateIndexes(requireString('retrieve', values, 'index'));
  const questions = readQuestions(requireString('retrieve', values, 'questions'), values.limit ? positiveInteger('retrieve', 'limit', values.limit, 1) : undefined);
  const out = requireString('retrieve', values, 'out');
  const policy = oneOf('retrieve', 'policy', values.policy, ['adaptive', ...FIXED_POLICY_NAMES] as const, 'adaptive');
  const windows = positiveInteger('retrieve', 'windows', values.windows, 15);
  const analyzer = chooseAnalyzer(oneOf('retrieve', 'analyzer', values.analyzer, ['offline', 'openai'] as const, 'offline'), {
    policyLog: values['policy-log'] as string | undefined,
  });
  const single = indexes.size === 1 ? [...indexes.values()][0] : undefined;
  for (const q of questions) {
    if (!single && !indexes.has(q.source ?? '')) {
      throw new CliError(`retrieve: question ${q.id} has source '${q.source}', for which ${values.index} holds no index (have: ${[...indexes.keys()].join(', ')})`);
    }
  }
  const encoder = await chooseEncoder(values.encoder as string | undefined);
  const pipelines = new Map<string, Mosaic>();
  if (!existsSync(dirname(out))) mkdirSync(dirname(out), { recursive: true });
  const stream = createWriteStream(out);
  let done = 0;
  for (const q of questions) {
    const located = single ?? indexes.get(q.source!)!;
    let mosaic = pipelines.get(located.dir);
    if (!mosaic) {
      mosaic = openPipeline({ index: await openIndex(located, encoder), analyzer, windows, reranker, graph });
      pipelines.set(located.dir, mosaic);
    }
    const retrieval = await mosaic.retrieve({ question: { id: q.id, text: q.question }, policy: policy === 'adaptive' ? undefined : policy });
    stream.write(`${JSON.stringify(retrievalLine(q.id, retrieval))}\n`);
    done += 1;
    if (done % 50 === 0 || done === questions.length) process.stderr.write(`retrieve: ${done}/${questions.length}\n`);
  }
  await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
  process.stdout.write(`wrote ${done} lines to ${out}\n`);
}
