import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { FIXED_POLICY_NAMES } from '@mosaic/policy-schema';
import type { CorpusIndex } from '@mosaic/spec';
import type { GoldQuestion } from '@mosaic/evaluation';
import { RERANKER_NAMES, type RerankerName } from '@mosaic/window-reranker';
import { oneOf, parseCommandArgs, positiveInteger, requireString } from '../args.js';
import { judgeSystems } from '../bench/judge-systems.js';
import { runBench } from '../bench/run-bench.js';
import { runMetadata } from '../bench/run-metadata.js';
import type { RetrievalLine } from '../retrieval-line.js';
import { bm25System, denseSystem, mosaicSystem, type BenchSystem } from '../bench/systems.js';
import { summaryNotes, summaryTable, writeReport } from '../bench/write-report.js';
import { chooseEncoder, chooseGraph, chooseRerankerName, ENCODER_HELP, openAIConfigured, RERANKER_HELP } from '../choose-components.js';
import { CliError } from '../cli-error.js';
import { locateIndexes, type LocatedIndex } from '../index-locator.js';
import { createStoreConnections, databaseName, openStoreIndex, STORE_FLAGS, storeHelp, storeKey, storeTarget } from '../store-options.js';
import { chooseAnalyzer, openIndex } from '../open-pipeline.js';
import { readQuestions } from '../questions.js';

export const BENCH_HELP = `mosaic bench --index DIR --questions FILE --out DIR [options]
       mosaic bench --store URL --questions FILE --out DIR [options]

Runs every system on the same indexes and windows budget and scores them with the
METRICS.md retrieval metrics (per question type and overall, at 15 and 5 windows), graph-search
effort, per-stage latency p50/p95, the policy distribution, and index build figures.
Writes report.md, report.json, runs/<system>.jsonl and SVG charts to --out; prints the summary.
For every graph system the report also gives the graph reach: the windows its retained evidence maps
to (as the rerankers map evidence to windows), per question ("reach windows"), and METRICS.md evidence
recall with all of those windows as contexts ("reach er"); bm25 and dense show "–". "beam windows"
and "beam er" are the same figures for the evidence that every path the traversal scored would yield
(the evidence selector run again over all of them with no budget cut): against reach, they say whether
evidence was lost in traversal or in selection. They are computed after each retrieval and do not count
in its latency. Under the table, the ceiling: evidence recall with every window of the corpus as a
context, which no retriever of these windows can exceed; and, per reranker that ran a fixed policy,
the "Policy choice" line: the ER of the best fixed policy per question, and on how many questions
each adaptive system scores higher, equal or lower than the best fixed policy (not with --graph off).

Systems: bm25, dense, fixed-narrow, fixed-medium, fixed-wide, adaptive (offline analyzer), adaptive+<name>
for each named reranker but fusion (plus adaptive+fusion when --reranker is not fusion), and
adaptive-openai when OPENAI_API_KEY is set. fixed-*, adaptive and adaptive-openai use --reranker;
adaptive+<name> always uses <name>.

  --index DIR           folder of corpus indexes (mosaic index output) or one index
  --questions FILE      GraphRAG-Bench questions JSON (required)
  --out DIR             output folder (required)
  --limit N             only the first N questions
  --systems LIST        comma-separated subset of system names
  --encoder NAME        ${ENCODER_HELP}
  --reranker NAME       reranker of fixed-*, adaptive, adaptive-openai: ${RERANKER_HELP}
  --focus on|off        on (default): the answering window first (the pipeline's focus step); off keeps
                        the reranker's order (the same 15 windows, so ER@15 is unchanged; ER@5 may move)
  --graph on|off        on (default) | off: the no-graph ablation: every Mosaic system runs the same
                        pipeline and reranker but without seed selection, traversal or evidence selection
                        (the reranker gets an empty evidence list, reach is 0). Mosaic system names get
                        the suffix -nograph (e.g. adaptive-nograph; --systems and --judge-systems accept
                        either name) and report.json records "graph": false, so two reports compare
                        side by side
  --judge               also score answers the GraphRAG-Bench way: the OpenAI-compatible generator answers
                        from each judged system's contexts and an LLM judge rates them against the gold
                        answer (needs OPENAI_API_KEY, or OPENAI_BASE_URL for a local server)
  --judge-systems LIST  systems to judge (default adaptive,bm25); two LLM calls per question each
  --judge-model NAME    model of the generator and the judge (default gpt-4o-mini)
${storeHelp("each question's source, with characters other than letters, digits and _ replaced by _ (one database per source)")}`;

/** Suffix of every Mosaic system's name under `--graph off`. */
export const NO_GRAPH_SUFFIX = '-nograph';

export interface BenchSystemsOptions {
  /** Reranker of the Mosaic systems that do not name their own; default the pipeline's (fusion). */
  reranker?: RerankerName;
  /** false: every Mosaic system runs without graph evidence and its name ends in NO_GRAPH_SUFFIX. */
  graph?: boolean;
  /** false: the Mosaic systems keep the reranker's window order (the pipeline's focus step off). */
  focus?: boolean;
}

export function benchSystems(options: BenchSystemsOptions = {}): BenchSystem[] {
  const offline = chooseAnalyzer('offline');
  const reranker = options.reranker ?? 'fusion';
  const graph = options.graph ?? true;
  const mosaic = (system: Parameters<typeof mosaicSystem>[0]) =>
    mosaicSystem({
      ...system,
      name: graph ? system.name : `${system.name}${NO_GRAPH_SUFFIX}`,
      description: graph ? system.description : `${system.description}; graph off (no graph evidence)`,
      reranker: system.reranker ?? options.reranker,
      graph,
      focus: options.focus,
    });
  const systems: BenchSystem[] = [bm25System(), denseSystem()];
  for (const name of FIXED_POLICY_NAMES) {
    systems.push(
      mosaic({
        name: `fixed-${name}`,
        description: `Mosaic pipeline, fixed ${name} policy (report Table 6), ${reranker} reranker`,
        policy: name,
        analyzer: offline,
      }),
    );
  }
  systems.push(mosaic({ name: 'adaptive', description: `Mosaic, offline analyzer, ${reranker} reranker`, analyzer: offline }));
  // 'fusion' is the pipeline's default, i.e. the 'adaptive' system itself unless --reranker names another.
  for (const named of (RERANKER_NAMES as readonly RerankerName[]).filter((name) => name !== 'fusion' || reranker !== 'fusion')) {
    systems.push(mosaic({ name: `adaptive+${named}`, description: `Mosaic, offline analyzer, ${named} reranker`, analyzer: offline, reranker: named }));
  }
  if (openAIConfigured()) {
    systems.push(
      mosaic({
        name: 'adaptive-openai',
        description: `Mosaic, OpenAI-compatible analyzer (offline fallback), ${reranker} reranker`,
        analyzer: chooseAnalyzer('openai'),
      }),
    );
  }
  return systems;
}

/** Whether a name given to --systems or --judge-systems means this system (with or without the -nograph suffix). */
function names(system: string, wanted: string): boolean {
  return system === wanted || system === `${wanted}${NO_GRAPH_SUFFIX}`;
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
    reranker: { type: 'string' },
    graph: { type: 'string' },
    focus: { type: 'string' },
    ...STORE_FLAGS,
  });
  if (values.help) return void process.stdout.write(BENCH_HELP);
  const run = runMetadata('bench', argv);
  const reranker = chooseRerankerName(values.reranker);
  const graph = chooseGraph(values.graph);
  if (values.judge && !openAIConfigured() && !process.env.OPENAI_BASE_URL) {
    throw new CliError('--judge needs an OpenAI-compatible server: set OPENAI_API_KEY (and OPENAI_BASE_URL for a local one)');
  }
  const store = typeof values.store === 'string';
  const indexes = store ? new Map<string, LocatedIndex>() : locateIndexes(requireString('bench', values, 'index'));
  const questions = readQuestions(requireString('bench', values, 'questions'), values.limit ? positiveInteger('limit', values.limit, 1) : undefined);
  const out = requireString('bench', values, 'out');
  const focus = oneOf('focus', values.focus, ['on', 'off'] as const, 'on') === 'on';
  let systems = benchSystems({ reranker, graph, focus });
  if (values.systems) {
    const wanted = String(values.systems)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = wanted.filter((w) => !systems.some((s) => names(s.name, w)));
    if (unknown.length) throw new CliError(`unknown system(s) ${unknown.join(', ')}; available: ${systems.map((s) => s.name).join(', ')}`);
    systems = systems.filter((s) => wanted.some((w) => names(s.name, w)));
  }
  const single = store ? undefined : indexes.size === 1 ? [...indexes.values()][0] : undefined;
  const missing = store ? [] : [...new Set(questions.map((q) => q.source ?? ''))].filter((s) => !single && !indexes.has(s));
  if (missing.length) throw new CliError(`no index for source(s) ${missing.join(', ')} in ${values.index}`);
  const encoder = await chooseEncoder(values.encoder as string | undefined);
  const opened = new Map<string, CorpusIndex>();
  // With --store: one database per question source (or the one --database names), opened once.
  const targetOf = (q: GoldQuestion) => storeTarget(values, databaseName(q.source ?? ''));
  const keyOf = (q: GoldQuestion) => (store ? storeKey(targetOf(q)) : (single ?? indexes.get(q.source!)!).dir);
  const connections = createStoreConnections();
  for (const q of questions) {
    const key = keyOf(q);
    if (opened.has(key)) continue;
    opened.set(key, store ? await openStoreIndex(connections, targetOf(q), encoder) : await openIndex(single ?? indexes.get(q.source!)!, encoder));
  }
  const indexOf = (q: GoldQuestion) => opened.get(keyOf(q))!;
  mkdirSync(join(out, 'runs'), { recursive: true });
  const streams = new Map<string, WriteStream>();
  const linesBySystem = new Map<string, RetrievalLine[]>();
  const report = await runBench({
    systems,
    questions,
    indexOf,
    graph,
    reranker: reranker ?? 'fusion',
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
    const judged = [
      ...new Set(
        String(values['judge-systems'] ?? 'adaptive,bm25')
          .split(',')
          .map((x) => x.trim())
          .flatMap((x) => [...linesBySystem.keys()].filter((name) => names(name, x))),
      ),
    ];
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
  await connections.close();
  report.run = run;
  const files = writeReport(report, out);
  const notes = summaryNotes(report).map((line) => `${line}\n\n`);
  process.stdout.write(`${summaryTable(report)}\n\n${notes.join('')}wrote ${files.join(', ')}\n`);
}
