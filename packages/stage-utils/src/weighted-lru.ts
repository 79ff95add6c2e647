/**
 * Values by key, least recently used dropped first once their summed weight passes `limit`; the
 * value just set is kept even when it alone passes it. CompactGraphStore's neighbour-list and
 * hub-node caches (@mosaic/graph) and store-surrealdb's record caches (weight 1 a record).
 */
export class WeightedLru<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #limit: number;
  readonly #weigh: (value: V) => number;
  #weight = 0;

  constructor(options: { limit: number; weigh: (value: V) => number }) {
    this.#limit = options.limit;
    this.#weigh = options.weigh;
  }

  /** Values held. */
  get size(): number {
    return this.#entries.size;
  }

  /** Their summed weight. */
  get weight(): number {
    return this.#weight;
  }

  /** The value of `key`, now the most recently used; undefined when it is not held. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  /** Holds `value` as the most recently used, then drops the least recently used (never `key`) until the weight is within the limit. */
  set(key: K, value: V): void {
    const previous = this.#entries.get(key);
    if (previous !== undefined) {
      this.#entries.delete(key);
      this.#weight -= this.#weigh(previous);
    }
    this.#entries.set(key, value);
    this.#weight += this.#weigh(value);
    for (const [oldest, evicted] of this.#entries) {
      if (this.#weight <= this.#limit || oldest === key) break;
      this.#entries.delete(oldest);
      this.#weight -= this.#weigh(evicted);
    }
  }

  /** Drops every value. */
  clear(): void {
    this.#entries.clear();
    this.#weight = 0;
  }
}
