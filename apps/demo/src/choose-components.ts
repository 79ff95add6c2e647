import { createEmbeddedEncoder, createOnnxEncoder, createOpenAIEncoder } from '@mosaic/encoders';
import type { Encoder } from '@mosaic/spec';
import { CliError } from './cli-error.js';

export const ENCODER_HELP = 'embedded (default: wink-sg-100d ONNX) | onnx:<model dir> | openai[:<model>]';

/** Builds the encoder named by `--encoder`. */
export async function chooseEncoder(spec: string | undefined): Promise<Encoder> {
  const value = spec ?? 'embedded';
  if (value === 'embedded') return createEmbeddedEncoder();
  if (value.startsWith('onnx:')) {
    const modelDir = value.slice('onnx:'.length);
    if (!modelDir) throw new CliError(`--encoder onnx:<model dir> needs a directory`);
    return createOnnxEncoder({ modelDir });
  }
  if (value === 'openai' || value.startsWith('openai:')) {
    const model = value.slice('openai:'.length) || undefined;
    return createOpenAIEncoder(model ? { model } : {});
  }
  throw new CliError(`--encoder must be ${ENCODER_HELP}; got '${value}'`);
}

/** Whether an OpenAI-compatible key is configured in the environment. */
export function openAIConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return typeof env.OPENAI_API_KEY === 'string' && env.OPENAI_API_KEY.length > 0;
}
