// `@mosaic/server/testing`: the small index the tests of the server, the MCP server and the adapters
// run against. It is built the way `mosaic index` builds one: the fixture Medical corpus of
// @mosaic/testing written to disk, then `buildIndex` of @mosaic/indexing with its default chunker and
// windows, the offline extractor, faiss and BM25, and loaded back with `loadIndex`. Encoder: the
// embedded ONNX model when it has been built here, else the hashing encoder of @mosaic/testing.
// Needs @mosaic/encoders, @mosaic/indexing and @mosaic/testing (optional peer dependencies).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedEncoder } from '@mosaic/encoders';
import { buildIndex, createOfflineExtractor, loadIndex, type LoadedCorpusIndex } from '@mosaic/indexing';
import type { Encoder } from '@mosaic/spec';
import { writeFixtureCorpus } from '@mosaic/testing';
import { createHashingEncoder } from '@mosaic/testing/hand-built-index';

export type FixtureEncoderName = 'embedded' | 'hashing';

/** The encoder of that name (what a worker process of a test opens again from the name). */
export async function openFixtureEncoder(name: FixtureEncoderName): Promise<Encoder> {
  return name === 'embedded' ? createEmbeddedEncoder() : createHashingEncoder();
}

/** 'embedded' when the embedded model has been built on this machine, else 'hashing'. */
export async function pickFixtureEncoder(): Promise<FixtureEncoderName> {
  try {
    await createEmbeddedEncoder();
    return 'embedded';
  } catch (error) {
    if ((error as Error).name !== 'MosaicInputError') throw error;
    return 'hashing';
  }
}

export interface SmallIndex {
  /** The temporary folder of the corpus and the index (removed by `remove`). */
  dir: string;
  /** The index directory, for worker processes that load it themselves. */
  indexDir: string;
  encoder: FixtureEncoderName;
  index: LoadedCorpusIndex;
  remove(): Promise<void>;
}

export interface BuildSmallIndexOptions {
  /** Prefix of the temporary folder (default 'mosaic-fixture-'). */
  prefix?: string;
}

/** Builds the fixture Medical corpus into an index in a temporary folder and loads it. */
export async function buildSmallIndex(options: BuildSmallIndexOptions = {}): Promise<SmallIndex> {
  const dir = await mkdtemp(join(tmpdir(), options.prefix ?? 'mosaic-fixture-'));
  try {
    const files = await writeFixtureCorpus(join(dir, 'corpus'));
    const encoderName = await pickFixtureEncoder();
    const encoder = await openFixtureEncoder(encoderName);
    const indexDir = join(dir, 'index', 'Medical');
    await buildIndex({ corpusPath: files.medicalPath, corpus: 'Medical', encoder, extractor: createOfflineExtractor(), outDir: indexDir });
    const index = await loadIndex({ dir: indexDir, encoder });
    return { dir, indexDir, encoder: encoderName, index, remove: () => rm(dir, { recursive: true, force: true }) };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
