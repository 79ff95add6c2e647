export { createOnnxEncoder } from './onnx-encoder.js';
export type { OnnxEncoder, OnnxEncoderOptions, Pooling } from './onnx-encoder.js';
export {
  createEmbeddedEncoder,
  resolveEmbeddedModelDir,
  resolveMosaicHome,
  EMBEDDED_ENCODER_ID,
  EMBEDDED_MODEL_RELATIVE_DIR,
  EMBEDDED_MODEL_BUILD_COMMAND,
} from './embedded-encoder.js';
export type { EmbeddedEncoderOptions, ResolveEmbeddedModelDirOptions, ResolvedEmbeddedModelDir } from './embedded-encoder.js';
export { createOpenAIEncoder, OPENAI_EMBEDDING_DIMENSIONS } from './openai-encoder.js';
export type { OpenAIEncoder, OpenAIEncoderOptions } from './openai-encoder.js';
