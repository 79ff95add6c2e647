import { open, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { basename, extname, join, relative, resolve, sep } from 'node:path';
import { InputError } from '@mosaic/spec';
import type { DocumentFormat, SourceDocument } from '@mosaic/spec';
import { DEFAULT_MAX_DOCUMENT_BYTES, type CorpusDocuments } from './corpus-documents.js';
import { readDocumentBytes, UnreadableFile, type UnreadableReason } from './formats/read-document.js';

/** Why a file was skipped. */
export type SkipReason = UnreadableReason | 'too-large' | 'unreadable' | 'symlink-loop';

/** A file (or folder) that was skipped, with the reason and what exactly is wrong. */
export interface SkippedFile {
  path: string;
  reason: SkipReason;
  message: string;
}

/** What reading a corpus path did: files read (by format, bytes), files skipped and why. */
export interface CorpusReadReport {
  /** Files read as documents. */
  read: number;
  /** Their size on disk, in bytes. */
  bytes: number;
  byFormat: Partial<Record<DocumentFormat, number>>;
  /** Files matched by the globs but not read, in path order. */
  skipped: SkippedFile[];
  /** Files left out by `include` / `exclude` (not read, not reported one by one). */
  excluded: number;
}

export interface ReadCorpusPathOptions {
  /** A folder (searched recursively; hidden entries skipped) or a single file (a corpus of one document). */
  path: string;
  /** Corpus name. Default: the folder's base name, or a file's name without its extension. */
  corpus?: string;
  /** Globs a file's path relative to the folder must match (any of them); a glob without '/' matches the base name. Default: every file. */
  include?: readonly string[];
  /** Globs of files left out (same matching as include). */
  exclude?: readonly string[];
  /** Make the first skipped file an error (InputError naming it and the reason) instead of a report line. Default false. */
  strict?: boolean;
  /** A file larger than this many bytes is skipped (checked with stat before reading it). Default 200 MB. */
  maxDocumentBytes?: number;
  /** Called for each file skipped, as it happens. */
  onSkip?: (skipped: SkippedFile) => void;
}

/** A corpus and the report of reading it. */
export interface CorpusRead extends CorpusDocuments {
  report: CorpusReadReport;
}

/**
 * Read a folder (or one file) as a corpus: every file through its format's reader (Markdown,
 * HTML, reST, POD, PDF; any other file as plain text when it is valid UTF-8), one document per file
 * with its clean text and outline, sorted by relative path; document ids are the relative paths
 * with '/' separators (a single file: its base name). A file that cannot be read — binary, not
 * UTF-8, empty, too large, unreadable, a PDF that does not parse, a symbolic link back to a folder
 * already walked — is skipped and reported (`report.skipped`, `onSkip`), unless `strict`.
 * Throws InputError when the path is missing or when no document was read.
 */
export async function readCorpusPath(options: ReadCorpusPathOptions): Promise<CorpusRead> {
  const root = options.path;
  const maxDocumentBytes = options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(root)).isDirectory();
  } catch (cause) {
    throw new InputError({ source: root, message: 'corpus path does not exist or cannot be accessed', cause });
  }
  const report: CorpusReadReport = { read: 0, bytes: 0, byFormat: {}, skipped: [], excluded: 0 };
  const skip = (path: string, reason: SkipReason, message: string) => {
    if (options.strict) throw new InputError({ source: path, message: `${message} (strict: a file that cannot be read stops the build)` });
    const skipped = { path, reason, message };
    report.skipped.push(skipped);
    options.onSkip?.(skipped);
  };
  const files = isDirectory ? await listFiles(root, options, report, skip) : [{ path: root, id: basename(root) }];
  const corpus = options.corpus ?? (isDirectory ? basename(resolve(root)) : basename(root, extname(root)) || basename(root));
  const documents: SourceDocument[] = [];
  for (const file of files) {
    let size: number;
    try {
      size = (await stat(file.path)).size;
    } catch (cause) {
      skip(file.path, 'unreadable', `cannot be read: ${(cause as Error).message}`);
      continue;
    }
    if (size > maxDocumentBytes) {
      skip(file.path, 'too-large', `is ${size} bytes, larger than the limit of ${maxDocumentBytes}`);
      continue;
    }
    if (size === 0) {
      skip(file.path, 'empty', 'is empty');
      continue;
    }
    let bytes: Uint8Array;
    try {
      bytes = await readFile(file.path);
    } catch (cause) {
      skip(file.path, 'unreadable', `cannot be read: ${(cause as Error).message}`);
      continue;
    }
    const read = await readDocumentBytes(file.path, bytes);
    if (read instanceof UnreadableFile) {
      skip(file.path, read.reason, read.message);
      continue;
    }
    documents.push({ id: file.id, corpus, text: read.text, outline: read.outline });
    report.read += 1;
    report.bytes += size;
    const format = read.outline.format ?? 'text';
    report.byFormat[format] = (report.byFormat[format] ?? 0) + 1;
  }
  if (documents.length === 0) {
    const why = report.skipped.length > 0 ? `; ${summarizeSkipped(report.skipped)}` : '';
    throw new InputError({ source: root, message: `the corpus is empty: no file could be read as a document${why}` });
  }
  return { corpus, documents, report };
}

/** Every file under `root` that the globs let through, sorted by relative path; loops reported. */
async function listFiles(
  root: string,
  options: ReadCorpusPathOptions,
  report: CorpusReadReport,
  skip: (path: string, reason: SkipReason, message: string) => void,
): Promise<Array<{ path: string; id: string }>> {
  const included = options.include && options.include.length > 0 ? await globMatcher(options.include) : () => true;
  const excluded = options.exclude && options.exclude.length > 0 ? await globMatcher(options.exclude) : () => false;
  const files: Array<{ path: string; id: string }> = [];
  const walk = async (directory: string, ancestors: ReadonlySet<string>): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch (cause) {
      skip(directory, 'unreadable', `folder cannot be read: ${(cause as Error).message}`);
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = join(directory, entry.name);
      const id = relative(root, full).split(sep).join('/');
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const target = await stat(full);
          isDirectory = target.isDirectory();
          isFile = target.isFile();
        } catch (cause) {
          const code = (cause as NodeJS.ErrnoException).code;
          if (code === 'ELOOP') skip(full, 'symlink-loop', 'is a symbolic link that loops');
          else if (!excluded(id)) skip(full, 'unreadable', `is a broken symbolic link (${code ?? (cause as Error).message})`);
          continue;
        }
      }
      if (isDirectory) {
        if (excluded(id) || excluded(`${id}/`)) continue;
        const real = await realpath(full).catch(() => full);
        if (ancestors.has(real)) {
          skip(full, 'symlink-loop', `is a symbolic link to a folder that holds it (${real}): not followed`);
          continue;
        }
        await walk(full, new Set([...ancestors, real]));
      } else if (isFile) {
        if (!included(id) || excluded(id)) report.excluded += 1;
        else files.push({ path: full, id });
      }
    }
  };
  await walk(root, new Set([await realpath(root)]));
  files.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return files;
}

/** A matcher of relative paths: globs with a '/' match the whole relative path, globs without one the base name. */
async function globMatcher(globs: readonly string[]): Promise<(path: string) => boolean> {
  const { default: picomatch } = await import('picomatch');
  const withSlash = globs.filter((g) => g.replace(/\/$/, '').includes('/'));
  const bare = globs.filter((g) => !g.replace(/\/$/, '').includes('/')).map((g) => g.replace(/\/$/, ''));
  const whole = withSlash.length > 0 ? picomatch(withSlash, { dot: true }) : () => false;
  const base = bare.length > 0 ? picomatch(bare, { dot: true, basename: true }) : () => false;
  return (path) => whole(path) || base(path);
}

/** One line summing up skipped files by reason, e.g. "skipped 3: 2 not-utf8, 1 empty". */
export function summarizeSkipped(skipped: readonly SkippedFile[]): string {
  const counts = new Map<SkipReason, number>();
  for (const file of skipped) counts.set(file.reason, (counts.get(file.reason) ?? 0) + 1);
  return `skipped ${skipped.length}: ${[...counts.entries()].map(([reason, count]) => `${count} ${reason}`).join(', ')}`;
}

/** True when `path` is a GraphRAG-Bench corpus JSON file (`.json` whose first non-blank character is '['), not a document. */
export async function isCorpusJsonFile(path: string): Promise<boolean> {
  if (extname(path).toLowerCase() !== '.json') return false;
  try {
    const handle = await open(path, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
      return buffer.subarray(0, bytesRead).toString('utf8').trimStart().startsWith('[');
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}
