import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createLocalEngine, createWorkerPool, type MosaicEngine } from '@mosaic/server';
import type { RerankerName } from '@mosaic/window-reranker';
import { oneOf, positiveInteger } from './args.js';
import { chooseEncoder, chooseGraph, chooseRerankerName, ENCODER_HELP, RERANKER_HELP } from './choose-components.js';
import { CliError } from './cli-error.js';
import { locateIndexes, type LocatedIndex } from './index-locator.js';
import { queryWorkerArgs } from './heap-limit.js';
import { chooseAnalyzer, chooseGenerator, openIndex, openPipeline, type AnalyzerName, type GeneratorName } from './open-pipeline.js';
import { createStoreConnections, openStoreIndex, STORE_FLAGS, storeHelp, storeTarget } from './store-options.js';

/** The flags of the commands that serve a loaded index (serve, mcp). */
export const ENGINE_FLAGS = {
  index: { type: 'string' },
  corpus: { type: 'string' },
  workers: { type: 'string' },
  warmup: { type: 'string' },
  analyzer: { type: 'string' },
  generator: { type: 'string' },
  reranker: { type: 'string' },
  windows: { type: 'string' },
  graph: { type: 'string' },
  encoder: { type: 'string' },
  ...STORE_FLAGS,
} as const;

export function engineHelp(workers = 'the cores, at most 4'): string {
  return `  --index DIR           an index directory (as written by mosaic index), or a folder of them with --corpus
  --corpus NAME         which corpus of a folder of indexes (required when it holds several)
  --workers N           worker processes, each holding the loaded index (default: ${workers});
                        1 answers in this process. The pipeline is CPU-bound: more workers, more cores used
  --warmup N            questions each worker runs through every stage before /readyz says ready
                        (default 64, made from the index's entities; 0: none)
  --analyzer NAME       offline (default) | openai
  --generator NAME      extractive (default) | openai
  --reranker NAME       ${RERANKER_HELP}
  --windows N           default windows per question (default 15; a request may ask for 1–100)
  --graph on|off        on (default) | off (the no-graph ablation)
  --encoder NAME        ${ENCODER_HELP}
${storeHelp('mosaic')}`;
}

/** What a worker needs to open its engine (plain data, sent to each worker process). */
export interface EngineSpec {
  dir: string;
  encoder?: string;
  analyzer: AnalyzerName;
  generator: GeneratorName;
  reranker?: RerankerName;
  windows: number;
  graph: boolean;
  /** Warm-up questions before the engine serves (0: none). */
  warmUp: number;
}

export interface OpenedEngine {
  engine: MosaicEngine;
  /** Resolves once the index is loaded (every worker). */
  ready: Promise<void>;
  corpus: string;
  workers: number;
  close(): Promise<void>;
}

/** Opens a local engine over the index directory of `spec` (in this process: what each worker runs). */
export async function openLocalEngine(spec: EngineSpec): Promise<MosaicEngine> {
  const located = [...locateIndexes(spec.dir).values()][0]!;
  const encoder = await chooseEncoder(spec.encoder);
  const index = await openIndex(located, encoder);
  const mosaic = openPipeline({
    index,
    analyzer: chooseAnalyzer(spec.analyzer),
    generator: chooseGenerator(spec.generator),
    windows: spec.windows,
    reranker: spec.reranker,
    graph: spec.graph,
  });
  const engine = createLocalEngine({ mosaic, index });
  if (spec.warmUp > 0 && engine.warmUp) {
    const report = await engine.warmUp({ questions: spec.warmUp });
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), event: 'warmed-up', pid: process.pid, ...report })}\n`);
  }
  return engine;
}

function chooseIndex(dir: string, corpus: string | undefined): LocatedIndex {
  const found = locateIndexes(dir);
  if (corpus !== undefined) {
    const located = found.get(corpus);
    if (!located) throw new CliError(`--corpus ${corpus}: no index of that corpus in ${dir} (have: ${[...found.keys()].join(', ')})`);
    return located;
  }
  if (found.size > 1) throw new CliError(`--index ${dir} holds ${found.size} indexes (${[...found.keys()].join(', ')}); pick one with --corpus NAME`);
  return [...found.values()][0]!;
}

/** The engine of the flags: a pool of worker processes over `--index`, or one in this process (`--workers 1`, or `--store`). */
export async function openEngine(
  command: string,
  values: Record<string, unknown>,
  defaultWorkers = Math.min(4, availableParallelism()),
): Promise<OpenedEngine> {
  const store = typeof values.store === 'string';
  if (store && values.index !== undefined) throw new CliError(`give one of --index DIR and --store URL (see mosaic ${command} --help)`);
  if (!store && typeof values.index !== 'string') throw new CliError(`--index DIR or --store URL is required (see mosaic ${command} --help)`);
  const base = {
    encoder: values.encoder as string | undefined,
    analyzer: oneOf('analyzer', values.analyzer, ['offline', 'openai'] as const, 'offline'),
    generator: oneOf('generator', values.generator, ['extractive', 'openai'] as const, 'extractive'),
    reranker: chooseRerankerName(values.reranker),
    windows: positiveInteger('windows', values.windows, 15),
    graph: chooseGraph(values.graph),
    warmUp: values.warmup === '0' ? 0 : positiveInteger('warmup', values.warmup, 64),
  };
  const workers = positiveInteger('workers', values.workers, defaultWorkers);
  if (store) {
    // A database-backed index is served from this process (an embedded engine opens once per process).
    const connections = createStoreConnections();
    const target = storeTarget(values, (values.database as string | undefined) ?? (values.corpus as string | undefined));
    const index = await openStoreIndex(connections, target, await chooseEncoder(base.encoder));
    const mosaic = openPipeline({
      index,
      analyzer: chooseAnalyzer(base.analyzer),
      generator: chooseGenerator(base.generator),
      windows: base.windows,
      reranker: base.reranker,
      graph: base.graph,
    });
    const engine = createLocalEngine({ mosaic, index });
    if (base.warmUp > 0) await engine.warmUp?.({ questions: base.warmUp });
    return {
      engine,
      ready: Promise.resolve(),
      corpus: target.database ?? '',
      workers: 1,
      close: () => connections.close(),
    };
  }
  const located = chooseIndex(values.index as string, values.corpus as string | undefined);
  const spec: EngineSpec = { dir: located.dir, ...base };
  if (workers === 1) {
    const engine = await openLocalEngine(spec);
    return { engine, ready: Promise.resolve(), corpus: located.manifest.corpus, workers, close: () => engine.close() };
  }
  // Worker processes answer questions too: they start with the flags this command set in itself and its young generation (heap-limit.ts).
  const execArgv = queryWorkerArgs(process.execArgv, process.env.NODE_OPTIONS);
  const pool = createWorkerPool({ size: workers, worker: fileURLToPath(new URL('./serve-worker.js', import.meta.url)), workerData: spec, execArgv });
  return { engine: pool, ready: pool.ready, corpus: located.manifest.corpus, workers, close: () => pool.close() };
}
