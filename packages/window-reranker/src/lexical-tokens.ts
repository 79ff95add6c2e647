// Tokens for the query-time BM25 fallback: the same normalisation METRICS.md fixes for the lexical
// proxies (lowercase [a-z0-9] runs, no 1-letter tokens, stop words dropped, light suffix stemming).

const STOP_WORDS = new Set(
  (
    'a an the of to in on for and or but is are was were be been being by with as at from that this these those it its ' +
    'into than then there their they them he she his her him i you your we our us not no do does did done have has had ' +
    'having which who whom whose what when where why how all any both each few more most other some such only own same ' +
    'so too very can will just should would could may might must also about above after again against before below ' +
    'between during through under until up down out off over further once here s t don now one two if while because ' +
    'per via within without upon like'
  ).split(' '),
);

const SUFFIXES = ['ations', 'ation', 'ingly', 'ings', 'ing', 'edly', 'ies', 'ied', 'es', 'ed', 'ly', 's'];

function stem(token: string): string {
  for (const suffix of SUFFIXES) {
    if (token.endsWith(suffix) && token.length > suffix.length + 3) return token.slice(0, -suffix.length);
  }
  return token;
}

/** Content tokens of a text (with repeats, for term frequencies). */
export function lexicalTokens(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[a-z0-9]+/g)) {
    const token = match[0];
    if (token.length < 2 || STOP_WORDS.has(token)) continue;
    out.push(stem(token));
  }
  return out;
}
