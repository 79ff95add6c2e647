/**
 * Entity names and aliases → entity label (its position in the index's `entityIds`), as typed arrays:
 * an open-addressing hash table keyed by two 32-bit hashes of the normalised name. A corpus of
 * 100 MB of text names half a million entities (and as many aliases again); a `Map` of their
 * normalised names kept a million strings and entries on the JavaScript heap, which every later
 * garbage collection of a long-running process then marks. This table holds three numbers per slot
 * outside it, and no string.
 *
 * The table keeps no name, so two names whose two hashes both agree (about one pair in 10⁷ for a
 * million names) share a slot: the first keeps it. `find` returns a label whose own names must be
 * checked against the key (the caller does), so a lookup never answers with the wrong entity.
 */
export class NameTable {
  #labels: Int32Array;
  #first: Uint32Array;
  #second: Uint32Array;
  #size = 0;

  constructor(expected = 1024) {
    const slots = slotsFor(expected);
    this.#labels = new Int32Array(slots).fill(-1);
    this.#first = new Uint32Array(slots);
    this.#second = new Uint32Array(slots);
  }

  /** Names held. */
  get size(): number {
    return this.#size;
  }

  /** Slots of the table (a power of two, at least twice the names held). */
  get slots(): number {
    return this.#labels.length;
  }

  /** Adds `key` (a normalised, non-empty name) for `label` unless a name with the same hashes is held: the first one added stays. */
  add(key: string, label: number): void {
    if (2 * (this.#size + 1) > this.#labels.length) this.#grow();
    hashInto(key);
    const [first, second] = HASHES;
    const mask = this.#labels.length - 1;
    for (let slot = first & mask; ; slot = (slot + 1) & mask) {
      if (this.#labels[slot] < 0) {
        this.#labels[slot] = label;
        this.#first[slot] = first;
        this.#second[slot] = second;
        this.#size += 1;
        return;
      }
      if (this.#first[slot] === first && this.#second[slot] === second) return;
    }
  }

  /** The label added for `key`, or −1; the caller checks that the entity has a name normalised to `key`. */
  find(key: string): number {
    hashInto(key);
    const [first, second] = HASHES;
    const mask = this.#labels.length - 1;
    for (let slot = first & mask; ; slot = (slot + 1) & mask) {
      const label = this.#labels[slot];
      if (label < 0) return -1;
      if (this.#first[slot] === first && this.#second[slot] === second) return label;
    }
  }

  #grow(): void {
    const labels = this.#labels;
    const first = this.#first;
    const second = this.#second;
    this.#labels = new Int32Array(labels.length * 2).fill(-1);
    this.#first = new Uint32Array(labels.length * 2);
    this.#second = new Uint32Array(labels.length * 2);
    const mask = this.#labels.length - 1;
    for (let old = 0; old < labels.length; old += 1) {
      if (labels[old] < 0) continue;
      let slot = first[old] & mask;
      while (this.#labels[slot] >= 0) slot = (slot + 1) & mask;
      this.#labels[slot] = labels[old];
      this.#first[slot] = first[old];
      this.#second[slot] = second[old];
    }
  }
}

/** A power of two of at least twice `expected` slots (and at least 16). */
function slotsFor(expected: number): number {
  let slots = 16;
  while (slots < 2 * expected) slots *= 2;
  return slots;
}

/** Where `hashInto` writes a key's two hashes (read at once, before the next key). */
const HASHES = new Uint32Array(2);

/** Two independent 32-bit hashes of a string's UTF-16 code units (FNV-1a, and a multiply-xorshift one with another seed), into `HASHES`. */
function hashInto(key: string): void {
  let first = 0x811c9dc5;
  let second = 0x9e3779b9;
  for (let i = 0; i < key.length; i += 1) {
    const unit = key.charCodeAt(i);
    first = Math.imul(first ^ unit, 0x01000193);
    second = Math.imul(second ^ unit, 0x5bd1e995);
    second ^= second >>> 15;
  }
  // Final mixing, so that nearby keys spread over the slots (the slot is the low bits of `first`).
  first ^= first >>> 16;
  first = Math.imul(first, 0x85ebca6b);
  first ^= first >>> 13;
  second ^= second >>> 16;
  second = Math.imul(second, 0xc2b2ae35);
  second ^= second >>> 16;
  HASHES[0] = first;
  HASHES[1] = second;
}
