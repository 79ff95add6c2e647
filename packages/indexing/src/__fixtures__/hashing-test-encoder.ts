import { createHash } from 'node:crypto';
import type { AbortOptions, Encoder } from '@mosaic/spec';

/**
 * Test-only encoder: a deterministic hashed bag of lower-case words, L2-normalised. Texts
 * sharing words get a positive cosine. Counts calls and texts so tests can assert what was
 * (re-)encoded.
 */
export class HashingTestEncoder implements Encoder {
  readonly specificationVersion = 'v1' as const;
  readonly id: string;
  readonly dimension: number;
  calls = 0;
  readonly encodedTexts: string[] = [];

  constructor(options: { dimension?: number; id?: string } = {}) {
    this.dimension = options.dimension ?? 64;
    this.id = options.id ?? `test:hashing-${this.dimension}`;
  }

  async encode(texts: readonly string[], options?: AbortOptions): Promise<Float32Array[]> {
    if (options?.abortSignal?.aborted) throw new Error('aborted');
    this.calls++;
    this.encodedTexts.push(...texts);
    return texts.map((text) => {
      const vector = new Float32Array(this.dimension);
      for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
        const digest = createHash('md5').update(word).digest();
        vector[digest.readUInt32LE(0) % this.dimension] += digest[4] & 1 ? 1 : -1;
      }
      let norm = 0;
      for (const x of vector) norm += x * x;
      norm = Math.sqrt(norm) || 1;
      for (let i = 0; i < vector.length; i++) vector[i] /= norm;
      return vector;
    });
  }
}
