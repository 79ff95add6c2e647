import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { InputError } from '@mosaic/spec';
import { createOnnxEncoder } from './onnx-encoder.js';
import type { OnnxEncoder, OnnxEncoderOptions } from './onnx-encoder.js';

/** Id of the embedded word-vector encoder, as recorded in index manifests. */
export const EMBEDDED_ENCODER_ID = 'onnx:wink-sg-100d';
/** The embedded model's folder under the Mosaic home (`$MOSAIC_HOME` or the per-user cache). */
export const EMBEDDED_MODEL_RELATIVE_DIR = join('models', 'wink-sg-100d');
/** The command that builds the embedded model. */
export const EMBEDDED_MODEL_BUILD_COMMAND = 'npx mosaic-offline-setup';

type Env = Readonly<Record<string, string | undefined>>;

export interface ResolveEmbeddedModelDirOptions {
  /** Explicit directory; wins over everything else. */
  modelDir?: string;
  /** Environment to read MOSAIC_MODEL_DIR, MOSAIC_HOME, XDG_CACHE_HOME and HOME from. Default `process.env`. */
  env?: Env;
}

export interface ResolvedEmbeddedModelDir {
  modelDir: string;
  /** Which rule chose it: the option, MOSAIC_MODEL_DIR, MOSAIC_HOME, or the per-user cache directory. */
  source: 'option' | 'env' | 'home' | 'cache';
}

/**
 * Mosaic's per-user folder: `$MOSAIC_HOME` if set, else `$XDG_CACHE_HOME/mosaic`, else
 * `~/.cache/mosaic`. Never relative to the current directory.
 */
export function resolveMosaicHome(env: Env = process.env): { dir: string; source: 'home' | 'cache' } {
  if (env.MOSAIC_HOME) return { dir: resolve(env.MOSAIC_HOME), source: 'home' };
  const cache = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(env.HOME || homedir(), '.cache');
  return { dir: join(cache, 'mosaic'), source: 'cache' };
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
 * `<Mosaic home>/models/wink-sg-100d`, the Mosaic home being `$MOSAIC_HOME`, else
 * `$XDG_CACHE_HOME/mosaic`, else `~/.cache/mosaic` (see `resolveMosaicHome`). The current
 * directory plays no part: a script run from any folder finds the same model.
 */
export function resolveEmbeddedModelDir(options: ResolveEmbeddedModelDirOptions = {}): ResolvedEmbeddedModelDir {
  if (options.modelDir) return { modelDir: resolve(options.modelDir), source: 'option' };
  const env = options.env ?? process.env;
  if (env.MOSAIC_MODEL_DIR) return { modelDir: resolve(env.MOSAIC_MODEL_DIR), source: 'env' };
  const home = resolveMosaicHome(env);
  return { modelDir: join(home.dir, EMBEDDED_MODEL_RELATIVE_DIR), source: home.source };
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
    const how = { option: 'given', env: 'from MOSAIC_MODEL_DIR', home: 'under MOSAIC_HOME', cache: 'in the per-user cache directory' }[source];
    throw new InputError({
      source: modelDir,
      message: `the embedded encoder model (${how}) is missing or incomplete; build it with \`${EMBEDDED_MODEL_BUILD_COMMAND}\` (package @mosaic/offline-setup), or set MOSAIC_HOME or MOSAIC_MODEL_DIR`,
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
