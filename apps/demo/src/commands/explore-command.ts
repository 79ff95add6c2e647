import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findWorkspaceRoot } from '@mosaic/encoders/internal';
import { buildCorpusIndexes, createOfflineExtractor } from '@mosaic/indexing';
import type { Encoder } from '@mosaic/spec';
import { SAMPLE_DOCUMENTS, SAMPLE_QUESTIONS, writeSampleCorpus } from '@mosaic/evaluation/sample';
import { oneOf, parseCommandArgs, positiveInteger } from '../args.js';
import { chooseEncoder, ENCODER_HELP } from '../choose-components.js';
import { CliError } from '../cli-error.js';
import { startExplorerServer, type ExplorerCorpus, type ExplorerServer } from '../explorer/explorer-server.js';
import { locateIndexes, type LocatedIndex } from '../index-locator.js';
import { chooseAnalyzer, chooseGenerator, openIndex, openPipeline } from '../open-pipeline.js';
import { readQuestions } from '../questions.js';

export const EXPLORE_HELP = `mosaic explore [options]

Serves a web page that shows how a question changed the retrieval: the policy next to its
defaults (with what validation changed, the analyzer's rationale, targets and facets), the
explored subgraph drawn with sigma.js depth by depth, the stop decision per depth, the top
windows with their evidence highlighted, the answer with citations, and the same question
under Narrow / Medium / Wide side by side. Prints the URL and serves until Ctrl-C.

Without --index it serves the built-in sample corpus, indexed offline into
.mosaic/indexes-sample the first time (reused afterwards).

  --index DIR           an index directory, or a folder of them (one per corpus)
  --corpus NAME         the corpus selected first when DIR holds several
  --questions FILE      GraphRAG-Bench questions offered as examples (a few per corpus)
  --host HOST           interface to bind (default 127.0.0.1; anything else exposes the page)
  --port N              port (default 0: a free port)
  --analyzer NAME       offline (default) | openai
  --generator NAME      extractive (default) | openai
  --windows N           windows handed to the generator (default 15)
  --encoder NAME        ${ENCODER_HELP}
  --rebuild             rebuild the sample corpus index
`;

export interface ExploreCommandOptions {
  /** Stops the server (default: SIGINT / SIGTERM). */
  abortSignal?: AbortSignal;
  /** Called once the server listens. */
  onListening?(server: ExplorerServer): void;
}

const EXAMPLES_PER_CORPUS = 4;

/** Builds the sample corpus index under `dir` unless one for `encoder` is there already. */
async function ensureSampleIndex(dir: string, encoder: Encoder, rebuild: boolean): Promise<void> {
  const wanted = SAMPLE_DOCUMENTS.map((d) => d.corpus_name);
  if (!rebuild && existsSync(dir)) {
    try {
      const found = locateIndexes(dir);
      if (wanted.every((name) => found.get(name)?.manifest.encoder.id === encoder.id)) {
        process.stdout.write(`reusing the sample corpus index in ${dir} (--rebuild to rebuild)\n`);
        return;
      }
    } catch {
      // not an index yet: build it
    }
  }
  process.stdout.write(`indexing the sample corpus into ${dir} (offline extractor, ${encoder.id})…\n`);
  const scratch = mkdtempSync(join(tmpdir(), 'mosaic-explore-'));
  try {
    const files = await writeSampleCorpus(scratch);
    await buildCorpusIndexes({ corpusPath: files.corpusPath, outDir: dir, encoder, extractor: createOfflineExtractor() });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function examplesByCorpus(
  questions: readonly { question: string; source?: string; question_type?: string }[],
  corpora: readonly string[],
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const corpus of corpora) {
    const mine = questions.filter((q) => q.source === corpus);
    // One per question type first, then the rest in file order.
    const types = new Set<string>();
    const first = mine.filter((q) => !types.has(q.question_type ?? '') && types.add(q.question_type ?? ''));
    out[corpus] = [...new Set([...first, ...mine].map((q) => q.question))].slice(0, EXAMPLES_PER_CORPUS);
  }
  return out;
}

function parsePort(value: unknown): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be an integer in 0–65535, got '${String(value)}'`);
  return port;
}

/** `mosaic explore`: serve the explorer until interrupted (or until `options.abortSignal` fires). */
export async function exploreCommand(argv: string[], options: ExploreCommandOptions = {}): Promise<void> {
  const { values, positionals } = parseCommandArgs('explore', argv, {
    index: { type: 'string' },
    corpus: { type: 'string' },
    questions: { type: 'string' },
    host: { type: 'string' },
    port: { type: 'string' },
    analyzer: { type: 'string' },
    generator: { type: 'string' },
    windows: { type: 'string' },
    encoder: { type: 'string' },
    rebuild: { type: 'boolean' },
  });
  if (values.help) return void process.stdout.write(EXPLORE_HELP);
  if (positionals.length > 0) throw new CliError(`unexpected argument '${positionals[0]}' (ask questions on the page)`);
  const port = parsePort(values.port);
  const host = (values.host as string | undefined) ?? '127.0.0.1';
  const windows = positiveInteger('windows', values.windows, 15);
  const analyzer = chooseAnalyzer(oneOf('analyzer', values.analyzer, ['offline', 'openai'] as const, 'offline'));
  const generator = chooseGenerator(oneOf('generator', values.generator, ['extractive', 'openai'] as const, 'extractive'));
  let indexDir = values.index as string | undefined;
  const sample = indexDir === undefined;
  // A given index is checked before the (slow) encoder loads, so usage errors come at once.
  let located = sample ? undefined : locateIndexes(indexDir!);
  const corpus = values.corpus as string | undefined;
  if (located && corpus !== undefined && !located.has(corpus)) throw new CliError(`no index for corpus '${corpus}'; one of: ${[...located.keys()].join(', ')}`);
  const questions = values.questions ? readQuestions(values.questions as string) : undefined;

  const encoder = await chooseEncoder(values.encoder as string | undefined);
  if (sample) {
    const root = findWorkspaceRoot(process.cwd()) ?? process.cwd();
    indexDir = resolve(root, '.mosaic', 'indexes-sample');
    await ensureSampleIndex(indexDir, encoder, values.rebuild === true);
    located = locateIndexes(indexDir);
    if (corpus !== undefined && !located.has(corpus)) throw new CliError(`no sample corpus '${corpus}'; one of: ${[...located.keys()].join(', ')}`);
  }
  const indexes = located!;
  const corpora = [...indexes.keys()];
  const examples = examplesByCorpus(questions ?? (sample ? SAMPLE_QUESTIONS : []), corpora);
  for (const l of indexes.values()) {
    if (l.manifest.encoder.id !== encoder.id) {
      throw new CliError(`${l.dir} was built with encoder '${l.manifest.encoder.id}', but --encoder gives '${encoder.id}'; pass the matching --encoder`);
    }
  }

  const opened = new Map<string, Promise<ExplorerCorpus>>();
  const mosaicFor = (name: string): Promise<ExplorerCorpus> => {
    let pending = opened.get(name);
    if (!pending) {
      const entry = indexes.get(name) as LocatedIndex;
      pending = openIndex(entry, encoder).then((index) => ({ index, mosaic: openPipeline({ index, analyzer, generator, windows }) }));
      pending.catch(() => opened.delete(name));
      opened.set(name, pending);
    }
    return pending;
  };
  const defaultCorpus = corpus ?? (indexes.has('Medical') ? 'Medical' : corpora[0]!);
  // Open the first corpus before printing the URL, so a broken index fails here, not on the page.
  await mosaicFor(defaultCorpus);

  const server = await startExplorerServer({ mosaicFor, corpora, defaultCorpus, examples, host, port });
  process.stdout.write(
    `Mosaic explorer: ${server.url}  (${corpora.length} corpus index${corpora.length === 1 ? '' : 'es'} from ${indexDir}; Ctrl-C to stop)\n`,
  );
  if (!['127.0.0.1', 'localhost', '::1'].includes(host)) process.stdout.write(`warning: bound to ${host}, so other machines can reach this page\n`);
  options.onListening?.(server);

  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      options.abortSignal?.removeEventListener('abort', stop);
      done();
    };
    if (options.abortSignal?.aborted) return stop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    options.abortSignal?.addEventListener('abort', stop, { once: true });
  });
  await server.close();
  process.stdout.write('explorer stopped\n');
}
