import { join } from 'node:path';
import { slugify } from '@mosaic/graph/internal';
import { InputError, throwIfAborted } from '@mosaic/spec';
import { readCorpusJson } from '../input/read-corpus-json.js';
import { buildIndex, type BuildIndexOptions, type BuildIndexResult } from './build-index.js';

export interface BuildCorpusIndexesOptions extends Omit<BuildIndexOptions, 'documents' | 'corpusPath' | 'corpus' | 'outDir'> {
  /** A GraphRAG-Bench corpus JSON file (array of { corpus_name, context }). */
  corpusPath: string;
  /** Parent directory: one index per corpus in `<outDir>/<slug(corpus_name)>/`. */
  outDir: string;
  /** Only these corpus names (default: all, in file order). Unknown names → InputError. */
  corpora?: readonly string[];
  /** Called before each corpus starts. */
  onCorpus?: (event: { corpus: string; index: number; total: number; dir: string }) => void;
}

export interface BuildCorpusIndexesResult {
  indexes: (BuildIndexResult & { corpus: string })[];
}

/** The directory name of a corpus inside buildCorpusIndexes' outDir. */
export function corpusDirectoryName(corpus: string): string {
  return slugify(corpus, 80) || 'corpus';
}

/**
 * Build one index per `corpus_name` of a GraphRAG-Bench file (Medical → one index; Novel → 20,
 * one per book), sequentially, each atomically in `<outDir>/<slug(corpus_name)>/`.
 */
export async function buildCorpusIndexes(options: BuildCorpusIndexesOptions): Promise<BuildCorpusIndexesResult> {
  const { corpusPath, outDir, corpora: only, onCorpus, ...rest } = options;
  let corpora = await readCorpusJson({ path: corpusPath, maxDocumentBytes: options.maxDocumentBytes });
  if (only) {
    const names = new Set(corpora.map((c) => c.corpus));
    const unknown = only.filter((name) => !names.has(name));
    if (unknown.length > 0) throw new InputError({ source: corpusPath, message: `no corpus named ${unknown.map((u) => `"${u}"`).join(', ')}` });
    corpora = corpora.filter((c) => only.includes(c.corpus));
  }
  const directories = new Map<string, string>();
  for (const { corpus } of corpora) {
    const name = corpusDirectoryName(corpus);
    const clash = directories.get(name);
    if (clash !== undefined) throw new InputError({ source: corpusPath, message: `corpora "${clash}" and "${corpus}" map to the same directory ${name}` });
    directories.set(name, corpus);
  }
  const indexes: BuildCorpusIndexesResult['indexes'] = [];
  for (const [index, { corpus, documents }] of corpora.entries()) {
    throwIfAborted(options.abortSignal, 'build');
    const dir = join(outDir, corpusDirectoryName(corpus));
    onCorpus?.({ corpus, index, total: corpora.length, dir });
    const result = await buildIndex({ ...rest, documents, corpus, outDir: dir });
    indexes.push({ ...result, corpus });
  }
  return { indexes };
}
