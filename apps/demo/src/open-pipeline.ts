import { createCachedAnalyzer, createLoggedAnalyzer, createOfflineAnalyzer, createOpenAIAnalyzer, createPolicyLog } from '@mosaic/analyzer';
import { createExtractiveGenerator, createOpenAIGenerator } from '@mosaic/generation';
import { loadIndex } from '@mosaic/indexing';
import { createMosaic, type Mosaic } from '@mosaic/pipeline';
import type { Analyzer, CorpusIndex, Encoder, Generator } from '@mosaic/spec';
import { createReranker, type RerankerName } from '@mosaic/window-reranker';
import { secondsAsMs } from './args.js';
import { CliError } from './cli-error.js';
import type { LocatedIndex } from './index-locator.js';

export type AnalyzerName = 'offline' | 'openai';
export type GeneratorName = 'extractive' | 'openai';

/** The analyzer named by `--analyzer`, cached; with `policyLog`, every analysis is appended there as one JSON line. */
export function chooseAnalyzer(name: AnalyzerName, options: { policyLog?: string } = {}): Analyzer {
  const offline = createOfflineAnalyzer();
  const cached = createCachedAnalyzer({ analyzer: name === 'openai' ? createOpenAIAnalyzer({ fallback: offline }) : offline });
  return options.policyLog ? createLoggedAnalyzer({ analyzer: cached, log: createPolicyLog({ path: options.policyLog }) }) : cached;
}

export function chooseGenerator(name: GeneratorName): Generator {
  return name === 'openai' ? createOpenAIGenerator({ onFailure: 'extractive' }) : createExtractiveGenerator();
}

/**
 * Loads an index with the given encoder (every file's digest verified); a mismatch is the loader's
 * typed error. An index without digests loads with a note on stderr, and a load worker given up on
 * (see `LoadIndexOptions.stallMs`) with a warning.
 */
export async function openIndex(located: LocatedIndex, encoder: Encoder): Promise<CorpusIndex> {
  if (located.manifest.encoder.id !== encoder.id) {
    throw new CliError(
      `${located.dir}: index built with encoder '${located.manifest.encoder.id}' (dimension ${located.manifest.encoder.dimension}), but --encoder gives '${encoder.id}'; rebuild the index or pass the matching --encoder`,
    );
  }
  const index = await loadIndex({
    dir: located.dir,
    encoder,
    stallMs: loadStallMs(process.env),
    // A worker given up on: the index still loads (its work done on this thread), later; the user is told why.
    onWorkerFallback: (event) =>
      process.stderr.write(
        `warning: ${event.message}; reading ${event.paths.length === 1 ? 'its file' : `its ${event.paths.length} files`} on the main thread instead\n`,
      ),
  });
  if (index.integrity === 'sizes') {
    // Built before file digests were recorded: still served, the user is told once per index.
    process.stderr.write(
      `note: ${located.dir} was built before Mosaic recorded file digests: only file sizes, the corpus checksum and finite vectors were checked; rebuild it with mosaic index to verify every file\n`,
    );
  }
  return index;
}

/**
 * MOSAIC_LOAD_STALL, the seconds a load worker may stay silent before the index is read on the main
 * thread instead (`LoadIndexOptions.stallMs`), as milliseconds; undefined when unset (the loader's
 * default, 2 minutes). Anything but a positive number of seconds is a usage error.
 */
export function loadStallMs(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const value = env.MOSAIC_LOAD_STALL;
  return value === '' ? undefined : secondsAsMs('MOSAIC_LOAD_STALL', value);
}

export function openPipeline(options: {
  index: CorpusIndex;
  analyzer: Analyzer;
  generator?: Generator;
  windows?: number;
  /** A reranker of @mosaic/window-reranker by name; default the pipeline's (fusion). */
  reranker?: RerankerName;
  /** false: the no-graph ablation (default true). */
  graph?: boolean;
}): Mosaic {
  return createMosaic({
    index: options.index,
    analyzer: options.analyzer,
    generator: options.generator,
    windows: options.windows,
    reranker: options.reranker ? createReranker({ name: options.reranker }) : undefined,
    graph: options.graph,
  });
}
