import type { AbortOptions, Encoder } from '@mosaic/spec';
import { createHashingEncoder } from '@mosaic/testing';

/**
 * The hashing encoder of @mosaic/testing (`createHashingEncoder`, 64 dimensions by default here) that
 * counts calls and texts, so tests can assert what was (re-)encoded.
 */
export class HashingTestEncoder implements Encoder {
  readonly specificationVersion = 'v1' as const;
  readonly id: string;
  readonly dimension: number;
  calls = 0;
  readonly encodedTexts: string[] = [];
  private readonly hashing: Encoder;

  constructor(options: { dimension?: number; id?: string } = {}) {
    this.dimension = options.dimension ?? 64;
    this.id = options.id ?? `test:hashing-${this.dimension}`;
    this.hashing = createHashingEncoder({ dimension: this.dimension });
  }

  async encode(texts: readonly string[], options?: AbortOptions): Promise<Float32Array[]> {
    if (options?.abortSignal?.aborted) throw new Error('aborted');
    this.calls++;
    this.encodedTexts.push(...texts);
    return this.hashing.encode(texts, options);
  }
}
