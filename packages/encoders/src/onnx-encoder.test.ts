import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOnnxEncoder, int64Array } from './onnx-encoder.js';
import type { OnnxEncoder } from './onnx-encoder.js';
import { encodeOnnxModel } from './onnx-graph.js';

// A tiny "transformer": token embeddings are rows of EMBEDDING (plus a token-type row), so every
// pooled vector can be computed by hand from this table.
const VOCAB = { '[PAD]': 0, '[UNK]': 1, '[CLS]': 2, '[SEP]': 3, alpha: 4, beta: 5, gamma: 6, delta: 7 } as const;
const EMBEDDING = [
  [0, 0, 0], // [PAD]
  [0, 0, 1], // [UNK]
  [1, 1, 1], // [CLS]
  [-1, 0, 0], // [SEP]
  [2, 0, 0], // alpha
  [0, 3, 0], // beta
  [1, 2, 2], // gamma
  [4, 0, 3], // delta
];
const TOKEN_TYPE = [[0, 0, 0.5]]; // added to every token (type 0)
const DIMENSION = 3;

function row(token: keyof typeof VOCAB): number[] {
  return EMBEDDING[VOCAB[token]].map((value, d) => value + TOKEN_TYPE[0][d]);
}
function mean(rows: number[][], weights = rows.map(() => 1)): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  return [0, 1, 2].map((d) => rows.reduce((sum, r, i) => sum + weights[i] * r[d], 0) / total);
}
function unit(vector: number[]): number[] {
  const norm = Math.hypot(...vector);
  return vector.map((x) => x / norm);
}
function expectClose(actual: Float32Array, expected: number[]): void {
  expect(actual.length).toBe(expected.length);
  expected.forEach((value, index) => {
    expect(actual[index]).toBeCloseTo(value, 5);
  });
}

function tokenizerJson() {
  const special = (content: string) => ({
    id: VOCAB[content as keyof typeof VOCAB],
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]'].map(special),
    normalizer: { type: 'Lowercase' },
    pre_tokenizer: { type: 'Whitespace' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [VOCAB['[CLS]']], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [VOCAB['[SEP]']], tokens: ['[SEP]'] },
      },
    },
    decoder: null,
    model: { type: 'WordLevel', vocab: VOCAB, unk_token: '[UNK]' },
  };
}

/** Token-embedding model: last_hidden_state = E[input_ids] + T[token_type_ids]; also declares attention_mask. */
function tokenModel(): Uint8Array {
  return encodeOnnxModel({
    graphName: 'tiny_token_model',
    inputs: [
      { name: 'input_ids', type: 'int64', shape: ['batch', 'sequence'] },
      { name: 'attention_mask', type: 'int64', shape: ['batch', 'sequence'] },
      { name: 'token_type_ids', type: 'int64', shape: ['batch', 'sequence'] },
    ],
    outputs: [{ name: 'last_hidden_state', type: 'float', shape: ['batch', 'sequence', DIMENSION] }],
    initializers: [
      { name: 'embedding', type: 'float', dims: [EMBEDDING.length, DIMENSION], data: Float32Array.from(EMBEDDING.flat()) },
      { name: 'token_type_embedding', type: 'float', dims: [1, DIMENSION], data: Float32Array.from(TOKEN_TYPE.flat()) },
    ],
    nodes: [
      { opType: 'Gather', inputs: ['embedding', 'input_ids'], outputs: ['words'], attributes: { axis: { int: 0 } } },
      { opType: 'Gather', inputs: ['token_type_embedding', 'token_type_ids'], outputs: ['types'], attributes: { axis: { int: 0 } } },
      { opType: 'Add', inputs: ['words', 'types'], outputs: ['last_hidden_state'] },
    ],
  });
}

/** Sentence model: sentence_embedding = ReduceMean over the sequence of E[input_ids] (no mask input). */
function sentenceModel(): Uint8Array {
  return encodeOnnxModel({
    graphName: 'tiny_sentence_model',
    inputs: [{ name: 'input_ids', type: 'int64', shape: ['batch', 'sequence'] }],
    outputs: [{ name: 'sentence_embedding', type: 'float', shape: ['batch', DIMENSION] }],
    initializers: [{ name: 'embedding', type: 'float', dims: [EMBEDDING.length, DIMENSION], data: Float32Array.from(EMBEDDING.flat()) }],
    nodes: [
      { opType: 'Gather', inputs: ['embedding', 'input_ids'], outputs: ['words'], attributes: { axis: { int: 0 } } },
      { opType: 'ReduceMean', inputs: ['words'], outputs: ['sentence_embedding'], attributes: { axes: { ints: [1] }, keepdims: { int: 0 } } },
    ],
  });
}

let root: string;
let tokenDir: string;
let sentenceDir: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mosaic-onnx-encoder-'));
  tokenDir = join(root, 'tiny-token');
  sentenceDir = join(root, 'tiny-sentence');
  for (const [dir, model] of [
    [tokenDir, tokenModel()],
    [sentenceDir, sentenceModel()],
  ] as const) {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'model.onnx'), model);
    await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson()));
  }
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('createOnnxEncoder on a token-embedding model', () => {
  let meanEncoder: OnnxEncoder;
  let clsEncoder: OnnxEncoder;
  beforeAll(async () => {
    meanEncoder = await createOnnxEncoder({ modelDir: tokenDir, pooling: 'mean', normalize: false });
    clsEncoder = await createOnnxEncoder({ modelDir: tokenDir, pooling: 'cls' });
  });
  afterAll(async () => {
    await meanEncoder.release();
    await clsEncoder.release();
  });

  it('reads the model: inputs, output, dimension, id', () => {
    expect(meanEncoder.specificationVersion).toBe('v1');
    expect(meanEncoder.dimension).toBe(DIMENSION);
    expect(meanEncoder.inputNames).toEqual(['input_ids', 'attention_mask', 'token_type_ids']);
    expect(meanEncoder.outputName).toBe('last_hidden_state');
    expect(meanEncoder.pooling).toBe('mean');
    expect(meanEncoder.id).toBe('onnx:tiny-token');
  });

  it('mean-pools over the attention mask, padding excluded, in input order', async () => {
    const [short, long] = await meanEncoder.encode(['Alpha', 'alpha BETA gamma']);
    expectClose(short, mean([row('[CLS]'), row('alpha'), row('[SEP]')]));
    expectClose(long, mean([row('[CLS]'), row('alpha'), row('beta'), row('gamma'), row('[SEP]')]));
    // The same text alone (no padding) gives the same vector.
    const [alone] = await meanEncoder.encode(['Alpha']);
    expectClose(alone, Array.from(short));
  });

  it('maps unknown words to [UNK]', async () => {
    const [vector] = await meanEncoder.encode(['alpha zeta']);
    expectClose(vector, mean([row('[CLS]'), row('alpha'), row('[UNK]'), row('[SEP]')]));
  });

  it('CLS-pools and L2-normalises', async () => {
    const [a, b] = await clsEncoder.encode(['alpha', 'delta gamma']);
    expectClose(a, unit(row('[CLS]')));
    expectClose(b, unit(row('[CLS]')));
    expect(Math.hypot(...a)).toBeCloseTo(1, 6);
  });

  it('weighted-mean pools with position weights 1..n', async () => {
    const encoder = await createOnnxEncoder({ modelDir: tokenDir, pooling: 'weighted-mean', normalize: false });
    const [vector] = await encoder.encode(['beta delta']);
    expectClose(vector, mean([row('[CLS]'), row('beta'), row('delta'), row('[SEP]')], [1, 2, 3, 4]));
    await encoder.release();
  });

  it('truncates to maxLength keeping [CLS] and [SEP]', async () => {
    const encoder = await createOnnxEncoder({ modelDir: tokenDir, pooling: 'mean', normalize: false, maxLength: 4 });
    const [vector] = await encoder.encode(['alpha beta gamma delta']);
    expectClose(vector, mean([row('[CLS]'), row('alpha'), row('beta'), row('[SEP]')]));
    await encoder.release();
  });

  it('batches: results do not depend on batch size', async () => {
    const texts = ['delta', 'alpha beta gamma delta alpha', '', 'gamma gamma', 'beta'];
    const one = await createOnnxEncoder({ modelDir: tokenDir, pooling: 'mean', batchSize: 1 });
    const all = await meanEncoder.encode(texts);
    const single = await one.encode(texts);
    expect(all).toHaveLength(texts.length);
    texts.forEach((text, index) => {
      const expected = mean([
        row('[CLS]'),
        ...text
          .split(' ')
          .filter(Boolean)
          .map((w) => row(w as keyof typeof VOCAB)),
        row('[SEP]'),
      ]);
      expectClose(all[index], expected);
      expectClose(single[index], unit(expected));
    });
    await one.release();
  });

  it('returns no vectors for no texts', async () => {
    expect(await meanEncoder.encode([])).toEqual([]);
  });

  it('finds onnx/model.onnx and takes pooling from sentence-transformers 1_Pooling/config.json', async () => {
    const dir = join(root, 'hub-layout');
    await mkdir(join(dir, 'onnx'), { recursive: true });
    await mkdir(join(dir, '1_Pooling'), { recursive: true });
    await writeFile(join(dir, 'onnx', 'model.onnx'), tokenModel());
    await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson()));
    await writeFile(
      join(dir, '1_Pooling', 'config.json'),
      JSON.stringify({ word_embedding_dimension: 3, pooling_mode_cls_token: true, pooling_mode_mean_tokens: false }),
    );
    const encoder = await createOnnxEncoder({ modelDir: dir });
    expect(encoder.modelPath).toBe(join(dir, 'onnx', 'model.onnx'));
    expect(encoder.pooling).toBe('cls');
    const [vector] = await encoder.encode(['gamma']);
    expectClose(vector, unit(row('[CLS]')));
    await encoder.release();
  });
});

describe('createOnnxEncoder on a sentence-embedding model', () => {
  it('uses the [batch, dim] output as is (no pooling) and normalises it', async () => {
    const encoder = await createOnnxEncoder({ modelDir: sentenceDir, pooling: 'cls', batchSize: 1 });
    expect(encoder.pooling).toBe('none');
    expect(encoder.outputName).toBe('sentence_embedding');
    expect(encoder.inputNames).toEqual(['input_ids']);
    expect(encoder.dimension).toBe(DIMENSION);
    const [vector] = await encoder.encode(['gamma delta']);
    const raw = (token: keyof typeof VOCAB) => EMBEDDING[VOCAB[token]];
    expectClose(vector, unit(mean([raw('[CLS]'), raw('gamma'), raw('delta'), raw('[SEP]')])));
    await encoder.release();
  });

  it('takes its id from an explicit option', async () => {
    const encoder = await createOnnxEncoder({ modelDir: sentenceDir, id: 'onnx:custom' });
    expect(encoder.id).toBe('onnx:custom');
    await encoder.release();
  });
});

describe('createOnnxEncoder errors', () => {
  it('rejects a missing model directory with InputError naming it', async () => {
    const missing = join(root, 'does-not-exist');
    const error = await createOnnxEncoder({ modelDir: missing }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('MosaicInputError');
    expect((error as { source: string }).source).toBe(missing);
  });

  it('rejects a directory without model.onnx, naming the file', async () => {
    const dir = join(root, 'no-model');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson()));
    const error = await createOnnxEncoder({ modelDir: dir }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('MosaicInputError');
    expect((error as { source: string }).source).toBe(join(dir, 'model.onnx'));
  });

  it('rejects a directory without tokenizer.json, naming the file', async () => {
    const dir = join(root, 'no-tokenizer');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'model.onnx'), tokenModel());
    const error = await createOnnxEncoder({ modelDir: dir }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('MosaicInputError');
    expect((error as { source: string }).source).toBe(join(dir, 'tokenizer.json'));
  });

  it('rejects a corrupt model file and a malformed tokenizer with InputError', async () => {
    const corrupt = join(root, 'corrupt-model');
    await mkdir(corrupt, { recursive: true });
    await writeFile(join(corrupt, 'model.onnx'), 'not an onnx model');
    await writeFile(join(corrupt, 'tokenizer.json'), JSON.stringify(tokenizerJson()));
    const modelError = await createOnnxEncoder({ modelDir: corrupt }).catch((e: unknown) => e);
    expect((modelError as Error).name).toBe('MosaicInputError');
    expect((modelError as { source: string }).source).toBe(join(corrupt, 'model.onnx'));

    const badTokenizer = join(root, 'bad-tokenizer');
    await mkdir(badTokenizer, { recursive: true });
    await writeFile(join(badTokenizer, 'model.onnx'), tokenModel());
    await writeFile(join(badTokenizer, 'tokenizer.json'), '{ not json');
    const tokenizerError = await createOnnxEncoder({ modelDir: badTokenizer }).catch((e: unknown) => e);
    expect((tokenizerError as Error).name).toBe('MosaicInputError');
    expect((tokenizerError as { source: string }).source).toBe(join(badTokenizer, 'tokenizer.json'));
  });

  it('rejects bad options with InvalidArgumentError', async () => {
    for (const options of [
      { modelDir: '' },
      { modelDir: tokenDir, pooling: 'max' as never },
      { modelDir: tokenDir, batchSize: 0 },
      { modelDir: tokenDir, maxLength: 1.5 },
    ]) {
      const error = await createOnnxEncoder(options).catch((e: unknown) => e);
      expect((error as Error).name).toBe('MosaicInvalidArgumentError');
    }
  });

  it('rejects non-string texts and honours an aborted signal', async () => {
    const encoder = await createOnnxEncoder({ modelDir: tokenDir });
    // @ts-expect-error a number where a text belongs (an untyped caller)
    const wrong = await encoder.encode([42]).catch((e: unknown) => e);
    expect((wrong as Error).name).toBe('MosaicInvalidArgumentError');
    const controller = new AbortController();
    controller.abort();
    const aborted = await encoder.encode(['alpha'], { abortSignal: controller.signal }).catch((e: unknown) => e);
    expect((aborted as Error).name).toBe('MosaicAbortedError');
    await encoder.release();
  });
});

describe('int64Array (the int64 inputs of a model)', () => {
  const bytesOf = (array: BigInt64Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  it('holds the same bytes as BigInt64Array.from for token ids, masks and positions', () => {
    const values = [0, 1, 2, 511, 321_283, 0x7fffffff, 65_536, 7, 0, 1];
    const reference = BigInt64Array.from(values, (value) => BigInt(value));
    expect(bytesOf(int64Array(values)).equals(bytesOf(reference))).toBe(true);
    expect([...int64Array(values)]).toEqual([...reference]);
  });
  it('falls back to BigInt for values outside 0..2^31-1 (negative, large)', () => {
    const values = [-1, 2 ** 40, 3, -(2 ** 33)];
    expect([...int64Array(values)]).toEqual(values.map((value) => BigInt(value)));
  });
  it('gives an empty array for no values', () => {
    expect(int64Array([]).length).toBe(0);
  });
});
