import { existsSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import {
  addDocuments,
  addDocumentsInto,
  buildCorpusIndexes,
  buildIndex,
  buildIndexInto,
  createOfflineExtractor,
  createOpenAIExtractor,
  readCorpusJson,
  readCorpusPath,
  type CorpusDocuments,
  type CorpusReadReport,
  type IndexStoreBuildResult,
} from '@mosaic/indexing';
import { corpusDirectoryName, isCorpusJsonFile, summarizeSkipped } from '@mosaic/indexing/internal';
import type { Encoder, Extractor, SourceDocument } from '@mosaic/spec';
import { createSurrealIndexStore } from '@mosaic/store-surrealdb';
import { createProgressReporter, type ProgressReporter } from '../progress-reporter.js';
import { oneOf, parseCommandArgs, secondsAsMs } from '../args.js';
import { chooseEncoder, ENCODER_HELP } from '../choose-components.js';
import { fullGarbageCollection } from '../full-gc.js';
import { CliError, CliFailure } from '../cli-error.js';
import { STOP_SIGNALS, stopOnSignals } from '../stop-on-signals.js';
import { createStoreConnections, databaseName, STORE_FLAGS, storeHelp, storeTarget, storeWriteWarning } from '../store-options.js';

export const INDEX_HELP = `mosaic index --corpus FILE|DIR --out DIR [options]
       mosaic index --corpus FILE|DIR --store URL [options]
       mosaic index --add --corpus FILE|DIR (--out DIR | --store URL) [options]

Builds one index of a folder of documents, or of one document file, into DIR/<corpus>/; or one
index per corpus_name of a GraphRAG-Bench corpus file (a .json array of {corpus_name, context});
or, with --store, straight into SurrealDB (one database per corpus), without an index directory.

Documents are read by format, as clean text with their title, sections and line (or page) spans:
Markdown (.md, CommonMark + GFM), HTML (.html/.htm; scripts, styles, navigation dropped),
reStructuredText (.rst, Sphinx .rst.txt), PDF (.pdf, text per page) and any other file that is
UTF-8 text (with any extension or none). A file that cannot be read (binary, not UTF-8, empty,
too large, a broken PDF, a symbolic-link loop) is named on stderr and skipped; the build goes on.

  --corpus FILE|DIR     folder, document file, or GraphRAG-Bench corpus JSON file (required)
  --corpus-name NAME    a folder's or file's corpus name (default: the folder name, or the file name
                        without extension); of a JSON file, only that corpus
  --include GLOB        read only files matching GLOB (repeatable; a glob without '/' matches the
                        file name, one with '/' the path inside the folder, e.g. 'docs/**/*.md')
  --exclude GLOB        leave out files (or folders) matching GLOB (repeatable)
  --strict              a file that cannot be read stops the build (nothing is written)
  --max-file-mb N       skip files larger than N MB (default 200)
  --out DIR             output folder; existing indexes are replaced atomically
  --add                 add the corpus's documents to the existing index of that corpus instead of
                        rebuilding it (DIR/<corpus>/, or its database): only the new documents are
                        chunked, extracted and encoded; their ids must not be in the index yet
  --extractor NAME      offline (default; wink-nlp, no key) | openai (OPENAI_API_KEY / OPENAI_BASE_URL)
  --model NAME          chat model of the openai extractor (default gpt-4o-mini)
  --encoder NAME        ${ENCODER_HELP}
  --factory STRING      faiss factory string for the vector indexes (default auto: per kind, exact inner
                        product over float16 vectors (SQfp16) below 250,000 entities or relations and
                        50,000 windows, HNSW16_SQfp16 from there on; Flat stores float32)
  --lexical-workers N   worker threads building the BM25 indexes beside the merge and the encoding
                        (default 2 on two cores or more); 0 builds them on the main thread: slower,
                        less memory at the build's peak; the index is the same
  --extract-stall S     seconds an extraction worker may go without extracting a chunk before its
                        block goes to a fresh worker (default 120); if that one stalls too, the
                        build stops, naming the chunks
  --cache DIR           extraction cache for --extractor openai (default <out>/.extraction-cache, or
                        .mosaic/extraction-cache with --store)
${storeHelp('the corpus name, with characters other than letters, digits and _ replaced by _')}
With --store, each index is written as a new generation of tables and made current in one step at
the end; the previous one (an existing index is replaced, or extended with --add) stays intact
until then.

Ctrl-C (SIGINT) or SIGTERM stops the build: the unfinished index's temporary directory (or tables)
is removed, the existing index is kept, and the exit code is 130 (SIGINT) or 143 (SIGTERM).
`;

interface ReadFlags {
  include?: string[];
  exclude?: string[];
  strict: boolean;
  maxDocumentBytes?: number;
}

/**
 * The corpora named by --corpus (and --corpus-name): a folder or a document file is one corpus
 * (skipped files named on stderr as they happen, the summary on stdout), a JSON file one per corpus_name.
 */
async function readCorpora(path: string, name: string | undefined, flags: ReadFlags): Promise<CorpusDocuments[]> {
  if (statSync(path).isDirectory() || !(await isCorpusJsonFile(path))) {
    const { corpus, documents, report } = await readCorpusPath({
      path,
      corpus: name ?? (statSync(path).isDirectory() ? basename(resolve(path)) : undefined),
      include: flags.include,
      exclude: flags.exclude,
      strict: flags.strict,
      maxDocumentBytes: flags.maxDocumentBytes,
      onSkip: (file) => process.stderr.write(`skipped ${file.path}: ${file.message}\n`),
    });
    process.stdout.write(`${readSummary(report)}\n`);
    return [{ corpus, documents }];
  }
  const corpora = await readCorpusJson({ path });
  if (name === undefined) return corpora;
  const found = corpora.filter((c) => c.corpus === name);
  if (found.length === 0) throw new CliError(`--corpus-name ${name}: no such corpus_name in ${path} (have: ${corpora.map((c) => c.corpus).join(', ')})`);
  return found;
}

/** "read 12 files (3.1 MB: html 10, markdown 2); skipped 2: 1 not-utf8, 1 empty; 4 left out by --include/--exclude" */
export function readSummary(report: CorpusReadReport): string {
  const formats = Object.entries(report.byFormat)
    .map(([format, count]) => `${format} ${count}`)
    .join(', ');
  const parts = [`read ${report.read} file${report.read === 1 ? '' : 's'} (${(report.bytes / 2 ** 20).toFixed(1)} MB: ${formats})`];
  parts.push(report.skipped.length > 0 ? summarizeSkipped(report.skipped) : 'skipped 0');
  if (report.excluded > 0) parts.push(`${report.excluded} left out by --include/--exclude`);
  return parts.join('; ');
}

interface IndexRun {
  encoder: Encoder;
  extractor: Extractor;
  vectorFactory: string;
  lexicalWorkers?: number;
  extractStallMs?: number;
  collectGarbage: () => void;
  onProgress: ProgressReporter;
  abortSignal: AbortSignal;
}

/** Build or extend one index per corpus in SurrealDB, one database each (or the one --database names). */
async function indexIntoStore(values: Record<string, unknown>, corpora: CorpusDocuments[], add: boolean, run: IndexRun) {
  if (values.database !== undefined && corpora.length > 1) {
    throw new CliError(`--database names one database, but ${values.corpus} holds ${corpora.length} corpora; pass --corpus-name NAME or leave --database out`);
  }
  const results: { corpus: string; result: IndexStoreBuildResult }[] = [];
  const warning = storeWriteWarning(String(values.store));
  if (warning) process.stderr.write(`${warning}\n`);
  const connections = createStoreConnections();
  try {
    for (const { corpus, documents } of corpora) {
      const connection = await connections.open(storeTarget(values, databaseName(corpus)));
      const store = createSurrealIndexStore({ connection, replace: true, batchSize: 1000 });
      const result = add
        ? await addDocumentsInto({ ...run, store, documents })
        : await buildIndexInto({ ...run, store, documents: documents as SourceDocument[], corpus });
      results.push({ corpus, result });
    }
  } finally {
    await connections.close();
  }
  return results;
}

/** Build or extend one index per corpus in `out`/<corpus>/. */
async function indexIntoDirectories(corpusPath: string, out: string, corpora: CorpusDocuments[] | undefined, add: boolean, run: IndexRun) {
  if (!add && corpora === undefined) {
    // A GraphRAG-Bench corpus file: one index per corpus_name.
    const built = (await buildCorpusIndexes({ ...run, corpusPath, outDir: out })).indexes;
    return built.map((result) => ({ corpus: result.manifest.corpus, result }));
  }
  const results: { corpus: string; result: IndexStoreBuildResult }[] = [];
  for (const { corpus, documents } of corpora ?? []) {
    const dir = join(out, corpusDirectoryName(corpus));
    if (add && !existsSync(join(dir, 'manifest.json'))) throw new CliError(`--add: no index of corpus '${corpus}' in ${dir} (build it first, without --add)`);
    const result = add ? await addDocuments({ ...run, dir, documents }) : await buildIndex({ ...run, documents, corpus, outDir: dir });
    results.push({ corpus, result });
  }
  return results;
}

/** --lexical-workers N as a count (0 or more), or undefined for the default. */
function lexicalWorkers(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!/^\d+$/.test(String(value)) || !Number.isSafeInteger(count))
    throw new CliError(`--lexical-workers must be a whole number, 0 or more, got '${String(value)}'`);
  return count;
}

/** --max-file-mb N as bytes (a positive number), or undefined for the readers' default. */
function maxFileBytes(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const mb = Number(value);
  if (!Number.isFinite(mb) || mb <= 0) throw new CliError(`--max-file-mb must be a positive number, got '${String(value)}'`);
  return Math.floor(mb * 2 ** 20);
}

export async function indexCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs('index', argv, {
    corpus: { type: 'string' },
    'corpus-name': { type: 'string' },
    out: { type: 'string' },
    add: { type: 'boolean' },
    extractor: { type: 'string' },
    model: { type: 'string' },
    encoder: { type: 'string' },
    factory: { type: 'string' },
    cache: { type: 'string' },
    'lexical-workers': { type: 'string' },
    'extract-stall': { type: 'string' },
    include: { type: 'string', multiple: true },
    exclude: { type: 'string', multiple: true },
    strict: { type: 'boolean' },
    'max-file-mb': { type: 'string' },
    ...STORE_FLAGS,
  });
  if (values.help) return void process.stdout.write(INDEX_HELP);
  const corpus = values.corpus;
  if (typeof corpus !== 'string' || corpus === '') throw new CliError('--corpus is required (see mosaic index --help)');
  const out = values.out as string | undefined;
  const store = values.store as string | undefined;
  if ((out === undefined) === (store === undefined)) throw new CliError('give exactly one of --out DIR and --store URL (see mosaic index --help)');
  if (!existsSync(corpus)) throw new CliError(`--corpus ${corpus}: no such file or directory`);
  const workers = lexicalWorkers(values['lexical-workers']);
  const stallMs = secondsAsMs('--extract-stall', values['extract-stall']);
  if (out !== undefined && existsSync(out) && !statSync(out).isDirectory()) throw new CliError(`--out ${out} exists and is not a directory`);
  const add = values.add === true;
  const name = values['corpus-name'] as string | undefined;
  const extractorName = oneOf('extractor', values.extractor, ['offline', 'openai'] as const, 'offline');
  const cacheDir = (values.cache as string | undefined) ?? (out !== undefined ? `${out}/.extraction-cache` : '.mosaic/extraction-cache');
  const extractor: Extractor =
    extractorName === 'openai' ? createOpenAIExtractor({ model: values.model as string | undefined, cacheDir }) : createOfflineExtractor();
  // SIGINT / SIGTERM abort the build: its temporary directory (or tables) is removed, the old index kept.
  const stop = stopOnSignals();
  let results: { corpus: string; result: IndexStoreBuildResult }[];
  const progress = createProgressReporter();
  const started = performance.now();
  try {
    const benchJson = !statSync(corpus).isDirectory() && (await isCorpusJsonFile(corpus));
    if (benchJson && (values.include !== undefined || values.exclude !== undefined)) {
      throw new CliError('--include/--exclude choose files of a folder; --corpus is a corpus JSON file');
    }
    const flags: ReadFlags = {
      include: values.include as string[] | undefined,
      exclude: values.exclude as string[] | undefined,
      strict: values.strict === true,
      maxDocumentBytes: maxFileBytes(values['max-file-mb']),
    };
    const corpora = store !== undefined || add || name !== undefined || !benchJson ? await readCorpora(corpus, name, flags) : undefined;
    const encoder = await chooseEncoder(values.encoder as string | undefined);
    const run: IndexRun = {
      encoder,
      extractor,
      vectorFactory: (values.factory as string | undefined) ?? 'auto',
      ...(workers !== undefined ? { lexicalWorkers: workers } : {}),
      ...(stallMs !== undefined ? { extractStallMs: stallMs } : {}),
      // A full collection where the build lets go of gigabytes (after the merge, after each kind's write).
      collectGarbage: fullGarbageCollection(),
      onProgress: progress,
      abortSignal: stop.signal,
    };
    results = store !== undefined ? await indexIntoStore(values, corpora!, add, run) : await indexIntoDirectories(corpus, out!, corpora, add, run);
  } catch (error) {
    const signal = stop.received();
    if (signal === undefined) throw error;
    progress.done();
    throw new CliFailure({
      message: `stopped by ${signal}: the unfinished index was removed; ${out ?? store} holds what it held before (and any corpus finished before the signal)`,
      exitCode: STOP_SIGNALS[signal],
      cause: error,
    });
  } finally {
    stop.dispose();
  }
  progress.done();
  for (const { result: r } of results) {
    const c = r.manifest.counts;
    process.stdout.write(
      `${r.manifest.corpus}: ${r.location}  ${add ? `+${r.trace.extractedChunks} chunks extracted, ` : ''}chunks ${c.chunks}, windows ${c.windows}, entities ${c.entities}, relations ${c.relations}, ${(r.manifest.buildTimeMs / 1000).toFixed(1)} s\n`,
    );
  }
  process.stdout.write(`${add ? 'extended' : 'indexed'} ${results.length} corpus index(es) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
