import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { FIXED_POLICY_NAMES } from '@mosaic/policy-schema';
import type { CorpusIndex } from '@mosaic/spec';
import type { GoldQuestion } from '@mosaic/evaluation';
import { RERANKER_NAMES, type RerankerName } from '@mosaic/window-reranker';
import { parseCommandArgs, positiveInteger, requireString } from '../args.js';
import { judgeSystems } from '../bench/judge-systems.js';
import { runBench } from '../bench/run-bench.js';
import type { RetrievalLine } from '../retrieval-line.js';
import { bm25System, denseSystem, mosaicSystem, type BenchSystem } from '../bench/systems.js';
import { summaryTable, writeReport } from '../bench/write-report.js';
import { chooseEncoder, ENCODER_HELP, openAIConfigured } from '../choose-components.js';
import { CliError } from '../cli-error.js';
import { locateIndexes } from '../index-locator.js';
import { chooseAnalyzer, openIndex } from '../open-pipeline.js';
import { readQuestions } from '../questions.js';

export const BENCH_HELP = `mosaic bench --index DIR --questions FILE --out DIR [options]

Runs every system on the same indexes and windows budget and scores them with the
METRICS.md retrieval metrics (per question type and overall, at 15 and 5 windows), graph-search
effort, per-stage latency p50/p95, the policy distribution, and index build figures.
Writes report.md, report.json, runs/<system>.jsonl and SVG charts to --out; prints the summary.

Systems: bm25, dense, fixed-narrow, fixed-medium, fixed-wide, adaptive (offline analyzer, default fusion reranker),
adaptive with each further named reranker, and adaptive-openai when OPENAI_API_KEY is set.

  --index DIR           folder of corpus indexes (mosaic index output) or one index
  --questions FILE      GraphRAG-Bench questions JSON (required)
  --out DIR             output folder (required)
  --limit N             only the first N questions
  --systems LIST        comma-separated subset of system names
  --encoder NAME        ${ENCODER_HELP}
  --judge               also score answers the GraphRAG-Bench way: the OpenAI-compatible generator answers
                        from each judged system's contexts and an LLM judge rates them against the gold
                        answer (needs OPENAI_API_KEY, or OPENAI_BASE_URL for a local server)
  --judge-systems LIST  systems to judge (default adaptive,bm25); two LLM calls per question each
  --judge-model NAME    model of the generator and the judge (default gpt-4o-mini)
`;

export function benchSystems(): BenchSystem[] {
  const offline = chooseAnalyzer('offline');
  const systems: BenchSystem[] = [bm25System(), denseSystem()];
  for (const name of FIXED_POLICY_NAMES) {
    systems.push(mosaicSystem({ name: `fixed-${name}`, description: `Mosaic pipeline, fixed ${name} policy (report Table 6)`, policy: name, analyzer: offline }));
  }
  systems.push(mosaicSystem({ name: 'adaptive', description: 'Mosaic, offline analyzer, default reranker (fusion)', analyzer: offline }));
  // 'fusion' is the pipeline's default, i.e. the 'adaptive' system itself.
  for (const reranker of (RERANKER_NAMES as readonly RerankerName[]).filter((name) => name !== 'fusion')) {
    systems.push(mosaicSystem({ name: `adaptive+${reranker}`, description: `Mosaic, offline analyzer, ${reranker} reranker`, analyzer: offline, reranker }));
  }
  if (openAIConfigured()) {
    systems.push(mosaicSystem({ name: 'adaptive-openai', description: 'Mosaic, OpenAI-compatible analyzer (offline fallback)', analyzer: chooseAnalyzer('openai') }));
  }
  return systems;
}

export async function benchCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs('bench', argv, {
    index: { type: 'string' },
    questions: { type: 'string' },
    out: { type: 'string' },
    limit: { type: 'string' },
    systems: { type: 'string' },
    encoder: { type: 'string' },
    judge: { type: 'boolean' },
    'judge-systems': { type: 'string' },
    'judge-model': { type: 'string' },
  });
  if (values.help) return void process.stdout.write(BENCH_HELP);
  if (values.judge && !openAIConfigured() && !process.env.OPENAI_BASE_URL) {
    throw new CliError('bench: --judge needs an OpenAI-compatible server: set OPENAI_API_KEY (and OPENAI_BASE_URL for a local one)');
  }
  const indexes = locateIndexes(requireString('bench', values, 'index'));
  const questions = readQuestions(requireString('bench', values, 'questions'), values.limit ? positiveInteger('bench', 'limit', values.limit, 1) : undefined);
  const out = requireString('bench', values, 'out');
  let systems = benchSystems();
  if (values.systems) {
    const wanted = String(values.systems).split(',').map((s) => s.trim()).filter(Boolean);
    const unknown = wanted.filter((w) => !systems.some((s) => s.name === w));
    if (unknown.length) throw new CliError(`bench: unknown system(s) ${unknown.join(', ')}; available: ${systems.map((s) => s.name).join(', ')}`);
    systems = systems.filter((s) => wanted.includes(s.name));
  }
  const single = indexes.size === 1 ? [...indexes.values()][0] : undefined;
  const missing = [...new Set(questions.map((q) => q.source ?? ''))].filter((s) => !single && !indexes.has(s));
  if (missing.length) throw new CliError(`bench: no index for source(s) ${missing.join(', ')} in ${values.index}`);
  const encoder = await chooseEncoder(values.encoder as string | undefined);
  const opened = new Map<string, CorpusIndex>();
  for (const q of questions) {
    const located = single ?? indexes.get(q.source!)!;
    if (!opened.has(located.dir)) opened.set(located.dir, await openIndex(located, encoder));
  }
  const indexOf = (q: GoldQuestion) => opened.get((single ?? indexes.get(q.source!)!).dir)!;
  mkdirSync(join(out, 'runs'), { recursive: true });
  const streams = new Map<string, WriteStream>();
  const linesBySystem = new Map<string, RetrievalLine[]>();
  const report = await runBench({
    systems,
    questions,
    indexOf,
    onProgress: ({ system, done, total }) => {
      if (done % 100 === 0 || done === total) process.stderr.write(`bench: ${system} ${done}/${total}\n`);
    },
    onLine: (system, line) => {
      if (!linesBySystem.has(system)) linesBySystem.set(system, []);
      linesBySystem.get(system)!.push(line);
      let stream = streams.get(system);
      if (!stream) {
        stream = createWriteStream(join(out, 'runs', `${system}.jsonl`));
        streams.set(system, stream);
      }
      stream.write(`${JSON.stringify(line)}\n`);
    },
  });
  await Promise.all([...streams.values()].map((s) => new Promise<void>((resolve) => s.end(() => resolve()))));
  if (values.judge) {
    const judged = String(values['judge-systems'] ?? 'adaptive,bm25').split(',').map((x) => x.trim()).filter((x) => linesBySystem.has(x));
    report.answerCorrectness = await judgeSystems({
      questions,
      lines: linesBySystem,
      systems: judged,
      model: values['judge-model'] as string | undefined,
      onProgress: ({ system, stage, done, total }) => {
        if (done % 50 === 0 || done === total) process.stderr.write(`bench: ${stage} ${system} ${done}/${total}\n`);
      },
    });
  }
  const files = writeReport(report, out);
  process.stdout.write(`${summaryTable(report)}\n\nwrote ${files.join(', ')}\n`);
}
