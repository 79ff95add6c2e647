import { createEmbeddedEncoder, createOnnxEncoder, createOpenAIEncoder } from '@mosaic/encoders';
import type { Encoder } from '@mosaic/spec';
import { RERANKER_NAMES, type RerankerName } from '@mosaic/window-reranker';
import { oneOf } from './args.js';
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

export const RERANKER_HELP = `${RERANKER_NAMES.join(' | ')} (default fusion)`;

/** The reranker name of `--reranker` (undefined when not given: the pipeline's default, fusion). */
export function chooseRerankerName(value: unknown): RerankerName | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (RERANKER_NAMES as readonly string[]).includes(value)) return value as RerankerName;
  throw new CliError(`unknown --reranker '${String(value)}'; valid names: ${RERANKER_NAMES.join(', ')}`);
}

/** `--graph on|off` as a boolean (default on). */
export function chooseGraph(value: unknown): boolean {
  return oneOf('graph', value, ['on', 'off'] as const, 'on') === 'on';
}
