// Tokenisation of docs/METRICS.md: lowercase [a-z0-9] runs, no 1-character tokens, no stop
// words, light suffix stripping. The extractive generator matches questions and sentences
// with it so that what it picks agrees with how retrieval is measured.

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

/** Light stemming: strip the first matching suffix when the word is longer than suffix + 3. */
export function stemToken(token: string): string {
  for (const suffix of SUFFIXES) {
    if (token.endsWith(suffix) && token.length > suffix.length + 3) return token.slice(0, -suffix.length);
  }
  return token;
}

/** Distinct content tokens of a text, in first-occurrence order. */
export function contentTokens(text: string): string[] {
  const out = new Set<string>();
  for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    if (raw.length < 2 || STOP_WORDS.has(raw)) continue;
    out.add(stemToken(raw));
  }
  return [...out];
}
