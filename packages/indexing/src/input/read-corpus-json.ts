import { readFile, stat } from 'node:fs/promises';
import { InputError } from '@mosaic/spec';
import type { SourceDocument } from '@mosaic/spec';
import { slugify } from '@mosaic/graph/internal';
import { DEFAULT_MAX_DOCUMENT_BYTES, DEFAULT_MAX_FILE_BYTES, type CorpusDocuments } from './corpus-documents.js';

export interface ReadCorpusJsonOptions {
  /** A GraphRAG-Bench corpus file: a JSON array of `{ corpus_name, context }`. */
  path: string;
  /** A document (one `context`) larger than this many UTF-8 bytes is refused. Default 200 MB. */
  maxDocumentBytes?: number;
  /** The file is refused before reading when larger than this. Default 1 GB. */
  maxFileBytes?: number;
}

/**
 * Read a GraphRAG-Bench corpus file and group its entries by `corpus_name`, in order of
 * first appearance. Document ids are `<slug(corpus_name)>-<n>` (n counts the entries of that
 * corpus from 0). Throws InputError naming the file and the problem: missing path, too
 * large (checked with stat before reading), invalid JSON, not an array, an entry that is not
 * an object or has a missing/empty `corpus_name` or `context`, an empty array, or a document
 * larger than `maxDocumentBytes`.
 */
export async function readCorpusJson(options: ReadCorpusJsonOptions): Promise<CorpusDocuments[]> {
  const { path } = options;
  const maxDocumentBytes = options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new InputError({ source: path, message: 'is not a file' });
    size = info.size;
  } catch (cause) {
    if (InputError.isInstance(cause)) throw cause;
    throw new InputError({ source: path, message: 'corpus file does not exist or cannot be accessed', cause });
  }
  if (size > maxFileBytes) {
    throw new InputError({ source: path, message: `corpus file is ${size} bytes, larger than the limit of ${maxFileBytes}` });
  }
  const text = await readFile(path, 'utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new InputError({ source: path, message: `invalid JSON: ${(cause as Error).message}`, cause });
  }
  return corpusDocumentsFromJson({ value, source: path, maxDocumentBytes });
}

export interface CorpusDocumentsFromJsonOptions {
  /** Parsed JSON: an array of `{ corpus_name, context }`. */
  value: unknown;
  /** Named in errors. */
  source: string;
  maxDocumentBytes?: number;
}

/** Validate and group parsed GraphRAG-Bench JSON (see readCorpusJson). */
export function corpusDocumentsFromJson(options: CorpusDocumentsFromJsonOptions): CorpusDocuments[] {
  const { value, source } = options;
  const maxDocumentBytes = options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  if (!Array.isArray(value)) {
    throw new InputError({ source, message: `expected a JSON array of { corpus_name, context }, got ${value === null ? 'null' : typeof value}` });
  }
  if (value.length === 0) throw new InputError({ source, message: 'the corpus is empty (no entries)' });
  const groups = new Map<string, SourceDocument[]>();
  value.forEach((entry, index) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new InputError({ source, message: `entry ${index} is not an object` });
    }
    const record = entry as Record<string, unknown>;
    const corpus = record.corpus_name;
    const context = record.context;
    if (typeof corpus !== 'string' || corpus.trim() === '') {
      throw new InputError({ source, message: `entry ${index} has a missing or empty "corpus_name"` });
    }
    if (typeof context !== 'string' || context.trim() === '') {
      throw new InputError({ source, message: `entry ${index} ("${corpus}") has a missing or empty "context"` });
    }
    const bytes = Buffer.byteLength(context, 'utf8');
    if (bytes > maxDocumentBytes) {
      throw new InputError({ source, message: `entry ${index} ("${corpus}") is ${bytes} bytes, larger than the limit of ${maxDocumentBytes}` });
    }
    const name = corpus.trim();
    let documents = groups.get(name);
    if (!documents) groups.set(name, (documents = []));
    documents.push({ id: `${slugify(name, 60) || 'corpus'}-${documents.length}`, corpus: name, text: context });
  });
  return [...groups.entries()].map(([corpus, documents]) => ({ corpus, documents }));
}
