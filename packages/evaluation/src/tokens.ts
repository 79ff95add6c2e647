/** Stop words of METRICS.md, verbatim. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a an the of to in on for and or but is are was were be been being by with
as at from that this these those it its into than then there their they them he she
his her him i you your we our us not no do does did done have has had having which who
whom whose what when where why how all any both each few more most other some such only
own same so too very can will just should would could may might must also about above
after again against before below between during through under until up down out off
over further once here s t don now one two if while because per via within without
upon like`
    .split(/\s+/)
    .filter(Boolean),
);

/** Suffixes of METRICS.md, in the order they are tried. */
const SUFFIXES = ['ations', 'ation', 'ingly', 'ings', 'ing', 'edly', 'ies', 'ied', 'es', 'ed', 'ly', 's'] as const;

/** Light stemming: strip the first matching suffix when the word is longer than the suffix plus 3. */
export function stem(word: string): string {
  for (const suffix of SUFFIXES) {
    if (word.endsWith(suffix) && word.length > suffix.length + 3) return word.slice(0, -suffix.length);
  }
  return word;
}

/** Content tokens as a set: lowercase `[a-z0-9]+` runs, no 1-char tokens, no stop words, stemmed. */
export function contentTokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/[a-z0-9]+/g)) {
    const token = match[0];
    if (token.length < 2 || STOP_WORDS.has(token)) continue;
    out.add(stem(token));
  }
  return out;
}

/** Evidence statements: split on `; ` or newlines (or a list), keeping those with ≥ 2 content tokens. */
export function evidenceStatements(evidence: string | readonly string[] | undefined | null): string[] {
  if (evidence == null) return [];
  const parts = typeof evidence === 'string' ? evidence.split(/; |\n/) : evidence.flatMap((e) => String(e).split(/; |\n/));
  return parts.map((s) => s.trim()).filter((s) => contentTokens(s).size >= 2);
}
