import type { AbstentionReason, CorpusIndex, RankedWindow } from '@mosaic/spec';
import { metricTokenSet, metricTokenWords, wordsAsWritten, writtenApartIn } from '@mosaic/stage-utils';
import { corpusWordCount, rarity } from '@mosaic/window-reranker/internal';

/**
 * Share of the question's weight that the top windows of one document must hold together for an answer
 * (below it: 'weak-match'). The weight of a question word is its rarity in the corpus, ln(1 + N / (df + 1))
 * over the N windows; a word the corpus never uses weighs nothing (no passage can hold it). Set on the
 * answers yardstick (bench/answers, licence texts) when coverage was one window's and an unknown word
 * weighed as the corpus's rarest: the answerable questions' best windows held 0.44–1.00 of their
 * question, the other-domain and other-language questions' 0.00–0.33; 0.4 lies between
 * (docs/results/issue-29.md; kept since, measured on four yardsticks, "Later"). Tune it for your corpus
 * with `minSupport`.
 */
export const MIN_SUPPORT = 0.4;

/** Top windows whose coverage of the question (each document's together) decides support. */
export const SUPPORT_WINDOWS = 5;

/** Whether the corpus supports an answer to the question, and why not. */
export interface Support {
  /** True when no answer should be given (`reason` says why). */
  abstain: boolean;
  reason?: AbstentionReason;
  /** One plain sentence for a person: what was (not) found. */
  explanation: string;
  /**
   * The question's content words (METRICS.md tokens; two adjacent words that the corpus writes only as
   * one, "roll back" for "rollback", count as that word), and those the corpus does not use at all.
   */
  questionTokens: string[];
  unknownTokens: string[];
  /** Weight of each question token: its rarity in the corpus, 0 for a word the corpus never uses. */
  weights: Record<string, number>;
  /**
   * The best share of the question's weight that the top windows (the first `SUPPORT_WINDOWS`) of one
   * document hold together, in [0, 1]: an answer quotes one document's passages.
   */
  coverage: number;
  /** That document, and the id of its first window among the top windows. */
  bestDocument?: string;
  bestWindow?: string;
  /** Plain-language warnings (e.g. letters of a script the encoder cannot read). */
  warnings: string[];
}

/**
 * Words of how people ask that METRICS.md's stop words miss; they say nothing about the subject: the
 * asker ("tell me"), and how the question points at the text ("what does the manual say about",
 * "as described in the narrative", "according to"). The corpus may hold them (a novel has "narrative",
 * a manual "described") without its answering passage doing so; weighed, they made GraphRAG-Bench's
 * Novel questions look unanswered (docs/results/issue-29.md, session 31). Kept out: words that are
 * often a subject in documentation ("text", "manual", "account", "context", "description").
 */
const QUESTION_FILLER: ReadonlySet<string> = new Set([
  ...['me', 'my', 'mine', 'myself', 'yourself', 'ourselve', 'please', 'tell', 'let', 'im', 'ive'],
  ...[
    ...['narrative', 'narratives', 'according', 'say', 'says', 'said', 'saying'],
    ...['describe', 'described', 'describes', 'describing', 'depict', 'depicted', 'depicts', 'depiction'],
    ...['portray', 'portrayed', 'portrays', 'portrayal', 'mention', 'mentioned', 'mentions', 'recounted'],
  ].flatMap((word) => [...metricTokenSet(word)]),
]);

const NON_LATIN_LETTER = /(?![\p{Script=Latin}])\p{L}/u;
const LATIN_LETTER = /\p{Script=Latin}/u;

/** A word of a question, with the characters that join parts of one (Node.js, BSD-licensed, l'Australie). */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’._-]*/gu;
/** What joins the parts of a word. */
const JOINER = /['’._-]+/u;
/** What may come before a sentence's (or a bracket's, or a quotation's) first word, spaces aside. */
const OPENING = /[.!?:;([{"“‘]/;

/**
 * The words of `question` written as names: each part of a word (parts joined by `-`, `.`, `_` or an
 * apostrophe) with a capital letter and not only capitals (an acronym such as BSD or RDS is often spelled
 * out by the text that answers), in a word that is not the first of the question, of a sentence or of a
 * bracket or quotation (any word can be capitalised there). "How do I deploy my app to Kubernetes?" →
 * Kubernetes; "Can pgBackRest use Node.js?" → pgBackRest, Node; "BSD-licensed software" → none.
 */
export function namesIn(question: string): string[] {
  const names: string[] = [];
  for (const match of question.matchAll(WORD)) {
    let before = match.index - 1;
    while (before >= 0 && /\s/.test(question[before] as string)) before -= 1;
    if (before < 0 || OPENING.test(question[before] as string)) continue;
    for (const part of match[0].split(JOINER)) {
      const letters = part.replace(/[^\p{L}]/gu, '');
      if (/\p{Lu}/u.test(letters) && letters !== letters.toUpperCase()) names.push(part);
    }
  }
  return names;
}

/** Endings of a people's or a language's name made from a place's (Assyria → Assyrian, Japan → Japanese, Israel → Israeli). */
const PEOPLE_ENDINGS = ['n', 'an', 'ian', 'ese', 'i'];
/** Endings of a place's name left when a people's ending is taken off (Moroccan → Morocc → Morocco, Italian → Ital → Italy). */
const PLACE_ENDINGS = ['', 'a', 'o', 'e', 'y', 'ia'];

/**
 * Other forms of `name` that mention what it names: the place and its people or language, either way
 * (Assyria and Assyrian, Morocco and Moroccan, America and American, Paris and Parisian, China and
 * Chinese). A question about "Silesia" is about a corpus that says "Silesian". Lowercase; the name
 * itself not included; none for a name of fewer than four letters.
 */
export function nameForms(name: string): string[] {
  const word = name.toLowerCase();
  if (!/^\p{L}{4,}$/u.test(word)) return [];
  const forms = new Set<string>();
  for (const ending of PEOPLE_ENDINGS) {
    forms.add(word + ending);
    // A place ending in a vowel drops it: Italy → Italian, China → Chinese, Rome → Roman.
    if (/[aeiouy]$/.test(word)) forms.add(word.slice(0, -1) + ending);
    if (word.endsWith(ending) && word.length - ending.length >= 4) {
      const stem = word.slice(0, word.length - ending.length);
      for (const place of PLACE_ENDINGS) forms.add(stem + place);
    }
  }
  forms.delete(word);
  return [...forms];
}

/**
 * Judges whether the retrieved windows support an answer. The question must have content words (not
 * only stop words, letters or symbols: `a`, `?`, emoji), be written in Latin letters (the embedded
 * encoder and the lexical index read English; a question in another script gets 'unreadable-script'),
 * use words the corpus holds, most of them at least ('no-match'), name nothing the corpus never
 * mentions ('unknown-name': a capitalised word of the question, `namesIn`, that no window of the corpus
 * holds, as "Kubernetes" in a question to the Python documentation), and the top windows of one document
 * must hold at least `minSupport` of the question's weight ('weak-match'), a word the corpus never uses
 * weighing nothing. Document frequencies come from the index's lexical window index when it has one
 * (one search per question word), else from the windows themselves. Two adjacent words of the question
 * that the corpus writes only as one word are judged as that word (`joinSplitWords`):
 * "How do I roll back a release?" over a corpus that says "rollback" and never "roll"; a word of the
 * question that the corpus never uses, and that a window found writes as two words, is judged as those
 * two (`splitJoinedWords`): "Can I do a rollback?" over windows that say "roll back".
 */
export function judgeSupport(options: {
  question: string;
  windows: readonly RankedWindow[];
  index: Pick<CorpusIndex, 'lexical' | 'windowIds'>;
  minSupport?: number;
  /**
   * How many of the corpus's windows hold a word, asked with the word as written (default: the index's
   * lexical window index, when it has one): a counter shared with another stage that weighs the same
   * words for the question (`corpusWordCount` of @mosaic/window-reranker/internal).
   */
  wordCount?: (word: string) => number;
}): Support {
  const { question, windows, index } = options;
  const minSupport = options.minSupport ?? MIN_SUPPORT;
  const questionTokens = [...metricTokenSet(question)].filter((token) => !QUESTION_FILLER.has(token));
  const warnings: string[] = [];
  const nonLatin = NON_LATIN_LETTER.test(question);
  const base = { questionTokens, unknownTokens: [] as string[], weights: {} as Record<string, number>, coverage: 0, warnings };
  if (nonLatin) {
    warnings.push(
      LATIN_LETTER.test(question)
        ? 'Part of the question is in a script the encoder cannot read (it reads English); only its Latin-letter words were searched.'
        : 'The question is in a script the encoder cannot read (it reads English); nothing it says could be searched.',
    );
  }
  if (questionTokens.length === 0) {
    // Letters of another script, or symbols beyond ASCII (emoji): the encoder cannot read them.
    const reason: AbstentionReason = nonLatin || (!LATIN_LETTER.test(question) && /[^\p{ASCII}]/u.test(question)) ? 'unreadable-script' : 'no-content-words';
    const explanation =
      reason === 'unreadable-script'
        ? 'the question has no words in Latin letters, and the encoder reads English only'
        : 'the question has no word to search for (only short or common words)';
    return { ...base, abstain: true, reason, explanation };
  }
  if (windows.length === 0) return { ...base, abstain: true, reason: 'no-windows', explanation: 'nothing was retrieved' };

  const n = Math.max(1, index.windowIds.length);
  const wordCount = options.wordCount ?? corpusWordCount(index);
  const windowSets = windows.map((window) => metricTokenSet(window.text));
  // The lexical index has its own tokenizer (stemmer, stop words): it is asked with the question's own word.
  // Kept per word: the words of a pair are asked while joining, and again when the question is weighed.
  const frequencies = new Map<string, number>();
  const documentFrequency = (word: string, token: string) => {
    const key = `${word}\u0000${token}`;
    let df = frequencies.get(key);
    if (df === undefined) {
      df = Math.max(windowSets.filter((set) => set.has(token)).length, wordCount ? wordCount(word) : 0);
      frequencies.set(key, df);
    }
    return df;
  };
  // Two words the corpus writes as one ("roll back" where it says "rollback") are judged as that word,
  // and a word it writes only as two ("rollback" where the windows found say "roll back") as those two.
  const occurs = (word: string) => {
    const [token] = metricTokenSet(word);
    return token !== undefined && documentFrequency(word, token) > 0;
  };
  const asked = wordsAsWritten(question, occurs, writtenApartIn(windows.map((window) => window.text)));
  const askedTokens = asked === question ? questionTokens : [...metricTokenSet(asked)].filter((token) => !QUESTION_FILLER.has(token));

  const weights: Record<string, number> = {};
  const unknownTokens: string[] = [];
  const wordOf = metricTokenWords(asked);
  // A word the corpus never uses weighs nothing: no passage can hold it, so it says nothing about which
  // passage answers, and a question's own framing ("the narrative", "described", "relationship") is often
  // such a word. What such words do say is decided apart: a question most of whose words the corpus never
  // uses, or that names something the corpus never mentions ("How do I connect to MongoDB?"), is declined
  // below. Weighed as ln(1 + N) instead (session 29), a quarter of GraphRAG-Bench's Novel questions were
  // declined (docs/results/issue-29.md, "Later", session 30).
  for (const token of askedTokens) {
    const df = documentFrequency(wordOf.get(token) ?? token, token);
    if (df === 0) unknownTokens.push(token);
    weights[token] = df === 0 ? 0 : rarity(n, df);
  }
  const total = Object.values(weights).reduce((sum, weight) => sum + weight, 0);
  // The answer quotes one document's passages: the question's words that the top windows of one document
  // hold together, best document first (its first window names it).
  const documents = new Map<string, { first: string; tokens: Set<string> }>();
  windows.slice(0, SUPPORT_WINDOWS).forEach((window, position) => {
    const entry = documents.get(window.documentId);
    if (entry) for (const token of windowSets[position] as Set<string>) entry.tokens.add(token);
    else documents.set(window.documentId, { first: window.id, tokens: new Set(windowSets[position]) });
  });
  let coverage = 0;
  let bestWindow: string | undefined;
  let bestDocument: string | undefined;
  for (const [documentId, { first, tokens }] of documents) {
    let held = 0;
    for (const token of askedTokens) if (tokens.has(token)) held += weights[token] as number;
    const share = total > 0 ? held / total : 0;
    if (share > coverage) {
      coverage = share;
      bestWindow = first;
      bestDocument = documentId;
    }
  }
  coverage = Math.round(coverage * 1e4) / 1e4;
  const judged = { ...base, questionTokens: askedTokens, weights, unknownTokens, coverage, bestWindow, bestDocument };
  // A person reads the words as the question wrote them ("airspeed"), not their stems ("airspe").
  const unknownWords = [...new Set(unknownTokens.map((token) => wordOf.get(token) ?? token))];
  if (coverage === 0) {
    return {
      ...judged,
      abstain: true,
      reason: 'no-match',
      explanation:
        unknownTokens.length === askedTokens.length
          ? `none of the question's words (${unknownWords.join(', ')}) occurs in this corpus`
          : 'no content word of the question is in the passages found',
    };
  }
  // A name the corpus never mentions: whatever else the question shares with the corpus, it asks about
  // something the corpus does not hold (a name written as two words the corpus uses is not unknown).
  const unknown = new Set(unknownTokens);
  // A name the corpus writes in another form ("Silesia" where it says "Silesian") is mentioned.
  const unknownNames = [
    ...new Set(namesIn(question).filter((name) => [...metricTokenSet(name)].some((token) => unknown.has(token)) && !nameForms(name).some(occurs))),
  ];
  if (unknownNames.length > 0) {
    const listed = unknownNames.length === 1 ? unknownNames[0] : `${unknownNames.slice(0, -1).join(', ')} and ${unknownNames.at(-1)}`;
    return {
      ...judged,
      abstain: true,
      reason: 'unknown-name',
      explanation: `the question names ${listed}, which this corpus never mentions`,
    };
  }
  // Most of the question's words never occur: it asks about something else (another domain, another language).
  if (unknownTokens.length * 2 > askedTokens.length) {
    return {
      ...judged,
      abstain: true,
      reason: 'no-match',
      explanation: `most of the question's words (${unknownWords.join(', ')}) never occur in this corpus`,
    };
  }
  if (coverage < minSupport) {
    const missing = unknownWords.length > 0 ? `; ${unknownWords.join(', ')} never occur${unknownWords.length === 1 ? 's' : ''} in this corpus` : '';
    return {
      ...judged,
      abstain: true,
      reason: 'weak-match',
      explanation: `the best document's passages hold only ${Math.round(coverage * 100)} % of what the question asks${missing}`,
    };
  }
  return { ...judged, abstain: false, explanation: `the best document's passages hold ${Math.round(coverage * 100)} % of what the question asks` };
}
