import { stat } from 'node:fs/promises';
import { InputError } from '@mosaic/spec';
import type { CorpusDocuments } from './corpus-documents.js';
import { readCorpusPath } from './read-corpus-path.js';

export interface ReadTextFolderOptions {
  /** A folder (searched recursively; hidden entries skipped). */
  path: string;
  /** Corpus name. Default: the folder's base name. */
  corpus?: string;
  /** File extensions read, lower case with the dot. Default ['.txt', '.md']. */
  extensions?: readonly string[];
  /** A file larger than this many bytes is refused (checked with stat before reading it). Default 200 MB. */
  maxDocumentBytes?: number;
}

/**
 * Read the files of a folder with the given extensions (default .txt and .md), strictly: the
 * first file that cannot be read is an InputError naming it. Each file goes through its format's
 * reader (Markdown is parsed, not read raw). Prefer readCorpusPath, which reads every format,
 * takes globs and reports skipped files instead of failing.
 */
export async function readTextFolder(options: ReadTextFolderOptions): Promise<CorpusDocuments> {
  const root = options.path;
  try {
    const info = await stat(root);
    if (!info.isDirectory()) throw new InputError({ source: root, message: 'is not a folder' });
  } catch (cause) {
    if (InputError.isInstance(cause)) throw cause;
    throw new InputError({ source: root, message: 'folder does not exist or cannot be accessed', cause });
  }
  const extensions = (options.extensions ?? ['.txt', '.md']).map((e) => e.toLowerCase());
  const { corpus, documents } = await readCorpusPath({
    path: root,
    corpus: options.corpus,
    include: extensions.map((e) => `*${e}`),
    strict: true,
    maxDocumentBytes: options.maxDocumentBytes,
  });
  return { corpus, documents };
}
