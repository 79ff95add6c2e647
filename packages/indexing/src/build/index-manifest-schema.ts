import { z } from 'zod';
import { IndexMismatchError } from '@mosaic/spec';
import {
  INDEX_FILES,
  INDEX_FORMAT_VERSION,
  READABLE_INDEX_FORMAT_VERSIONS,
  storeFileNames,
  VECTOR_KINDS,
  type IndexDirectoryManifest,
} from './index-layout.js';

const count = z.number().int().nonnegative();
const positive = z.number().int().positive();
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 digest (64 lowercase hex characters)');
/** A file name relative to the index directory, never leaving it. */
const relativeFile = z
  .string()
  .min(1)
  .refine((name) => !name.startsWith('/') && !name.includes('\\') && !name.split('/').some((part) => part === '' || part === '.' || part === '..'), {
    message: 'must be a relative path inside the index directory',
  });

/**
 * The schema of manifest.json (a readable formatVersion: READABLE_INDEX_FORMAT_VERSIONS). Unknown fields are kept (a newer writer may add
 * some); every field the loader reads is checked. `graphStats` and `merge` are build figures
 * that nothing reads on load, so only their being objects is checked.
 */
export const indexManifestSchema = z.looseObject({
  formatVersion: z
    .number()
    .refine((version) => READABLE_INDEX_FORMAT_VERSIONS.includes(version), { message: `must be one of ${READABLE_INDEX_FORMAT_VERSIONS.join(', ')}` }),
  corpus: z.string().min(1),
  encoder: z.looseObject({ id: z.string().min(1), dimension: positive }),
  extractor: z.string().min(1),
  corpusChecksum: sha256,
  counts: z.looseObject({ documents: count, chunks: count, windows: count, entities: count, relations: count }),
  window: z.looseObject({ size: positive, stride: positive }),
  vectorIndex: z.looseObject({ factory: z.string().min(1) }),
  buildTimeMs: z.number().nonnegative(),
  createdAt: z.string(),
  peakRssBytes: z.number().nonnegative().optional(),
  chunking: z.looseObject({ chunkSize: positive }),
  lexical: z.boolean(),
  files: z.record(relativeFile, count),
  digests: z.record(relativeFile, sha256).optional(),
  graphStats: z.looseObject({}),
  merge: z.looseObject({}),
});

/**
 * The files an index of `formatVersion` (default: the one this version writes) must list in `files`
 * (`digests`, when present, lists every file of `files`).
 */
export function requiredIndexFiles(lexical: boolean, formatVersion = INDEX_FORMAT_VERSION): string[] {
  const store = storeFileNames(formatVersion);
  return [
    store.documents,
    store.chunks,
    store.windows,
    INDEX_FILES.extractions,
    INDEX_FILES.graph,
    ...VECTOR_KINDS.flatMap((kind) => [INDEX_FILES.vectors(kind, 'faiss'), INDEX_FILES.vectors(kind, 'json')]),
    ...(lexical ? VECTOR_KINDS.map((kind) => INDEX_FILES.lexical(kind)) : []),
  ];
}

export interface ParseIndexManifestOptions {
  /** The manifest's text (the content of manifest.json). */
  text: string;
  /** Where it was read from; named in errors. */
  path: string;
}

/** A short description of a value for an error message (bounded, whatever the value). */
function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return `${typeof value} ${text.length > 80 ? `${text.slice(0, 77)}...` : text}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * Parse and validate the text of manifest.json. Anything but a manifest of this format →
 * IndexMismatchError whose `field` names the first wrong field (`'manifest'` when the text is not
 * a JSON object, `'formatVersion'`, `'encoder.id'`, `'files.documents.jsonl.gz'`, ...) and whose
 * message says what was expected and what was found.
 */
export function parseIndexManifest(options: ParseIndexManifestOptions): IndexDirectoryManifest {
  const { text, path } = options;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    throw new IndexMismatchError({
      path,
      field: 'manifest',
      expected: 'valid JSON',
      actual: 'invalid JSON',
      message: `${path}: invalid manifest: not valid JSON`,
      cause,
    });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    const actual = describe(data);
    throw new IndexMismatchError({
      path,
      field: 'manifest',
      expected: 'a JSON object',
      actual,
      message: `${path}: invalid manifest: expected a JSON object, got ${actual}`,
    });
  }
  // The format version first: an index of another version gets that answer, not a field list.
  const version = (data as Record<string, unknown>).formatVersion;
  if (typeof version !== 'number' || !READABLE_INDEX_FORMAT_VERSIONS.includes(version)) {
    const readable = READABLE_INDEX_FORMAT_VERSIONS.join(' and ');
    throw new IndexMismatchError({
      path,
      field: 'formatVersion',
      expected: INDEX_FORMAT_VERSION,
      actual: version,
      message: `${path}: invalid manifest: formatVersion is ${describe(version)}, this version of Mosaic reads ${readable}; rebuild the index`,
    });
  }
  const parsed = indexManifestSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.map(String).join('.') || 'manifest';
    const actual = describe(valueAt(data, issue.path));
    throw new IndexMismatchError({
      path,
      field,
      expected: issue.message,
      actual,
      message: `${path}: invalid manifest: field '${field}' is ${actual} (${issue.message})`,
    });
  }
  // graphStats and merge are checked as objects only (build figures, not read on load).
  const manifest = parsed.data as unknown as IndexDirectoryManifest;
  for (const name of requiredIndexFiles(manifest.lexical, manifest.formatVersion)) {
    if (manifest.files[name] === undefined) {
      throw new IndexMismatchError({
        path,
        field: `files.${name}`,
        expected: 'listed',
        actual: 'missing',
        message: `${path}: invalid manifest: 'files' does not list ${name}`,
      });
    }
  }
  for (const name of Object.keys(manifest.files)) {
    if (manifest.digests && !Object.hasOwn(manifest.digests, name)) {
      throw new IndexMismatchError({
        path,
        field: `digests.${name}`,
        expected: 'listed',
        actual: 'missing',
        message: `${path}: invalid manifest: 'digests' does not list ${name}`,
      });
    }
  }
  return manifest;
}
