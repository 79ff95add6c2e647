import {
  CHUNK_BREAK_VERBS,
  COMPARISON_PATTERNS,
  DIRECT_PATTERNS,
  FACET_CUES,
  GENERIC_HEADS,
  GENERIC_MODIFIERS,
  IDENTITY_PATTERNS,
  LIST_PATTERNS,
  LOWERCASE_ROLE_NOUNS,
  ROLE_NOUNS,
  MEDIATION_PATTERNS,
  STOP_WORDS,
  SUBTYPE_PATTERNS,
  TASK_PATTERNS,
} from './surface-lexicon.js';

/** One cue that fired, with the text that made it fire. */
export interface SurfaceCue {
  cue: string;
  match: string;
}

/** The question-shape signals behind the six considerations. Each lists the cues that fired. */
export interface SurfaceSignals {
  /** Several things set against each other (compare, difference, both, X vs Y). */
  comparison: SurfaceCue[];
  /** Causal or mediated chains (how does X affect Y, why, lead to, relationship between). */
  mediation: SurfaceCue[];
  /** Several items asked for (what are, list, plural heads, types). */
  list: SurfaceCue[];
  /** A summary or writing task (role-play, write/draft/rewrite, overview). */
  task: SurfaceCue[];
  /** A direct single-fact or definitional shape (what is X, who/when, yes/no). */
  direct: SurfaceCue[];
  /** An exact subtype, stage, code or quoted term. */
  subtype: SurfaceCue[];
  /** Proper names or identifiers whose exact identity matters. */
  identity: SurfaceCue[];
  /** Targets joined by and/or/versus (coordinated, to be seeded separately). */
  coordination: SurfaceCue[];
}

/** What the question's surface says, before any policy is chosen. */
export interface SurfaceAnalysis {
  /** The question, whitespace-collapsed. */
  text: string;
  wordCount: number;
  /** Content keywords in question order, lowercase, deduplicated. */
  keywords: string[];
  /** Noun phrases naming what the question is about (question words, stop words and facet words removed). */
  targets: string[];
  /** Aliases given in parentheses right after a target ("basal cell carcinoma (BCC)"), keyed by target. */
  aliases: Record<string, string[]>;
  /** Aspects asked about, in question order (symptoms, causes, treatment, risk, diagnosis, …). */
  facets: string[];
  signals: SurfaceSignals;
}

interface Token {
  /** Original surface form. */
  text: string;
  lower: string;
  start: number;
  end: number;
  /** Punctuation (, ; : ( ) ? ! . quotes) between the previous token and this one. */
  gapBefore: string;
  /** Depth of parentheses at this token. */
  paren: number;
  /** First token of a sentence. */
  sentenceStart: boolean;
}

/** A word: letters and digits, joined by an apostrophe, "::", "_" runs or one of - / . : + ("pg_dump", "subprocess.run", "Foo::Bar"). */
const TOKEN = /[\p{L}\p{N}]+(?:(?:['’]|::|_+|[-/.:+])[\p{L}\p{N}]+)*/gu;
const MAX_INPUT = 4000;

/** Split into word tokens, recording the punctuation between them. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let last = 0;
  let paren = 0;
  let sentenceStart = true;
  for (const m of text.matchAll(TOKEN)) {
    const start = m.index ?? 0;
    const gap = text.slice(last, start);
    for (const ch of gap) {
      if (ch === '(' || ch === '[') paren++;
      else if ((ch === ')' || ch === ']') && paren > 0) paren--;
    }
    if (/[.?!:;]/.test(gap) && tokens.length > 0) sentenceStart = true;
    const word = m[0];
    tokens.push({
      text: word,
      lower: word.toLowerCase(),
      start,
      end: start + word.length,
      gapBefore: gap.replace(/\s+/g, ''),
      paren,
      sentenceStart,
    });
    sentenceStart = false;
    last = start + word.length;
  }
  return tokens;
}

/** Stop words and break verbs end a chunk; an all-caps stop word ("ALL", "IT") is an acronym, not a stop word. */
function isStop(token: Token): boolean {
  if (token.text.length >= 2 && /^\p{Lu}+$/u.test(token.text)) return false;
  return STOP_WORDS.has(token.lower) || CHUNK_BREAK_VERBS.has(token.lower) || AGE_OR_MEASURE.test(token.lower);
}

/** All facet cues folded into one anchored regex with one capture group per cue (one test per word). */
const FACET_REGEX = new RegExp(`^(?:${FACET_CUES.map(([pattern]) => `(${pattern.source.replace(/^\^|\$$/g, '')})`).join('|')})$`);
const FACET_GROUP_INDEX = (() => {
  // Capture-group number of each cue's outer group (cue sources contain groups of their own).
  const starts: number[] = [];
  let group = 1;
  for (const [pattern] of FACET_CUES) {
    starts.push(group);
    group += 1 + new RegExp(`${pattern.source}|`).exec('')!.length - 1;
  }
  return starts;
})();

export function facetOf(lower: string): string | undefined {
  const m = FACET_REGEX.exec(lower);
  if (!m) return undefined;
  for (let i = 0; i < FACET_CUES.length; i++) if (m[FACET_GROUP_INDEX[i]!] !== undefined) return FACET_CUES[i]![1];
  return undefined;
}

function collect(patterns: ReadonlyArray<readonly [RegExp, string]>, text: string): SurfaceCue[] {
  const cues: SurfaceCue[] = [];
  for (const [pattern, cue] of patterns) {
    const m = pattern.exec(text);
    if (m) cues.push({ cue, match: m[0].trim().slice(0, 60) });
  }
  return cues;
}

const isTitleCase = (w: string) => /^\p{Lu}[\p{Ll}'’]+/u.test(w) && !/^\p{Lu}+$/u.test(w);
const isAcronym = (w: string) => /^\p{Lu}[\p{Lu}\d]{1,7}$/u.test(w);
const AGE_OR_MEASURE = /^\d+(-year-old|-years?|-month-old|-pack-year|%)?$|^\d+(\.\d+)?(cm|mm|mg|kg|ml|g)$/i;
const NAME_CONNECTORS = new Set(['of', 'de', 'van', 'von', 'la', 'le', 'du', 'da', 'del', 'st', 'st.', 'the']);

/** Proper names (Title-case runs not at sentence start) and identifiers (letters + digits). */
function identityCues(tokens: Token[]): SurfaceCue[] {
  const cues: SurfaceCue[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.sentenceStart || !isTitleCase(t.text)) continue;
    let j = i + 1;
    while (
      j < tokens.length &&
      !tokens[j]!.gapBefore &&
      (isTitleCase(tokens[j]!.text) || (NAME_CONNECTORS.has(tokens[j]!.lower) && j + 1 < tokens.length && isTitleCase(tokens[j + 1]!.text)))
    )
      j++;
    const name = tokens
      .slice(i, j)
      .map((x) => x.text)
      .join(' ');
    cues.push({ cue: j - i >= 2 ? 'capitalised name' : 'proper noun', match: name });
    i = j - 1;
  }
  for (const t of tokens) {
    if (/\d/.test(t.text) && /\p{L}/u.test(t.text) && !AGE_OR_MEASURE.test(t.text)) cues.push({ cue: 'identifier', match: t.text });
  }
  for (const [pattern, cue] of IDENTITY_PATTERNS) {
    if (cue === 'capitalised name' || cue === 'identifier with digits') continue;
    const m = pattern.exec(tokens.map((x) => x.text).join(' '));
    if (m) cues.push({ cue, match: m[0] });
  }
  return cues.slice(0, 8);
}

interface Chunk {
  tokens: Token[];
  /** Chunk lies inside parentheses. */
  parenthetical: boolean;
  /** First chunk of a parenthesis group right after another chunk ("… carcinoma (BCC)"): an alias. */
  opensParen: boolean;
  /** Joined to the previous chunk by and/or/versus/comma only. */
  coordinated: boolean;
}

/** Maximal runs of non-stop tokens, split at punctuation and parentheses. */
function chunk(tokens: Token[]): Chunk[] {
  const chunks: Chunk[] = [];
  let current: Token[] = [];
  let between: string[] = [];
  let previousParen = 0;
  const flush = () => {
    if (current.length === 0) return;
    const first = current[0]!;
    const parenthetical = first.paren > 0 && chunks.length > 0;
    const opensParen = first.paren > previousParen && chunks.length > 0;
    const coordinated = chunks.length > 0 && between.length > 0 && between.length <= 3 && between.every((w) => /^(and|or|versus|vs|,)$/.test(w));
    chunks.push({ tokens: current, parenthetical, opensParen, coordinated });
    previousParen = current[current.length - 1]!.paren;
    between = [];
    current = [];
  };
  for (const t of tokens) {
    if (t.gapBefore) {
      flush();
      if (t.gapBefore.includes(',')) between.push(',');
      if (/[.?!;:]/.test(t.gapBefore)) between.push('.');
    }
    if (t.paren !== (current[current.length - 1]?.paren ?? t.paren)) flush();
    if (isStop(t)) {
      flush();
      between.push(t.lower);
      continue;
    }
    current.push(t);
  }
  flush();
  return chunks;
}

const ADJECTIVE_SUFFIX = /(al|ic|ous|ive|ed|ing|ar|ent|ant|ary|ile|ful|less|able|ible|er|est)$/;
const LONE_ADJECTIVE_SUFFIX = /(al|ic|ous|ive|ed|ent|ant|ary|ile|ful|less|able|ible|est)$/;
const PLAIN_ADJECTIVES = new Set([
  'flat',
  'pale',
  'large',
  'small',
  'early',
  'late',
  'high',
  'low',
  'new',
  'old',
  'young',
  'red',
  'yellow',
  'brown',
  'black',
  'white',
  'poor',
  'good',
  'mild',
  'severe',
  'acute',
  'chronic',
  'benign',
  'malignant',
  'primary',
  'secondary',
]);

/** A chunk that can stand alone as a coordinated target: several words, an acronym, a name, or a noun-looking word. */
function nounLike(c: Chunk): boolean {
  if (c.tokens.length >= 2) return true;
  const word = c.tokens[0]!.text;
  if (isAcronym(word) || /\d/.test(word) || (isTitleCase(word) && !c.tokens[0]!.sentenceStart)) return true;
  const lower = word.toLowerCase();
  return !PLAIN_ADJECTIVES.has(lower) && !ADJECTIVE_SUFFIX.test(lower);
}

interface ChunkReading {
  target?: string;
  facets: string[];
}

/** Strip generic modifiers and heads; what remains (if anything) is a target. */
function readChunk(c: Chunk): ChunkReading {
  const facets: string[] = [];
  let words = c.tokens.map((t) => t.text);
  for (const w of words) {
    const f = facetOf(w.toLowerCase());
    if (f) facets.push(f);
  }
  // "a hematology fellow", "a referral letter": the role or document of a writing task, not a target.
  const last = words[words.length - 1]!;
  if (ROLE_NOUNS.has(last.toLowerCase()) || LOWERCASE_ROLE_NOUNS.has(last)) return { facets };
  while (words.length > 0 && GENERIC_MODIFIERS.has(words[0]!.toLowerCase())) words = words.slice(1);
  while (words.length > 0 && (GENERIC_HEADS.has(words[words.length - 1]!.toLowerCase()) || facetOf(words[words.length - 1]!.toLowerCase()))) {
    words = words.slice(0, -1);
  }
  while (words.length > 0 && GENERIC_MODIFIERS.has(words[words.length - 1]!.toLowerCase())) words = words.slice(0, -1);
  // A lone generic word or facet word ("diagnostic", "anatomical") is not a target.
  if (words.length === 1 && (facetOf(words[0]!.toLowerCase()) || GENERIC_HEADS.has(words[0]!.toLowerCase()))) words = [];
  if (words.length === 1 && /^\d+$/.test(words[0]!)) words = [];
  // A lone lowercase adjective ("primary", "systemic", "metastatic") names no target by itself.
  if (words.length === 1 && /^\p{Ll}/u.test(words[0]!)) {
    const lone = words[0]!.toLowerCase();
    if (GENERIC_MODIFIERS.has(lone) || PLAIN_ADJECTIVES.has(lone) || LONE_ADJECTIVE_SUFFIX.test(lone)) words = [];
  }
  return { target: words.length > 0 ? words.join(' ') : undefined, facets };
}

const LEADING_CONTEXT =
  /^(in|within|according to|during|based on|from|throughout|after|before|at|on|regarding|considering|given|as (described|depicted|recounted|mentioned|noted) in)\b[^,?]{3,160},\s*/i;

/** The question without a leading context clause ending in a comma, when the rest still reads as a question. */
function withoutLeadingContext(text: string): string {
  const m = LEADING_CONTEXT.exec(text);
  if (!m) return text;
  const rest = text.slice(m[0].length);
  return /^(what|which|who|whom|whose|when|where|why|how|is|are|does|do|did|can|was|were|list|name)\b/i.test(rest) ? rest : text;
}

/** Content keywords of a question, lowercase, deduplicated, in question order (stop words and question words removed). */
export function extractKeywords(question: string): string[] {
  const text = String(question).slice(0, MAX_INPUT);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const lower = m[0].toLowerCase();
    const acronym = m[0].length >= 2 && /^\p{Lu}+$/u.test(m[0]);
    if ((STOP_WORDS.has(lower) && !acronym) || seen.has(lower)) continue;
    if (lower.length < 2 && !/\d/.test(lower)) continue;
    seen.add(lower);
    out.push(lower);
  }
  return out;
}

/**
 * Read a question's surface: targets (noun phrases), facets, keywords and the shape signals behind the
 * analyzer's six considerations. Deterministic, dependency-free, well under a millisecond.
 */
export function analyzeSurface(question: string): SurfaceAnalysis {
  const text = String(question).replace(/\s+/g, ' ').trim().slice(0, MAX_INPUT);
  const tokens = tokenize(text);
  const chunks = chunk(tokens);

  const targets: string[] = [];
  const aliases: Record<string, string[]> = {};
  const facets: string[] = [];
  const coordination: SurfaceCue[] = [];
  const seenTargets = new Set<string>();
  let lastTarget: string | undefined;
  let lastWasTarget = false;
  let previousChunk: Chunk | undefined;
  for (const c of chunks) {
    const reading = readChunk(c);
    const before = previousChunk;
    previousChunk = c;
    for (const f of reading.facets) if (!facets.includes(f)) facets.push(f);
    if (!reading.target) {
      lastWasTarget = false;
      continue;
    }
    const key = reading.target.toLowerCase();
    if (c.parenthetical) {
      // The first chunk of a parenthesis right after a target is its alias; the rest of the aside is skipped.
      if (c.opensParen && lastTarget && lastWasTarget) (aliases[lastTarget] ??= []).push(reading.target);
      continue;
    }
    if (c.coordinated && lastWasTarget && lastTarget && !seenTargets.has(key) && before !== undefined && nounLike(before) && nounLike(c)) {
      coordination.push({ cue: 'X and Y', match: `${lastTarget} / ${reading.target}`.slice(0, 60) });
    }
    if (seenTargets.has(key) || Object.values(aliases).some((list) => list.some((a) => a.toLowerCase() === key))) {
      lastWasTarget = true;
      continue;
    }
    seenTargets.add(key);
    targets.push(reading.target);
    lastTarget = reading.target;
    lastWasTarget = true;
  }

  // Start-anchored shapes are read after a leading context clause ("In the narrative's account of X, who …").
  const core = withoutLeadingContext(text);
  const signals: SurfaceSignals = {
    comparison: collect(COMPARISON_PATTERNS, text),
    mediation: collect(MEDIATION_PATTERNS, text),
    list: collect(LIST_PATTERNS, core),
    task: collect(TASK_PATTERNS, text),
    direct: collect(DIRECT_PATTERNS, core),
    subtype: collect(SUBTYPE_PATTERNS, text),
    identity: [
      ...identityCues(tokens),
      ...Object.entries(aliases)
        .filter(([, list]) => list.some((alias) => /^[\p{L}\d:-]{2,12}$/u.test(alias) && /\p{Lu}.*\p{Lu}/u.test(alias)))
        .map(([target, list]) => ({ cue: 'defined abbreviation', match: `${target} (${list.join(', ')})`.slice(0, 60) })),
    ],
    coordination,
  };
  return {
    text,
    wordCount: tokens.length,
    keywords: extractKeywords(text),
    targets,
    aliases,
    facets,
    signals,
  };
}
