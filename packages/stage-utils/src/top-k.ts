/** Above this k, sorting everything is as fast as keeping a sorted top list. */
const INSERTION_LIMIT = 64;

/**
 * The first `k` items in `compare` order: the same items, in the same order, as sorting all of
 * them (a stable sort) and keeping `k` would give, without sorting them all when k is small (the
 * sorted top list of `firstPositions` over the items' positions). `items` may be any iterable; an
 * array of at most `k` items, or k > 64, is simply sorted.
 */
export function firstInOrder<T>(items: Iterable<T>, k: number, compare: (a: T, b: T) => number): T[] {
  if (k <= 0) return [];
  const list = Array.isArray(items) ? (items as T[]) : [...items];
  if (k > INSERTION_LIMIT || k >= list.length) return [...list].sort(compare).slice(0, k);
  return firstPositions(list.length, k, (a, b) => compare(list[a], list[b]) < 0).map((position) => list[position]);
}

/**
 * The first `k` of the positions 0…n−1 that pass `include`, in `before` order (`before(a, b)`: a
 * ranks strictly before b, e.g. "higher score, then lower position"; positions that rank alike keep
 * their order): the same positions, in the same order, as a stable sort of them all would give,
 * without building an item per position. For scores held in typed arrays, where thousands of
 * positions compete for a few places; `firstInOrder` runs on it too.
 */
export function firstPositions(n: number, k: number, before: (a: number, b: number) => boolean, include: (position: number) => boolean = () => true): number[] {
  if (k <= 0) return [];
  if (k > INSERTION_LIMIT) {
    const all: number[] = [];
    for (let i = 0; i < n; i += 1) if (include(i)) all.push(i);
    return all.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0)).slice(0, k);
  }
  const top: number[] = [];
  for (let i = 0; i < n; i += 1) if (include(i)) insertPosition(top, i, k, before);
  return top;
}

/**
 * Inserts `position` into `top` (positions in `before` order, at most `k` of them) where `before`
 * puts it, dropping the last beyond `k`; false, and `top` unchanged, when it does not rank among them.
 */
export function insertPosition(top: number[], position: number, k: number, before: (a: number, b: number) => boolean): boolean {
  if (top.length >= k && !before(position, top[top.length - 1])) return false;
  let low = 0;
  let high = top.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(position, top[middle])) high = middle;
    else low = middle + 1;
  }
  top.splice(low, 0, position);
  if (top.length > k) top.pop();
  return true;
}

/**
 * The `k` best of `count` scored labels (score descending, then label ascending; `labels` distinct):
 * their positions, in that order. The same as `firstPositions` with that order, with a score below
 * the k-th kept so far skipped by one comparison of numbers (a question's terms can score hundreds
 * of thousands of items for a few places).
 */
export function bestScoredPositions(count: number, labels: ArrayLike<number>, scores: ArrayLike<number>, k: number): number[] {
  const before = (p: number, q: number): boolean => {
    const difference = scores[q] - scores[p];
    return difference < 0 || (difference === 0 && labels[p] < labels[q]);
  };
  if (k > INSERTION_LIMIT) return firstPositions(count, k, before);
  const top: number[] = [];
  if (k <= 0) return top;
  // The k-th score kept so far (once k are kept): a lower score cannot be inserted.
  let floor = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < count; i += 1) {
    if (scores[i] < floor) continue;
    if (insertPosition(top, i, k, before) && top.length === k) floor = scores[top[k - 1]];
  }
  return top;
}

/**
 * `bestScoredPositions` of scores held by label: position i scores `byLabel[labels[i]] / scale`
 * (`scale` > 0), for scores kept where a scoring added them (`Bm25Postings.scoreByDocument`), read
 * without a list of them. The same positions in the same order as `bestScoredPositions` over the
 * divided scores; the loop reads them in place, without a call (or a number made) per position. It is
 * `bestScoredPositions`' loop written again on purpose: one loop for both, a flag choosing how a
 * position's score is read, made the top k of the 40 100 MB bench questions take 82–136 ms in all
 * against 61–64 (docs/results/issue-31.md, session 37's review).
 */
export function bestScoredPositionsByLabel(count: number, labels: ArrayLike<number>, byLabel: ArrayLike<number>, scale: number, k: number): number[] {
  const before = (p: number, q: number): boolean => {
    const difference = byLabel[labels[q]] / scale - byLabel[labels[p]] / scale;
    return difference < 0 || (difference === 0 && labels[p] < labels[q]);
  };
  if (k > INSERTION_LIMIT) return firstPositions(count, k, before);
  const top: number[] = [];
  if (k <= 0) return top;
  let floor = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < count; i += 1) {
    if (byLabel[labels[i]] / scale < floor) continue;
    if (insertPosition(top, i, k, before) && top.length === k) floor = byLabel[labels[top[k - 1]]] / scale;
  }
  return top;
}
