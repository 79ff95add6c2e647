import { readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { InputError, InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type { AbortOptions, Encoder } from '@mosaic/spec';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { l2Normalize } from './l2-normalize.js';
import { checkTexts } from './check-texts.js';

/**
 * How token embeddings [batch, seq, dim] become one vector per text:
 * - 'cls': the first token's vector (BERT-style [CLS]; right for BGE models);
 * - 'mean': the attention-masked mean;
 * - 'weighted-mean': the masked mean with position weights 1, 2, …, n (SGPT-style, for decoder models).
 * Ignored when the model already outputs a sentence embedding [batch, dim].
 */
export type Pooling = 'cls' | 'mean' | 'weighted-mean';

export interface OnnxEncoderOptions {
  /** Directory with `model.onnx` (or `onnx/model.onnx`) and `tokenizer.json` (plus optional `tokenizer_config.json`). */
  modelDir: string;
  /** Encoder id recorded in index manifests. Default: `id` from `mosaic-model.json`, else `onnx:<folder name>`. */
  id?: string;
  /**
   * Pooling for token-embedding outputs. Default: `pooling` from `mosaic-model.json`, else the
   * sentence-transformers `1_Pooling/config.json`, else 'mean'.
   */
  pooling?: Pooling;
  /** L2-normalise every vector. Default true. */
  normalize?: boolean;
  /** Texts per ONNX run. Default 32. */
  batchSize?: number;
  /** Tokens per text, special tokens included; longer texts are truncated. Default 512. */
  maxLength?: number;
  /** ONNX Runtime intra-op threads. Default: ONNX Runtime's choice (all cores). */
  intraOpNumThreads?: number;
  /** Model file relative to `modelDir`. Default `model.onnx`, falling back to `onnx/model.onnx`. */
  modelFile?: string;
  /**
   * Output to read. Default: the first of `sentence_embedding`, `last_hidden_state`,
   * `token_embeddings` the model declares, else its first output.
   */
  outputName?: string;
}

/** An `Encoder` backed by an ONNX Runtime session; exposes what it loaded for traces and manifests. */
export interface OnnxEncoder extends Encoder {
  readonly modelDir: string;
  readonly modelPath: string;
  /** The pooling applied, or 'none' when the model outputs sentence embeddings itself. */
  readonly pooling: Pooling | 'none';
  readonly outputName: string;
  readonly inputNames: readonly string[];
  readonly maxLength: number;
  readonly batchSize: number;
  /** Release the native session. The encoder must not be used afterwards. */
  release(): Promise<void>;
}

const POOLINGS: readonly Pooling[] = ['cls', 'mean', 'weighted-mean'];
const PREFERRED_OUTPUTS = ['sentence_embedding', 'last_hidden_state', 'token_embeddings'];
const SUPPORTED_INPUTS = new Set(['input_ids', 'attention_mask', 'token_type_ids', 'position_ids']);

interface ModelManifest {
  id?: string;
  pooling?: Pooling | 'none';
  dimension?: number;
}

interface TokenizedText {
  ids: number[];
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new InputError({ source: path, message: 'cannot be read', cause });
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new InputError({ source: path, message: 'is not valid JSON', cause });
  }
}

async function readOptionalJson(path: string): Promise<Record<string, unknown> | undefined> {
  if (!(await isFile(path))) return undefined;
  const value = await readJson(path);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError({ source: path, message: 'must hold a JSON object' });
  }
  return value as Record<string, unknown>;
}

function positiveInteger(argument: string, value: number | undefined, fallback: number): number {
  const resolved = value ?? fallback;
  if (!Number.isInteger(resolved) || resolved < 1) {
    throw new InvalidArgumentError({ argument, message: `must be a positive integer, got ${String(value)}` });
  }
  return resolved;
}

/** Pooling from sentence-transformers' `1_Pooling/config.json`, when it names one we implement. */
function poolingFromSentenceTransformers(config: Record<string, unknown> | undefined): Pooling | undefined {
  if (!config) return undefined;
  if (config.pooling_mode_cls_token === true) return 'cls';
  if (config.pooling_mode_mean_tokens === true) return 'mean';
  if (config.pooling_mode_weightedmean_tokens === true) return 'weighted-mean';
  return undefined;
}

function loadTokenizer(path: string, json: unknown, config: Record<string, unknown> | undefined): Tokenizer {
  if (typeof json !== 'object' || json === null || !('model' in json)) {
    throw new InputError({ source: path, message: 'is not a Hugging Face tokenizer.json (no "model")' });
  }
  const model = (json as { model?: { unk_token?: unknown } }).model;
  // tokenizers.js takes the WordLevel unknown token from the config; default it from the model.
  const tokenizerConfig: Record<string, unknown> = { ...(config ?? {}) };
  if (tokenizerConfig.unk_token === undefined && typeof model?.unk_token === 'string') {
    tokenizerConfig.unk_token = model.unk_token;
  }
  try {
    return new Tokenizer(json as object, tokenizerConfig);
  } catch (cause) {
    throw new InputError({ source: path, message: 'cannot be loaded by @huggingface/tokenizers', cause });
  }
}

/** A text's token ids as `tokenizer.encode(text).ids` gives them (numbers only). */
export type EncodeIds = (text: string, options?: { addSpecialTokens?: boolean }) => number[];

/** Normalizers that act on each character alone (no context across an ASCII space). */
const PER_CHARACTER_NORMALIZERS = new Set(['NFD', 'NFKD', 'StripAccents', 'Lowercase']);
/** Words whose ids a word-wise encoder remembers before it starts again (bounds its memory). */
const WORD_CACHE_LIMIT = 1 << 18;
/** ASCII whitespace: never changed by the normalizers above, neither cased nor case-ignorable, a pre-token boundary. */
const ASCII_SPACE = /[ \t\n\r\f\v]+/;

/**
 * Whether `tokenizer.encode(a + ' ' + b)` always equals `encode(a)` followed by `encode(b)`: no
 * post-processor, a WordLevel model without unknown-token fusing, the BERT pre-tokenizer (splits
 * at whitespace), per-character normalizers only (NFD/NFKD keep a space a space and never reorder
 * across it; lower-casing's one contextual rule, the final sigma, stops at a space), and added
 * tokens that strip no neighbouring space.
 */
function readsWordByWord(json: unknown, config: Record<string, unknown> | undefined): boolean {
  const tokenizer = json as {
    post_processor?: unknown;
    model?: { type?: unknown; fuse_unk?: unknown };
    pre_tokenizer?: { type?: unknown } | null;
    normalizer?: { type?: unknown; normalizers?: { type?: unknown }[] } | null;
    added_tokens?: { content?: unknown; lstrip?: unknown; rstrip?: unknown }[];
  };
  if (tokenizer.post_processor != null || tokenizer.model?.type !== 'WordLevel' || tokenizer.model.fuse_unk === true) return false;
  if (tokenizer.pre_tokenizer?.type !== 'BertPreTokenizer') return false;
  if (config?.remove_space === true || config?.do_lowercase_and_remove_accent === true) return false;
  const normalizer = tokenizer.normalizer;
  const normalizers = normalizer == null ? [] : normalizer.type === 'Sequence' ? (normalizer.normalizers ?? [{}]) : [normalizer];
  if (!normalizers.every((step) => PER_CHARACTER_NORMALIZERS.has(step?.type as string))) return false;
  return (tokenizer.added_tokens ?? []).every(
    (token) => typeof token.content === 'string' && !/\s/.test(token.content) && token.lstrip !== true && token.rstrip !== true,
  );
}

/**
 * `tokenizer.encode(text).ids` as a function. When the tokenizer reads word by word (see
 * readsWordByWord: the embedded encoder's does), a text is split at ASCII whitespace and each
 * word's ids are remembered: the same ids, without normalising and pre-tokenising a corpus's
 * frequent words again for every text (most of the encoding time of a build).
 */
export function createEncodeIds(tokenizer: Tokenizer, json: unknown, config?: Record<string, unknown>): EncodeIds {
  const direct: EncodeIds = (text, options) =>
    tokenizer
      .encode(text, options?.addSpecialTokens === false ? { add_special_tokens: false } : undefined)
      .ids.filter((id): id is number => typeof id === 'number');
  if (!readsWordByWord(json, config)) return direct;
  const words = new Map<string, number[]>();
  return (text) => {
    const ids: number[] = [];
    for (const word of text.split(ASCII_SPACE)) {
      if (word === '') continue;
      let wordIds = words.get(word);
      if (wordIds === undefined) {
        wordIds = direct(word);
        if (words.size >= WORD_CACHE_LIMIT) words.clear();
        words.set(word, wordIds);
      }
      for (const id of wordIds) ids.push(id);
    }
    return ids;
  };
}

function padIdOf(tokenizer: Tokenizer, json: unknown, config: Record<string, unknown> | undefined): number {
  const padding = (json as { padding?: { pad_id?: unknown } | null }).padding;
  if (padding && typeof padding.pad_id === 'number') return padding.pad_id;
  const padToken = typeof config?.pad_token === 'string' ? config.pad_token : '[PAD]';
  return tokenizer.token_to_id(padToken) ?? 0;
}

function sameIds(a: readonly number[], aStart: number, b: readonly number[]): boolean {
  for (let index = 0; index < b.length; index += 1) if (a[aStart + index] !== b[index]) return false;
  return true;
}

/**
 * Tokenise with special tokens; when longer than `maxLength`, cut the text tokens and keep the
 * special tokens the post-processor placed around them (e.g. [CLS] … [SEP]).
 */
function tokenize(encodeIds: EncodeIds, text: string, maxLength: number): TokenizedText {
  const full = encodeIds(text);
  if (full.length <= maxLength) return { ids: full };
  const plain = encodeIds(text, { addSpecialTokens: false });
  const specials = full.length - plain.length;
  let prefix = -1;
  for (let start = 0; start <= specials && prefix < 0; start += 1) if (sameIds(full, start, plain)) prefix = start;
  if (prefix < 0 || specials >= maxLength) return { ids: full.slice(0, maxLength) };
  const kept = maxLength - specials;
  return { ids: [...full.slice(0, prefix), ...plain.slice(0, kept), ...full.slice(prefix + plain.length)] };
}

type IntegerType = 'int64' | 'int32';

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * The values (non-negative integers below 2^31: token ids, mask, positions) as int64 without a
 * BigInt per value: on a little-endian machine each int64 is its low 32-bit word with a zero high
 * word, written through an Int32Array view (the same bytes as BigInt64Array.from).
 */
export function int64Array(values: readonly number[]): BigInt64Array {
  const out = new BigInt64Array(values.length);
  if (!LITTLE_ENDIAN || !values.every((value) => value >= 0 && value <= 0x7fffffff && Number.isInteger(value))) {
    for (let i = 0; i < values.length; i += 1) out[i] = BigInt(values[i]);
    return out;
  }
  const words = new Int32Array(out.buffer, out.byteOffset, values.length * 2);
  for (let i = 0; i < values.length; i += 1) words[2 * i] = values[i];
  return out;
}

function integerTensor(type: IntegerType, values: number[], dims: [number, number]): Tensor {
  return type === 'int64' ? new Tensor('int64', int64Array(values), dims) : new Tensor('int32', Int32Array.from(values), dims);
}

function pool(data: Float32Array, row: number, sequence: number, dimension: number, mask: readonly number[], pooling: Pooling): Float32Array {
  const base = row * sequence * dimension;
  if (pooling === 'cls') return data.slice(base, base + dimension);
  const vector = new Float32Array(dimension);
  let total = 0;
  for (let position = 0; position < sequence; position += 1) {
    const weight = mask[row * sequence + position] * (pooling === 'weighted-mean' ? position + 1 : 1);
    if (weight === 0) continue;
    total += weight;
    const offset = base + position * dimension;
    for (let d = 0; d < dimension; d += 1) vector[d] += weight * data[offset + d];
  }
  const scale = 1 / Math.max(total, 1e-9);
  for (let d = 0; d < dimension; d += 1) vector[d] *= scale;
  return vector;
}

/**
 * Load an ONNX bi-encoder from a model directory (e.g. an export of BAAI/bge-large-en-v1.5, or the
 * embedded word-vector model). Feeds the inputs the model declares (input_ids, attention_mask,
 * token_type_ids, position_ids) padded per batch; pools token embeddings or takes the model's
 * sentence embedding; L2-normalises.
 */
export async function createOnnxEncoder(options: OnnxEncoderOptions): Promise<OnnxEncoder> {
  if (!options || typeof options.modelDir !== 'string' || options.modelDir.length === 0) {
    throw new InvalidArgumentError({ argument: 'modelDir', message: 'must be a non-empty path' });
  }
  if (options.pooling !== undefined && !POOLINGS.includes(options.pooling)) {
    throw new InvalidArgumentError({ argument: 'pooling', message: `must be one of ${POOLINGS.join(', ')}` });
  }
  const batchSize = positiveInteger('batchSize', options.batchSize, 32);
  const maxLength = positiveInteger('maxLength', options.maxLength, 512);
  const normalize = options.normalize ?? true;
  if (options.intraOpNumThreads !== undefined) positiveInteger('intraOpNumThreads', options.intraOpNumThreads, 1);

  const modelDir = resolve(options.modelDir);
  if (!(await isDirectory(modelDir))) {
    throw new InputError({ source: modelDir, message: 'model directory does not exist' });
  }
  const candidates = options.modelFile ? [options.modelFile] : ['model.onnx', join('onnx', 'model.onnx')];
  let modelPath: string | undefined;
  for (const candidate of candidates) {
    if (await isFile(join(modelDir, candidate))) {
      modelPath = join(modelDir, candidate);
      break;
    }
  }
  if (!modelPath) throw new InputError({ source: join(modelDir, candidates[0]), message: 'ONNX model file not found' });
  const tokenizerPath = join(modelDir, 'tokenizer.json');
  if (!(await isFile(tokenizerPath))) throw new InputError({ source: tokenizerPath, message: 'tokenizer file not found' });

  const manifest = (await readOptionalJson(join(modelDir, 'mosaic-model.json'))) as ModelManifest | undefined;
  const tokenizerConfig = await readOptionalJson(join(modelDir, 'tokenizer_config.json'));
  const tokenizerJson = await readJson(tokenizerPath);
  const tokenizer = loadTokenizer(tokenizerPath, tokenizerJson, tokenizerConfig);
  const padId = padIdOf(tokenizer, tokenizerJson, tokenizerConfig);
  const encodeIds = createEncodeIds(tokenizer, tokenizerJson, tokenizerConfig);
  const manifestPooling = manifest?.pooling && manifest.pooling !== 'none' ? manifest.pooling : undefined;
  const configuredPooling: Pooling =
    options.pooling ?? manifestPooling ?? poolingFromSentenceTransformers(await readOptionalJson(join(modelDir, '1_Pooling', 'config.json'))) ?? 'mean';

  let session: InferenceSession;
  try {
    session = await InferenceSession.create(modelPath, {
      executionProviders: ['cpu'],
      graphOptimizationLevel: 'all',
      interOpNumThreads: 1,
      ...(options.intraOpNumThreads ? { intraOpNumThreads: options.intraOpNumThreads } : {}),
    });
  } catch (cause) {
    throw new InputError({ source: modelPath, message: 'ONNX Runtime cannot load the model', cause });
  }

  const inputNames = [...session.inputNames];
  const unsupported = inputNames.filter((name) => !SUPPORTED_INPUTS.has(name));
  if (!inputNames.includes('input_ids') || unsupported.length > 0) {
    await session.release();
    throw new InputError({
      source: modelPath,
      message: `model inputs [${inputNames.join(', ')}] are not supported (need input_ids; may use ${[...SUPPORTED_INPUTS].join(', ')})`,
    });
  }
  const inputTypes = new Map<string, IntegerType>();
  for (const metadata of session.inputMetadata) {
    inputTypes.set(metadata.name, metadata.isTensor && metadata.type === 'int32' ? 'int32' : 'int64');
  }
  const outputName = options.outputName ?? PREFERRED_OUTPUTS.find((name) => session.outputNames.includes(name)) ?? session.outputNames[0];
  if (!session.outputNames.includes(outputName)) {
    await session.release();
    throw new InputError({ source: modelPath, message: `model has no output '${outputName}' (has ${session.outputNames.join(', ')})` });
  }

  let pooling: Pooling | 'none' = configuredPooling;
  let dimension = 0;

  async function runBatch(texts: readonly string[]): Promise<Float32Array[]> {
    const tokenized = texts.map((text) => tokenize(encodeIds, text, maxLength).ids);
    const sequence = Math.max(1, ...tokenized.map((ids) => ids.length));
    const rows = tokenized.length;
    const ids: number[] = new Array(rows * sequence).fill(padId);
    const mask: number[] = new Array(rows * sequence).fill(0);
    tokenized.forEach((tokens, row) => {
      tokens.forEach((id, position) => {
        ids[row * sequence + position] = id;
        mask[row * sequence + position] = 1;
      });
    });
    const dims: [number, number] = [rows, sequence];
    const feeds: Record<string, Tensor> = {};
    for (const name of inputNames) {
      const type = inputTypes.get(name) ?? 'int64';
      if (name === 'input_ids') feeds[name] = integerTensor(type, ids, dims);
      else if (name === 'attention_mask') feeds[name] = integerTensor(type, mask, dims);
      else if (name === 'token_type_ids') feeds[name] = integerTensor(type, new Array(rows * sequence).fill(0), dims);
      else
        feeds[name] = integerTensor(
          type,
          Array.from({ length: rows * sequence }, (_, index) => index % sequence),
          dims,
        );
    }
    let output: Tensor;
    try {
      const result = await session.run(feeds, [outputName]);
      output = result[outputName] as Tensor;
    } catch (cause) {
      throw new InputError({ source: modelPath!, message: 'ONNX Runtime failed to run the model', cause });
    }
    if (output.type !== 'float32') {
      throw new InputError({ source: modelPath!, message: `output '${outputName}' has type ${output.type}, expected float32` });
    }
    const data = output.data as Float32Array;
    const shape = output.dims;
    let vectors: Float32Array[];
    if (shape.length === 2 && shape[0] === rows) {
      pooling = 'none';
      const width = shape[1];
      vectors = Array.from({ length: rows }, (_, row) => data.slice(row * width, (row + 1) * width));
    } else if (shape.length === 3 && shape[0] === rows && shape[1] === sequence) {
      vectors = Array.from({ length: rows }, (_, row) => pool(data, row, sequence, shape[2], mask, configuredPooling));
    } else {
      throw new InputError({
        source: modelPath!,
        message: `output '${outputName}' has shape [${shape.join(', ')}]; expected [batch, dim] or [batch, seq, dim]`,
      });
    }
    return normalize ? vectors.map(l2Normalize) : vectors;
  }

  // The dimension: from the output metadata when static, else from one probe run.
  const outputMetadata = session.outputMetadata.find((metadata) => metadata.name === outputName);
  const declared = outputMetadata?.isTensor ? outputMetadata.shape : [];
  const lastDimension = declared[declared.length - 1];
  if ((declared.length === 2 || declared.length === 3) && typeof lastDimension === 'number' && lastDimension > 0) {
    dimension = lastDimension;
    if (declared.length === 2) pooling = 'none';
  } else {
    const [probe] = await runBatch(['dimension probe']);
    dimension = probe.length;
  }
  const runDimension = dimension;

  const encoder: OnnxEncoder = {
    specificationVersion: 'v1',
    id: options.id ?? manifest?.id ?? `onnx:${basename(modelDir)}`,
    dimension,
    modelDir,
    modelPath,
    get pooling() {
      return pooling;
    },
    outputName,
    inputNames,
    maxLength,
    batchSize,
    async encode(texts: readonly string[], encodeOptions?: AbortOptions): Promise<Float32Array[]> {
      checkTexts(texts);
      const signal = encodeOptions?.abortSignal;
      throwIfAborted(signal, 'encode');
      // Batch texts of similar length together (less padding); results go back in input order.
      const lengths = texts.map((text) => text.length);
      const order = texts.map((_, index) => index).sort((a, b) => lengths[b] - lengths[a] || a - b);
      const results: Float32Array[] = new Array(texts.length);
      for (let start = 0; start < order.length; start += batchSize) {
        throwIfAborted(signal, 'encode');
        const indices = order.slice(start, start + batchSize);
        const vectors = await runBatch(indices.map((index) => texts[index]));
        vectors.forEach((vector, offset) => {
          if (vector.length !== runDimension) {
            throw new InputError({ source: modelPath!, message: `model produced ${vector.length}-d vectors, expected ${runDimension}` });
          }
          results[indices[offset]] = vector;
        });
      }
      return results;
    },
    async release() {
      await session.release();
    },
  };
  return encoder;
}
