import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { InputError } from '@mosaic/spec';
import { createOnnxEncoder } from './onnx-encoder.js';
import type { OnnxEncoder, OnnxEncoderOptions } from './onnx-encoder.js';

/** Id of the embedded word-vector encoder, as recorded in index manifests. */
export const EMBEDDED_ENCODER_ID = 'onnx:wink-sg-100d';
/** Where the build script writes the embedded model, relative to the workspace root. */
export const EMBEDDED_MODEL_RELATIVE_DIR = join('.mosaic', 'models', 'wink-sg-100d');
/** The command that builds the embedded model. */
export const EMBEDDED_MODEL_BUILD_COMMAND = 'npx mosaic-offline-setup';

export interface ResolveEmbeddedModelDirOptions {
  /** Explicit directory; wins over everything else. */
  modelDir?: string;
  /** Environment to read MOSAIC_MODEL_DIR from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where the walk up to the workspace root starts. Default `process.cwd()`. */
  cwd?: string;
}

export interface ResolvedEmbeddedModelDir {
  modelDir: string;
  /** Which rule chose it. */
  source: 'option' | 'env' | 'workspace';
}

/** The nearest ancestor of `start` (inclusive) holding pnpm-workspace.yaml, if any. */
export function findWorkspaceRoot(start: string): string | undefined {
  let directory = resolve(start);
  for (;;) {
    if (existsSync(join(directory, 'pnpm-workspace.yaml'))) return directory;
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

/**
 * Where the embedded model lives: `modelDir` if given; else env MOSAIC_MODEL_DIR; else
 * `<workspace root>/.mosaic/models/wink-sg-100d`, the workspace root being the nearest ancestor
 * of `cwd` with a pnpm-workspace.yaml (falling back to `cwd` itself when there is none).
 */
export function resolveEmbeddedModelDir(options: ResolveEmbeddedModelDirOptions = {}): ResolvedEmbeddedModelDir {
  if (options.modelDir) return { modelDir: resolve(options.modelDir), source: 'option' };
  const fromEnv = (options.env ?? process.env).MOSAIC_MODEL_DIR;
  if (fromEnv) return { modelDir: resolve(fromEnv), source: 'env' };
  const cwd = options.cwd ?? process.cwd();
  const root = findWorkspaceRoot(cwd) ?? resolve(cwd);
  return { modelDir: join(root, EMBEDDED_MODEL_RELATIVE_DIR), source: 'workspace' };
}

/** mosaic-model.json exists and every file it lists is present with its recorded size. */
function isCompleteModelDir(modelDir: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(join(modelDir, 'mosaic-model.json'), 'utf8')) as { files?: Record<string, number> };
    const files = Object.entries(manifest.files ?? { 'model.onnx': -1, 'tokenizer.json': -1 });
    return files.every(([file, bytes]) => {
      const path = join(modelDir, file);
      return existsSync(path) && (bytes < 0 || statSync(path).size === bytes);
    });
  } catch {
    return false;
  }
}

export interface EmbeddedEncoderOptions extends ResolveEmbeddedModelDirOptions, Pick<OnnxEncoderOptions, 'batchSize' | 'maxLength'> {
  /**
   * ONNX Runtime intra-op threads. Default 1: the model is a lookup and a weighted mean, too little
   * work per run to share, and ONNX Runtime's idle pool threads spin after every run, taking a core
   * from the retrieval that follows (see the package README).
   */
  intraOpNumThreads?: number;
}

/**
 * The embedded, offline default encoder: SIF-weighted GloVe 100d word vectors compiled into an
 * ONNX model by `npx mosaic-offline-setup` (@mosaic/offline-setup), run by the same OnnxEncoder as any
 * exported transformer. The model pools itself, so no pooling applies.
 */
export async function createEmbeddedEncoder(options: EmbeddedEncoderOptions = {}): Promise<OnnxEncoder> {
  const { modelDir, source } = resolveEmbeddedModelDir(options);
  if (!isCompleteModelDir(modelDir)) {
    const how = source === 'workspace' ? 'found from the workspace root' : source === 'env' ? 'from MOSAIC_MODEL_DIR' : 'given';
    throw new InputError({
      source: modelDir,
      message: `the embedded encoder model (${how}) is missing or incomplete; build it with \`${EMBEDDED_MODEL_BUILD_COMMAND}\` in the project (package @mosaic/offline-setup), or set MOSAIC_MODEL_DIR`,
    });
  }
  return createOnnxEncoder({
    modelDir,
    batchSize: options.batchSize ?? 64,
    // A bag of words has no positional limit; 2,048 tokens covers ~10,000 characters of text.
    maxLength: options.maxLength ?? 2048,
    intraOpNumThreads: options.intraOpNumThreads ?? 1,
  });
}
