import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Tokenizer } from '@huggingface/tokenizers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedEncoder, findWorkspaceRoot } from './embedded-encoder.js';

// Runs scripts/build-embedded-model.mjs on a tiny word-vector file in the wink format and checks
// the ONNX model it writes against a hand computation of the SIF-weighted mean.
const run = promisify(execFile);
const repoRoot = findWorkspaceRoot(dirname(fileURLToPath(import.meta.url)))!;
const script = join(repoRoot, 'scripts', 'build-embedded-model.mjs');

const SIF_A = 3e-4; // the script's default
// Frequency-ranked words; 'e-mail' (two pre-tokens) and 'Upper' (not lowercase) are unreachable.
const WORDS = ['the', ',', 'heart', 'e-mail', 'attack', 'Upper', 'tax'];
const VECTORS: Record<string, number[]> = {
  the: [1, 1, 0, 0],
  ',': [0.5, 0.5, 0.5, 0],
  heart: [2, -1, 0, 1],
  'e-mail': [9, 9, 9, 9],
  attack: [1, 0, 3, -1],
  Upper: [7, 7, 7, 7],
  tax: [-2, 1, 1, 0],
};

function winkSource(): string {
  const vectors: Record<string, number[]> = {};
  WORDS.forEach((word, rank) => {
    vectors[word] = [...VECTORS[word], Math.hypot(...VECTORS[word]), rank];
  });
  return JSON.stringify({
    precision: 8,
    l2NormIndex: 4,
    wordIndex: 5,
    size: WORDS.length,
    dimensions: 4,
    words: WORDS,
    vectors,
    unkVector: [0, 0, 0, 0, 0, -1],
  });
}

/** The expected sentence vector, computed from the definition (not from the script's code). */
function expectedEmbedding(tokens: string[]): number[] {
  const harmonic = WORDS.reduce((sum, _, r) => sum + 1 / (r + 1), 0);
  const kept = WORDS.filter((word) => word !== 'e-mail' && word !== 'Upper');
  const p = (word: string) => 1 / ((WORDS.indexOf(word) + 1) * harmonic);
  const weight = (word: string) => SIF_A / (SIF_A + p(word));
  const common = [0, 1, 2, 3].map((d) => kept.reduce((sum, word) => sum + p(word) * weight(word) * VECTORS[word][d], 0));
  const commonNorm = Math.hypot(...common);
  const u = common.map((x) => x / commonNorm);
  const known = tokens.filter((token) => kept.includes(token));
  const total = known.reduce((sum, word) => sum + weight(word), 0);
  const pooled = [0, 1, 2, 3].map((d) => known.reduce((sum, word) => sum + weight(word) * VECTORS[word][d], 0) / total);
  const along = pooled.reduce((sum, x, d) => sum + x * u[d], 0);
  const projected = pooled.map((x, d) => x - along * u[d]);
  const norm = Math.hypot(...projected);
  return projected.map((x) => x / norm);
}

let root: string;
let sourcePath: string;
let outDir: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mosaic-build-embedded-'));
  sourcePath = join(root, 'tiny-wink.json');
  outDir = join(root, 'model');
  await writeFile(sourcePath, winkSource());
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('scripts/build-embedded-model.mjs', () => {
  it('writes model.onnx, tokenizer.json and mosaic-model.json for the reachable vocabulary', async () => {
    const { stdout } = await run(process.execPath, [script, '--source', sourcePath, '--out', outDir]);
    expect(stdout).toContain('built onnx:wink-sg-100d');
    const manifest = JSON.parse(await readFile(join(outDir, 'mosaic-model.json'), 'utf8'));
    expect(manifest.id).toBe('onnx:wink-sg-100d');
    expect(manifest.dimension).toBe(4);
    expect(manifest.vocabularySize).toBe(2 + 5);
    expect(manifest.license).toMatch(/^PDDL/);
    for (const [file, bytes] of Object.entries(manifest.files)) expect((await stat(join(outDir, file))).size).toBe(bytes);
  });

  it('writes a real Hugging Face WordLevel tokenizer (lowercase, accents stripped, [UNK]/[PAD])', async () => {
    const json = JSON.parse(await readFile(join(outDir, 'tokenizer.json'), 'utf8'));
    const config = JSON.parse(await readFile(join(outDir, 'tokenizer_config.json'), 'utf8'));
    expect(json.model.type).toBe('WordLevel');
    const tokenizer = new Tokenizer(json, config);
    expect(tokenizer.tokenize('The HEART-attack, Taxé!')).toEqual(['the', 'heart', '-', 'attack', ',', 'taxe', '!']);
    const { ids } = tokenizer.encode('the heart zebra');
    expect(ids).toEqual([tokenizer.token_to_id('the'), tokenizer.token_to_id('heart'), tokenizer.token_to_id('[UNK]')]);
    expect(tokenizer.token_to_id('[PAD]')).toBe(0);
    expect(tokenizer.token_to_id('e-mail')).toBeUndefined();
  });

  it('computes the SIF-weighted mean minus the common direction, ignoring unknown words and padding', async () => {
    const encoder = await createEmbeddedEncoder({ modelDir: outDir, env: {} });
    expect(encoder.dimension).toBe(4);
    expect(encoder.pooling).toBe('none');
    const [a, b, c] = await encoder.encode(['The heart attack', 'tax , zebra tax', 'heart']);
    const check = (actual: Float32Array, expected: number[]) =>
      expected.forEach((x, d) => {
        expect(actual[d]).toBeCloseTo(x, 5);
      });
    check(a, expectedEmbedding(['the', 'heart', 'attack']));
    check(b, expectedEmbedding(['tax', ',', 'tax']));
    check(c, expectedEmbedding(['heart']));
    const [onlyUnknown, empty] = await encoder.encode(['zebra quagga', '']);
    expect(Array.from(onlyUnknown)).toEqual([0, 0, 0, 0]);
    expect(Array.from(empty)).toEqual([0, 0, 0, 0]);
    await encoder.release();
  });

  it('is idempotent: a second run with the same stamp leaves the files alone; --force rebuilds', async () => {
    const before = (await stat(join(outDir, 'model.onnx'))).mtimeMs;
    const { stdout } = await run(process.execPath, [script, '--source', sourcePath, '--out', outDir]);
    expect(stdout).toContain('up to date');
    expect((await stat(join(outDir, 'model.onnx'))).mtimeMs).toBe(before);
    const forced = await run(process.execPath, [script, '--source', sourcePath, '--out', outDir, '--force']);
    expect(forced.stdout).toContain('built');
  });

  it('fails with a non-zero exit on a missing source file', async () => {
    const error = await run(process.execPath, [script, '--source', join(root, 'missing.json'), '--out', join(root, 'other')]).catch((e: unknown) => e);
    expect((error as { code: number }).code).toBe(1);
  });
});
