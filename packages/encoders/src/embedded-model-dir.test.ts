import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedEncoder, EMBEDDED_MODEL_RELATIVE_DIR, resolveEmbeddedModelDir, resolveMosaicHome } from './embedded-encoder.js';

describe('resolveEmbeddedModelDir', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mosaic-embedded-dir-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('prefers the option, then MOSAIC_MODEL_DIR, then MOSAIC_HOME, then $XDG_CACHE_HOME/mosaic, then ~/.cache/mosaic', () => {
    const env = { MOSAIC_MODEL_DIR: join(root, 'from-env'), MOSAIC_HOME: join(root, 'home'), XDG_CACHE_HOME: join(root, 'xdg'), HOME: join(root, 'user') };
    expect(resolveEmbeddedModelDir({ modelDir: join(root, 'explicit'), env })).toEqual({ modelDir: join(root, 'explicit'), source: 'option' });
    expect(resolveEmbeddedModelDir({ env })).toEqual({ modelDir: join(root, 'from-env'), source: 'env' });
    const { MOSAIC_MODEL_DIR: _model, ...withHome } = env;
    expect(resolveEmbeddedModelDir({ env: withHome })).toEqual({ modelDir: join(root, 'home', 'models', 'wink-sg-100d'), source: 'home' });
    const { MOSAIC_HOME: _home, ...withXdg } = withHome;
    expect(resolveEmbeddedModelDir({ env: withXdg })).toEqual({ modelDir: join(root, 'xdg', 'mosaic', EMBEDDED_MODEL_RELATIVE_DIR), source: 'cache' });
    const { XDG_CACHE_HOME: _xdg, ...withUser } = withXdg;
    expect(resolveEmbeddedModelDir({ env: withUser })).toEqual({
      modelDir: join(root, 'user', '.cache', 'mosaic', EMBEDDED_MODEL_RELATIVE_DIR),
      source: 'cache',
    });
    expect(resolveMosaicHome({}).dir).toBe(join(homedir(), '.cache', 'mosaic'));
  });

  it('never depends on the current directory (a relative XDG_CACHE_HOME is ignored, as the XDG spec says)', () => {
    const before = resolveEmbeddedModelDir({ env: { HOME: join(root, 'user') } });
    const cwd = process.cwd();
    try {
      process.chdir(root);
      expect(resolveEmbeddedModelDir({ env: { HOME: join(root, 'user') } })).toEqual(before);
      expect(resolveEmbeddedModelDir({ env: { HOME: join(root, 'user'), XDG_CACHE_HOME: 'relative' } })).toEqual(before);
    } finally {
      process.chdir(cwd);
    }
  });

  it('reports a missing model as InputError naming the directory', async () => {
    const env = { MOSAIC_HOME: join(root, 'empty-home') };
    const error = await createEmbeddedEncoder({ env }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('MosaicInputError');
    expect((error as { source: string }).source).toBe(join(root, 'empty-home', EMBEDDED_MODEL_RELATIVE_DIR));
  });

  it('reports an incomplete model directory (a listed file missing or truncated) as InputError', async () => {
    const modelDir = join(root, 'incomplete');
    await mkdir(modelDir, { recursive: true });
    await writeFile(join(modelDir, 'model.onnx'), 'abc');
    await writeFile(join(modelDir, 'tokenizer.json'), '{}');
    await writeFile(join(modelDir, 'mosaic-model.json'), JSON.stringify({ files: { 'model.onnx': 3, 'model.onnx_data': 100, 'tokenizer.json': 2 } }));
    const missing = await createEmbeddedEncoder({ modelDir }).catch((e: unknown) => e);
    expect((missing as Error).name).toBe('MosaicInputError');
    await writeFile(join(modelDir, 'model.onnx_data'), 'short');
    const truncated = await createEmbeddedEncoder({ modelDir }).catch((e: unknown) => e);
    expect((truncated as Error).name).toBe('MosaicInputError');
    expect((truncated as { source: string }).source).toBe(modelDir);
  });
});
