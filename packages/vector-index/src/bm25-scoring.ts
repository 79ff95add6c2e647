/** BM25 parameters as wink-bm25-text-search uses them. */
export interface Bm25Parameters {
  k1: number;
  b: number;
}

/**
 * Raw BM25 scores for pre-tokenised documents, with exactly wink-bm25-text-search's formula
 * (idf = ln((N − n + 0.5)/(n + 0.5) + 1), per-term weights rounded to 4 decimals, repeated query
 * terms counted each time). Used for collections smaller than wink's 3-document minimum.
 */
export function bm25Scores(documents: readonly string[][], queryTokens: readonly string[], parameters: Bm25Parameters): Map<number, number> {
  const { k1, b } = parameters;
  const total = documents.length;
  const scores = new Map<number, number>();
  if (total === 0) return scores;
  const frequencies = documents.map((tokens) => {
    const counts = new Map<string, number>();
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    return counts;
  });
  const averageLength = documents.reduce((sum, tokens) => sum + tokens.length, 0) / total;
  for (const token of queryTokens) {
    const containing = frequencies.filter((counts) => counts.has(token)).length;
    if (containing === 0) continue;
    const idf = Math.log((total - containing + 0.5) / (containing + 0.5) + 1);
    frequencies.forEach((counts, label) => {
      const frequency = counts.get(token);
      if (frequency === undefined) return;
      const normalisation = 1 - b + b * (documents[label].length / averageLength);
      const weight = Number((((frequency * (k1 + 1)) / (k1 * normalisation + frequency)) * idf).toFixed(4));
      scores.set(label, (scores.get(label) ?? 0) + weight);
    });
  }
  return scores;
}
