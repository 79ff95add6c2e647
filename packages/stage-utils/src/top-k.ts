/** Above this k, sorting everything is as fast as keeping a sorted top list. */
const INSERTION_LIMIT = 64;

/**
 * The first `k` items in `compare` order: the same items, in the same order, as sorting all of
 * them (a stable sort) and keeping `k` would give, without sorting them all when k is small (a
 * sorted top list with binary insertion). `items` may be any iterable, e.g. a generator that
 * builds items lazily; an array of at most `k` items, or k > 64, is simply sorted.
 */
export function firstInOrder<T>(items: Iterable<T>, k: number, compare: (a: T, b: T) => number): T[] {
  if (k <= 0) return [];
  if (k > INSERTION_LIMIT || (Array.isArray(items) && k >= items.length)) return [...items].sort(compare).slice(0, k);
  const top: T[] = [];
  for (const item of items) {
    if (top.length >= k && compare(item, top[top.length - 1]) >= 0) continue;
    let low = 0;
    let high = top.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(top[middle], item) <= 0) low = middle + 1;
      else high = middle;
    }
    top.splice(low, 0, item);
    if (top.length > k) top.pop();
  }
  return top;
}

/**
 * The first `k` of the positions 0…n−1 that pass `include`, in `before` order (`before(a, b)`: a
 * ranks strictly before b, a strict total order such as "higher score, then lower position"): the
 * same positions, in the same order, as sorting them all would give, without building an item per
 * position. For scores held in typed arrays, where thousands of positions compete for a few places.
 */
export function firstPositions(n: number, k: number, before: (a: number, b: number) => boolean, include: (position: number) => boolean = () => true): number[] {
  if (k <= 0) return [];
  if (k > INSERTION_LIMIT) {
    const all: number[] = [];
    for (let i = 0; i < n; i += 1) if (include(i)) all.push(i);
    return all.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0)).slice(0, k);
  }
  const top: number[] = [];
  for (let i = 0; i < n; i += 1) {
    if (!include(i)) continue;
    if (top.length >= k && !before(i, top[top.length - 1])) continue;
    let low = 0;
    let high = top.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (before(i, top[middle])) high = middle;
      else low = middle + 1;
    }
    top.splice(low, 0, i);
    if (top.length > k) top.pop();
  }
  return top;
}
