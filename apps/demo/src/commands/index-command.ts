import { existsSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { buildCorpusIndexes, buildIndex, corpusDirectoryName, createOfflineExtractor, createOpenAIExtractor, type BuildIndexResult } from '@mosaic/indexing';
import type { Extractor } from '@mosaic/spec';
import { createProgressReporter } from '../progress-reporter.js';
import { oneOf, parseCommandArgs, requireString } from '../args.js';
import { chooseEncoder, ENCODER_HELP } from '../choose-components.js';
import { CliError, CliFailure } from '../cli-error.js';
import { STOP_SIGNALS, stopOnSignals } from '../stop-on-signals.js';

export const INDEX_HELP = `mosaic index --corpus FILE|DIR --out DIR [options]

Builds one index per corpus_name of a GraphRAG-Bench corpus file ([{corpus_name, context}]),
or one index of a folder of .txt/.md files, into DIR/<corpus>/.

  --corpus FILE|DIR     corpus JSON file or folder of .txt/.md files (required)
  --out DIR             output folder (required); existing indexes are replaced atomically
  --extractor NAME      offline (default; wink-nlp, no key) | openai (OPENAI_API_KEY / OPENAI_BASE_URL)
  --model NAME          chat model of the openai extractor (default gpt-4o-mini)
  --encoder NAME        ${ENCODER_HELP}
  --factory STRING      faiss factory string for the vector indexes (default Flat = exact inner product)
  --cache DIR           extraction cache for --extractor openai (default <out>/.extraction-cache)

Ctrl-C (SIGINT) or SIGTERM stops the build: the unfinished index's temporary directory is removed,
the existing index is kept, and the exit code is 130 (SIGINT) or 143 (SIGTERM).
`;

export async function indexCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs('index', argv, {
    corpus: { type: 'string' },
    out: { type: 'string' },
    extractor: { type: 'string' },
    model: { type: 'string' },
    encoder: { type: 'string' },
    factory: { type: 'string' },
    cache: { type: 'string' },
  });
  if (values.help) return void process.stdout.write(INDEX_HELP);
  const corpus = requireString('index', values, 'corpus');
  const out = requireString('index', values, 'out');
  if (!existsSync(corpus)) throw new CliError(`--corpus ${corpus}: no such file or directory`);
  if (existsSync(out) && !statSync(out).isDirectory()) throw new CliError(`--out ${out} exists and is not a directory`);
  const extractorName = oneOf('extractor', values.extractor, ['offline', 'openai'] as const, 'offline');
  const extractor: Extractor =
    extractorName === 'openai'
      ? createOpenAIExtractor({ model: values.model as string | undefined, cacheDir: (values.cache as string | undefined) ?? `${out}/.extraction-cache` })
      : createOfflineExtractor();
  // SIGINT / SIGTERM abort the build: its temporary directory is removed, the old index kept.
  const stop = stopOnSignals();
  let results: BuildIndexResult[];
  const progress = createProgressReporter();
  const started = performance.now();
  try {
    const encoder = await chooseEncoder(values.encoder as string | undefined);
    const common = { encoder, extractor, vectorFactory: (values.factory as string | undefined) ?? 'Flat', onProgress: progress, abortSignal: stop.signal };
    results = statSync(corpus).isDirectory()
      ? [await buildIndex({ ...common, corpusPath: corpus, outDir: join(out, corpusDirectoryName(basename(resolve(corpus)))) })]
      : (await buildCorpusIndexes({ ...common, corpusPath: corpus, outDir: out })).indexes;
  } catch (error) {
    const signal = stop.received();
    if (signal === undefined) throw error;
    progress.done();
    throw new CliFailure({
      message: `stopped by ${signal}: the unfinished index was removed; ${out} holds what it held before (and any corpus finished before the signal)`,
      exitCode: STOP_SIGNALS[signal],
      cause: error,
    });
  } finally {
    stop.dispose();
  }
  progress.done();
  for (const r of results) {
    const c = r.manifest.counts;
    process.stdout.write(
      `${r.manifest.corpus}: ${r.dir}  chunks ${c.chunks}, windows ${c.windows}, entities ${c.entities}, relations ${c.relations}, ${(r.manifest.buildTimeMs / 1000).toFixed(1)} s\n`,
    );
  }
  process.stdout.write(`indexed ${results.length} corpus index(es) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
