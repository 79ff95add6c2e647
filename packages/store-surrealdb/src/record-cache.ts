import { InvalidArgumentError } from '@mosaic/spec';
import { WeightedLru } from '@mosaic/stage-utils/internal';

/**
 * A bounded least-recently-used map of records read from the database. Entity and relation
 * records of an index are immutable until the index is written again, so a worker may keep the
 * ones it read last; `maxRecords` bounds its memory (0 turns caching off, Infinity keeps all).
 */
export class RecordCache<T> {
  readonly maxRecords: number;
  readonly #entries: WeightedLru<string, T>;

  constructor(maxRecords: number) {
    if (maxRecords !== Number.POSITIVE_INFINITY && (!Number.isInteger(maxRecords) || maxRecords < 0)) {
      throw new InvalidArgumentError({ argument: 'cacheRecords', message: `must be an integer ≥ 0, got ${String(maxRecords)}` });
    }
    this.maxRecords = maxRecords;
    this.#entries = new WeightedLru({ limit: maxRecords, weigh: () => 1 });
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The record, marked as the most recently used; undefined when absent. */
  peek(id: string): T | undefined {
    return this.#entries.get(id);
  }

  set(id: string, value: T): void {
    // WeightedLru keeps the value just set even past its limit; a cache of 0 keeps nothing.
    if (this.maxRecords === 0) return;
    this.#entries.set(id, value);
  }

  clear(): void {
    this.#entries.clear();
  }
}

/**
 * Caches looked up in order — e.g. one retrieval's own, then the worker's shared one — where a
 * record read from the database is put into every layer. Counts its own hits and misses.
 */
export class CacheLayers<T> {
  readonly layers: readonly RecordCache<T>[];
  #hits = 0;
  #misses = 0;

  constructor(layers: readonly RecordCache<T>[]) {
    this.layers = layers;
  }

  get stats(): { hits: number; misses: number; size: number } {
    return { hits: this.#hits, misses: this.#misses, size: this.layers[this.layers.length - 1]?.size ?? 0 };
  }

  get(id: string): T | undefined {
    for (const layer of this.layers) {
      const value = layer.peek(id);
      if (value !== undefined) {
        this.#hits += 1;
        return value;
      }
    }
    this.#misses += 1;
    return undefined;
  }

  set(id: string, value: T): void {
    for (const layer of this.layers) layer.set(id, value);
  }

  clear(): void {
    for (const layer of this.layers) layer.clear();
  }
}
