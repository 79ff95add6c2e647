// A small index built through the real index composition (fixture Medical corpus of @mosaic/testing,
// offline extractor, faiss, BM25), for the adapter's tests. Encoder: the embedded ONNX model when it
// has been built, else the hashing encoder.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedEncoder } from '@mosaic/encoders';
import { buildIndex, createOfflineExtractor, loadIndex, type LoadedCorpusIndex } from '@mosaic/indexing';
import type { Encoder } from '@mosaic/spec';
import { writeFixtureCorpus } from '@mosaic/testing';
import { createHashingEncoder } from '@mosaic/testing/hand-built-index';

export type EncoderName = 'embedded' | 'hashing';

export async function openEncoder(name: EncoderName): Promise<Encoder> {
  return name === 'embedded' ? createEmbeddedEncoder() : createHashingEncoder();
}

async function pickEncoder(): Promise<EncoderName> {
  try {
    await createEmbeddedEncoder();
    return 'embedded';
  } catch (error) {
    if ((error as Error).name !== 'MosaicInputError') throw error;
    return 'hashing';
  }
}

export interface SmallIndex {
  dir: string;
  indexDir: string;
  encoder: EncoderName;
  index: LoadedCorpusIndex;
  remove(): Promise<void>;
}

export async function buildSmallIndex(): Promise<SmallIndex> {
  const dir = await mkdtemp(join(tmpdir(), 'mosaic-langchain-'));
  const files = await writeFixtureCorpus(join(dir, 'corpus'));
  const encoderName = await pickEncoder();
  const encoder = await openEncoder(encoderName);
  const indexDir = join(dir, 'index', 'Medical');
  await buildIndex({ corpusPath: files.medicalPath, corpus: 'Medical', encoder, extractor: createOfflineExtractor(), outDir: indexDir, window: { size: 400, stride: 200 }, chunkSize: 300 });
  const index = await loadIndex({ dir: indexDir, encoder });
  return { dir, indexDir, encoder: encoderName, index, remove: () => rm(dir, { recursive: true, force: true }) };
}
