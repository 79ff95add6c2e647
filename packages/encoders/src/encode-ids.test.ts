import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Tokenizer } from '@huggingface/tokenizers';
import { beforeAll, describe, expect, it } from 'vitest';
import { findWorkspaceRoot, resolveEmbeddedModelDir } from './embedded-encoder.js';
import { createEncodeIds } from './onnx-encoder.js';

// The real embedded model's tokenizer (built by the set-up script; the script runs first, a no-op when up to date).
const run = promisify(execFile);
const repoRoot = findWorkspaceRoot(dirname(dirname(fileURLToPath(import.meta.url))))!;
const MEDICAL = join(process.env.MOSAIC_DATASETS_DIR ?? join(repoRoot, '..', 'shared', 'datasets', 'graphrag-bench'), 'medical.json');

/** Texts that test the word boundaries: accents, compatibility characters, sigma, added tokens, odd spaces. */
const TRICKY = [
  'Élodie’s café — naïve résumé; ΟΔΥΣΣΕΥΣ and ΣΑΣ ΣΑΣ, σς',
  'a\u00a0b\u2003c\u202fd e\u00b4f g\u00a8 h\ufeffi ΑΣ\ufeffΒ',
  'tabs\tand\nnew\r\nlines\f\v  double  spaces ',
  '[PAD] x[UNK]y [pad] [UNK][PAD] ( [UNK] )',
  'ﬁnancial ﬀ ① ² ½ Ⅻ ＡＢＣ ｱｲｳ 한국어 中文字 العربية',
  'don\'t "quoted" (parenthesised) e.g. U.S.A. 3.14 1,000 a-b_c x/y <tag> {json: 1}',
  '',
  '   ',
  'Σ',
];

describe('createEncodeIds (the embedded model tokenizer, word by word)', () => {
  let tokenizer: Tokenizer;
  let json: unknown;
  let config: Record<string, unknown>;
  beforeAll(async () => {
    await run(process.execPath, [join(repoRoot, 'scripts', 'build-embedded-model.mjs'), '--quiet'], { cwd: repoRoot });
    const dir = resolveEmbeddedModelDir().modelDir;
    json = JSON.parse(await readFile(join(dir, 'tokenizer.json'), 'utf8'));
    config = JSON.parse(await readFile(join(dir, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
    const model = (json as { model: { unk_token: string } }).model;
    tokenizer = new Tokenizer(json as object, { ...config, unk_token: config.unk_token ?? model.unk_token });
  }, 120_000);

  const direct = (text: string) => tokenizer.encode(text).ids.filter((id): id is number => typeof id === 'number');

  it('gives exactly the ids of tokenizer.encode on tricky text and on real sentences, twice (the second time from memory)', () => {
    const encodeIds = createEncodeIds(tokenizer, json, config);
    let medical: string[] = [];
    try {
      medical = (JSON.parse(readFileSync(MEDICAL, 'utf8')) as { context: string }[])
        .map((entry) => entry.context)
        .join('\n')
        .split(/(?<=[.!?])\s+/)
        .slice(0, 5000);
    } catch {
      // The dataset is optional here: the tricky texts still run.
    }
    const texts = [...TRICKY, ...medical];
    for (let pass = 0; pass < 2; pass += 1) {
      for (const text of texts) expect(encodeIds(text)).toEqual(direct(text));
    }
    expect(encodeIds(TRICKY[0]).length).toBeGreaterThan(10);
  });

  it('falls back to the tokenizer itself when it does not read word by word (a post-processor)', () => {
    const withPost = { ...(json as object), post_processor: { type: 'TemplateProcessing' } };
    const calls: string[] = [];
    const spy = {
      encode: (text: string, options?: unknown) => {
        calls.push(text);
        return tokenizer.encode(text, options as undefined);
      },
    } as unknown as Tokenizer;
    createEncodeIds(spy, withPost, config)('alpha beta gamma');
    expect(calls).toEqual(['alpha beta gamma']);
    calls.length = 0;
    createEncodeIds(spy, json, config)('alpha beta gamma');
    expect(calls).toEqual(['alpha', 'beta', 'gamma']);
  });
});
