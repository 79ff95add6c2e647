import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, extname, join, relative, sep } from 'node:path';
import { InputError } from '@mosaic/spec';
import type { SourceDocument } from '@mosaic/spec';
import { DEFAULT_MAX_DOCUMENT_BYTES, type CorpusDocuments } from './corpus-documents.js';

export interface ReadTextFolderOptions {
  /** A folder of .txt / .md files (searched recursively; hidden entries skipped). */
  path: string;
  /** Corpus name. Default: the folder's base name. */
  corpus?: string;
  /** File extensions read, lower case with the dot. Default ['.txt', '.md']. */
  extensions?: readonly string[];
  /** A file larger than this many bytes is refused (checked with stat before reading anything). Default 200 MB. */
  maxDocumentBytes?: number;
}

/**
 * Read every .txt/.md file under a folder as one document each, sorted by relative path;
 * document ids are the relative paths with '/' separators. Throws InputError naming the
 * path and the problem: missing or not a folder, no matching files, a file larger than
 * `maxDocumentBytes` (all sizes are checked before any file is read), an empty (blank) file,
 * or a file that is not valid UTF-8.
 */
export async function readTextFolder(options: ReadTextFolderOptions): Promise<CorpusDocuments> {
  const root = options.path;
  const extensions = new Set((options.extensions ?? ['.txt', '.md']).map((e) => e.toLowerCase()));
  const maxDocumentBytes = options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  try {
    const info = await stat(root);
    if (!info.isDirectory()) throw new InputError({ source: root, message: 'is not a folder' });
  } catch (cause) {
    if (InputError.isInstance(cause)) throw cause;
    throw new InputError({ source: root, message: 'folder does not exist or cannot be accessed', cause });
  }
  const files: { path: string; id: string }[] = [];
  const walk = async (directory: string): Promise<void> => {
    const entries = await readdir(directory, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = join(directory, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && extensions.has(extname(entry.name).toLowerCase())) {
        files.push({ path: full, id: relative(root, full).split(sep).join('/') });
      }
    }
  };
  await walk(root);
  files.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (files.length === 0) {
    throw new InputError({ source: root, message: `the corpus is empty: no ${[...extensions].join('/')} files` });
  }
  for (const file of files) {
    const { size } = await stat(file.path);
    if (size > maxDocumentBytes) {
      throw new InputError({ source: file.path, message: `file is ${size} bytes, larger than the limit of ${maxDocumentBytes}` });
    }
  }
  const corpus = options.corpus ?? basename(root);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const documents: SourceDocument[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = decoder.decode(await readFile(file.path));
    } catch (cause) {
      throw new InputError({ source: file.path, message: 'file is not valid UTF-8 text', cause });
    }
    if (text.trim() === '') throw new InputError({ source: file.path, message: 'file is empty' });
    documents.push({ id: file.id, corpus, text });
  }
  return { corpus, documents };
}
