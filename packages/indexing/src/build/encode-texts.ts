import { DimensionMismatchError, throwIfAborted } from '@mosaic/spec';
import type { Encoder } from '@mosaic/spec';

export interface EncodeTextsOptions {
  encoder: Encoder;
  texts: readonly string[];
  /** Texts per encoder call. Default 256. */
  batchSize?: number;
  abortSignal?: AbortSignal;
  /** Called after every batch with the number of texts encoded so far. */
  onBatch?: (done: number, total: number) => void;
  /** Stage name for AbortedError. */
  stage?: string;
}

/** Encode texts in batches, checking the abort signal between batches and every vector's dimension. */
export async function encodeTexts(options: EncodeTextsOptions): Promise<Float32Array[]> {
  const { encoder, texts } = options;
  const batchSize = options.batchSize ?? 256;
  const out: Float32Array[] = [];
  for (let start = 0; start < texts.length; start += batchSize) {
    throwIfAborted(options.abortSignal, options.stage ?? 'encode');
    const batch = texts.slice(start, start + batchSize);
    const vectors = await encoder.encode(batch, { abortSignal: options.abortSignal });
    if (vectors.length !== batch.length) {
      throw new DimensionMismatchError({ expected: batch.length, actual: vectors.length, what: 'Encoder output count' });
    }
    for (const vector of vectors) {
      if (vector.length !== encoder.dimension) {
        throw new DimensionMismatchError({ expected: encoder.dimension, actual: vector.length, what: `Vector from encoder ${encoder.id}` });
      }
      out.push(vector);
    }
    options.onBatch?.(out.length, texts.length);
  }
  return out;
}
