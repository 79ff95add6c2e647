import { throwIfAborted } from '@mosaic/spec';
import type { Chunk, ExtractedEntity, ExtractedRelation, Extraction, Extractor, ExtractOptions } from '@mosaic/spec';
import { createRequire } from 'node:module';
import winkNLP, { type ItsFunction } from 'wink-nlp';

/**
 * wink's English model, read on first use: reading it costs about a second of CPU, and every
 * program that imports @mosaic/indexing only to load an index (ask, retrieve, serve) never extracts.
 */
let englishModel: Parameters<typeof winkNLP>[0] | undefined;
function loadEnglishModel(): Parameters<typeof winkNLP>[0] {
  englishModel ??= createRequire(import.meta.url)('wink-eng-lite-web-model') as Parameters<typeof winkNLP>[0];
  return englishModel;
}

export interface OfflineExtractorOptions {
  /** Longest noun phrase kept, in tokens (longer phrases keep their last tokens). Default 6. */
  maxPhraseTokens?: number;
  /** Longest question counted as a heading, in tokens. Default 14. */
  maxHeadingTokens?: number;
  /** Bound on a mention's description (the sentence it comes from), in characters. Default 300. */
  maxDescriptionLength?: number;
  /**
   * Also link consecutive noun phrases of a sentence with a weaker 'related to' relation when
   * no predicate links both of them in that sentence. Default true: with predicates only, the
   * GraphRAG-Bench novels give graphs whose largest component holds ~40 % of the nodes and a
   * third of the nodes (mostly proper names) are isolated; with it, ~95 % are connected and
   * every name can be reached from the relation index. Mean degree goes from ~1.3 to ~3.3.
   */
  cooccurrence?: boolean;
}

/** Offline extractor id recorded in manifests. */
export const OFFLINE_EXTRACTOR_ID = 'offline:wink-spo-v2';

type Pos = string;

/** Leading adjectives that carry no identity ("other cells" = "cells"). */
const GENERIC_MODIFIERS = new Set([
  'other',
  'many',
  'several',
  'such',
  'same',
  'certain',
  'various',
  'own',
  'few',
  'much',
  'more',
  'most',
  'additional',
  'possible',
  'different',
  'similar',
  'particular',
  'whole',
  'entire',
  'next',
  'last',
  'further',
  'usual',
  'little',
  'good',
  'great',
  'best',
  'better',
  'new',
  'old',
  'large',
  'small',
  'big',
  'long',
  'high',
  'low',
  'main',
  'major',
  'important',
]);

/** Nouns too generic to be an entity on their own (compared by lemma). */
const GENERIC_NOUNS = new Set([
  'thing',
  'way',
  'time',
  'lot',
  'kind',
  'sort',
  'type',
  'number',
  'one',
  'something',
  'anything',
  'everything',
  'nothing',
  'someone',
  'anyone',
  'everyone',
  'nobody',
  'example',
  'fact',
  'part',
  'use',
  'case',
  'result',
  'amount',
  'side',
  'end',
  'place',
  'point',
  'day',
  'year',
  'today',
  'moment',
  'while',
  'deal',
  'bit',
  'manner',
  'course',
  'instance',
  'matter',
  'reason',
  'question',
  'answer',
  'idea',
  'word',
  'other',
  'lack',
  'rest',
  'half',
  'top',
  'bottom',
  'front',
  'back',
  'first',
  'second',
  'third',
  'last',
  'page',
  'chapter',
  'section',
  'more',
  'less',
  'most',
  'all',
  'none',
  'each',
  'mr.',
  'mrs.',
]);

/** "X of Y" heads that only quantify or classify Y: the phrase stands for Y. */
const LIGHT_NOUNS = new Set([
  'type',
  'kind',
  'form',
  'sort',
  'number',
  'lot',
  'group',
  'set',
  'variety',
  'range',
  'series',
  'majority',
  'case',
  'amount',
  'percentage',
  'proportion',
  'portion',
  'half',
  'rest',
  'one',
  'most',
  'some',
  'many',
  'all',
  'each',
  'any',
  'none',
  'both',
  'few',
  'several',
  'couple',
  'pair',
  'dozen',
  'hundred',
  'thousand',
  'million',
  'piece',
  'bit',
  'deal',
]);

/** "X of Y" heads that name a relation to Y when they follow a verb ("is a cause of Y"). */
const RELATIONAL_NOUNS = new Set([
  'cause',
  'part',
  'member',
  'symptom',
  'sign',
  'source',
  'effect',
  'example',
  'result',
  'side',
  'feature',
  'friend',
  'son',
  'daughter',
  'wife',
  'husband',
  'brother',
  'sister',
  'father',
  'mother',
]);

const HONORIFICS = new Set([
  'mr',
  'mr.',
  'mrs',
  'mrs.',
  'miss',
  'ms',
  'ms.',
  'dr',
  'dr.',
  'sir',
  'lady',
  'lord',
  'captain',
  'capt.',
  'professor',
  'prof.',
  'king',
  'queen',
  'prince',
  'princess',
  'madame',
  'madam',
  'monsieur',
  'mademoiselle',
  'uncle',
  'aunt',
  'colonel',
  'general',
  'major',
  'rev.',
  'reverend',
  'father',
  'saint',
  'st.',
  'count',
  'countess',
  'duke',
  'duchess',
  'baron',
  'emperor',
]);
const SPEECH_VERBS = new Set(['say', 'ask', 'reply', 'cry', 'answer', 'exclaim', 'whisper', 'shout', 'tell', 'think', 'murmur', 'remark', 'continue', 'add']);
const LOCATIVE_PREPOSITIONS = new Set(['in', 'at', 'near', 'across', 'through', 'towards', 'toward', 'into']);
const QUESTION_STARTERS = new Set([
  'what',
  'how',
  'why',
  'when',
  'where',
  'who',
  'whom',
  'whose',
  'which',
  'is',
  'are',
  'can',
  'could',
  'do',
  'does',
  'did',
  'should',
  'will',
  'would',
  'may',
  'was',
  'were',
  'has',
  'have',
]);
const RELATIVE_PRONOUNS = new Set(['that', 'which', 'who', 'whom']);
const KEEP_ADVERBS = new Set(['not', 'never', 'no']);
/** Adverbs that act as particles between a verb and its object ("known as", "carried out"). */
const PARTICLE_ADVERBS = new Set(['as', 'up', 'out', 'down', 'off', 'away', 'back', 'most', 'more', 'less', 'least']);
const LABEL_STOPWORDS = new Set([
  'about',
  'be',
  'have',
  'do',
  'to',
  'of',
  'in',
  'on',
  'at',
  'by',
  'for',
  'with',
  'from',
  'as',
  'into',
  'can',
  'may',
  'will',
  'would',
  'could',
  'should',
  'might',
  'must',
  'shall',
  'up',
  'out',
  'the',
  'a',
  'an',
]);
/** wink entity types whose tokens never belong to a noun phrase. */
const NON_NOMINAL_ENTITY_TYPES = new Set([
  'DATE',
  'TIME',
  'DURATION',
  'CARDINAL',
  'ORDINAL',
  'PERCENT',
  'MONEY',
  'EMAIL',
  'URL',
  'HASHTAG',
  'MENTION',
  'EMOJI',
  'EMOTICON',
  'SYMBOL',
]);

interface Phrase {
  /** First and last token (inclusive) of the phrase including an "(ABBR)" suffix. */
  start: number;
  end: number;
  /** Display name ("basal cell carcinoma (BCC)" when an abbreviation follows). */
  name: string;
  headLemma: string;
  proper: boolean;
  /** Tokens of a light "X of" prefix folded into the phrase ("type of"), for labels. */
  prefix: string[];
  /** Relational "X of" head (e.g. cause) kept apart for object labels. */
  relationalHead?: string;
  /** The "of Y" component of a compound ("top layer of skin" → skin). */
  component?: Phrase;
}

/** wink-nlp's reading of a text, one entry per token (and the sentences as token ranges). */
interface Tokens {
  value: string[];
  pos: Pos[];
  lemma: string[];
  normal: string[];
  spaces: string[];
  /** 1 for tokens inside a non-nominal named entity (a date, a number, …): never part of a noun phrase. */
  blocked: Uint8Array;
  /** First and last token (inclusive) of every sentence. */
  sentences: number[][];
}

interface ChunkEntity {
  name: string;
  votes: Map<string, number>;
  description: string;
  questionLike: boolean;
  /** Indexes of the sentences that mention it. */
  sentences: number[];
}

/** The span without leading and trailing whitespace (wink-nlp can make a line break a token). */
function trimSpan(text: string, start: number, end: number): { start: number; end: number } {
  let from = start;
  let to = end;
  while (from < to && /\s/.test(text[from])) from++;
  while (to > from && /\s/.test(text[to - 1])) to--;
  return { start: from, end: to };
}

/**
 * Character offsets of every token in `text`, rebuilt from the token values and their preceding
 * whitespace (wink-nlp keeps both verbatim); a token that does not sit where expected is looked
 * up from the running position instead, so offsets never drift.
 */
function tokenOffsets(text: string, values: readonly string[], spaces: readonly string[]): number[] {
  const offsets: number[] = [];
  let position = 0;
  for (let i = 0; i < values.length; i++) {
    position += spaces[i]?.length ?? 0;
    if (text.startsWith(values[i], position)) {
      offsets.push(position);
    } else {
      const found = text.indexOf(values[i], Math.max(0, position - (spaces[i]?.length ?? 0)));
      position = found >= 0 ? found : position;
      offsets.push(position);
    }
    position += values[i].length;
  }
  return offsets;
}

function surface(tokens: Tokens, start: number, end: number, skip?: (i: number) => boolean): string {
  let out = '';
  for (let i = start; i <= end; i++) {
    if (skip?.(i)) continue;
    out += (out === '' ? '' : tokens.spaces[i] === '' ? '' : ' ') + tokens.value[i];
  }
  return out;
}

function bound(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

const hasLetter = (text: string) => /\p{L}/u.test(text);
const capitals = (text: string) => text.replace(/[^A-Z]/g, '').length;

/** One sentence being read: its token range and text, its noun phrases, and which phrases a relation already links. */
interface SentenceState {
  index: number;
  start: number;
  end: number;
  text: string;
  phrases: Phrase[];
  /** Phrase index by the phrase's last token, and by its first token. */
  phraseEndingAt: Map<number, number>;
  phraseStartingAt: Map<number, number>;
  /** Phrases linked by a heading, predicate or compound relation (co-occurrence skips pairs of these). */
  linked: Set<number>;
}

/**
 * What the extraction of one text accumulates: entities by lower-case name (with their type
 * votes and the sentences that mention them), relations in order of discovery, and the sentence
 * being read (where `addEntity` and `addRelation` record their provenance).
 */
class ExtractionState {
  readonly entities = new Map<string, ChunkEntity>();
  readonly relations: ExtractedRelation[] = [];
  readonly #relationByKey = new Map<string, ExtractedRelation>();
  /** The text of every sentence, and its character span in the text. */
  readonly sentenceTexts: string[];
  readonly sentenceOffsets: { start: number; end: number }[];
  /** Index of the sentence being read. */
  sentence = 0;

  constructor(
    text: string,
    readonly tokens: Tokens,
    readonly maxDescription: number,
  ) {
    this.sentenceTexts = tokens.sentences.map(([s, e]) => surface(tokens, s, e));
    const offsets = tokenOffsets(text, tokens.value, tokens.spaces);
    this.sentenceOffsets = tokens.sentences.map(([s, e]) => trimSpan(text, offsets[s] ?? 0, (offsets[e] ?? 0) + (tokens.value[e]?.length ?? 0)));
  }

  /** One mention of an entity in the current sentence, voting for `type`; the first mention's description is kept. */
  addEntity(name: string, type: string, description: string, questionLike = false): void {
    const key = name.toLowerCase();
    let entry = this.entities.get(key);
    if (!entry) {
      entry = { name, votes: new Map(), description: bound(description, this.maxDescription), questionLike, sentences: [] };
      this.entities.set(key, entry);
    }
    entry.votes.set(type, (entry.votes.get(type) ?? 0) + 1);
    if (entry.sentences[entry.sentences.length - 1] !== this.sentence) entry.sentences.push(this.sentence);
  }

  /** A relation stated in the current sentence; the same fact stated again adds a sentence to it. */
  addRelation(source: string, label: string, target: string, sentence: string, extraKeywords: string[] = []): void {
    if (source.toLowerCase() === target.toLowerCase() || label === '') return;
    const key = `${source.toLowerCase()}\t${label}\t${target.toLowerCase()}`;
    const span = this.sentenceOffsets[this.sentence];
    const known = this.#relationByKey.get(key);
    if (known) {
      if (!known.spans!.some((s) => s.start === span.start)) known.spans!.push({ ...span });
      return;
    }
    const keywords = [...new Set([...label.split(' ').filter((w) => !LABEL_STOPWORDS.has(w) && hasLetter(w)), ...extraKeywords])];
    const relation: ExtractedRelation = { source, target, label, keywords, description: bound(sentence, this.maxDescription), spans: [{ ...span }] };
    this.#relationByKey.set(key, relation);
    this.relations.push(relation);
  }

  /** The entities (each typed by its votes) and relations found. */
  extraction(): Extraction {
    const entities: ExtractedEntity[] = [];
    for (const entry of this.entities.values()) {
      entities.push({
        name: entry.name,
        type: votedType(entry.votes),
        description: entry.description,
        ...(entry.questionLike ? { questionLike: true } : {}),
        spans: entry.sentences.map((k) => ({ ...this.sentenceOffsets[k] })),
      });
    }
    return { entities, relations: this.relations };
  }
}

/** The type with the most votes; PERSON/LOCATION/HEADING evidence wins over the generic NAME vote on ties. */
function votedType(votes: ReadonlyMap<string, number>): string {
  let type = 'CONCEPT';
  let best = -1;
  for (const [candidate, count] of votes) {
    const rank = count + (candidate === 'PERSON' || candidate === 'LOCATION' || candidate === 'HEADING' ? 0.5 : 0);
    if (rank > best) {
      best = rank;
      type = candidate;
    }
  }
  return type;
}

/**
 * The entity type of a noun phrase of the sentence starting at token `sentenceStart`: CONCEPT for
 * common nouns; for proper names PERSON (honorific, or subject of a speech verb), LOCATION (after
 * a locative preposition), else NAME.
 */
function phraseType(tokens: Tokens, sentenceStart: number, phrase: Phrase, role: 'subject' | 'object' | 'other', predicateLemma?: string): string {
  if (!phrase.proper) return 'CONCEPT';
  const first = tokens.normal[phrase.start];
  if (HONORIFICS.has(first) || HONORIFICS.has(tokens.normal[phrase.start - 1] ?? '')) return 'PERSON';
  if (role === 'subject' && predicateLemma && SPEECH_VERBS.has(predicateLemma)) return 'PERSON';
  const before = phrase.start - 1;
  if (before >= sentenceStart && tokens.pos[before] === 'ADP' && LOCATIVE_PREPOSITIONS.has(tokens.normal[before])) return 'LOCATION';
  return 'NAME';
}

/**
 * The offline, deterministic extractor: wink-nlp (eng-lite-web model) tokenises, splits
 * sentences and tags parts of speech; everything else is rules over those tags.
 *
 * - Entities are noun phrases ([ADJ|NOUN|PROPN|NUM]* ending in NOUN/PROPN, leading
 *   determiners and generic modifiers dropped; "X of Y" folded: a light head such as "type of"
 *   becomes part of the relation label, other heads make a compound "top layer of skin" linked
 *   to its component by an 'of' relation). A following "(ABBR)" stays in the name so that the
 *   graph merger can make ABBR an alias. Types: PERSON (honorific, or subject of a speech
 *   verb), LOCATION (proper name after in/at/near…), NAME (other proper names), CONCEPT
 *   (common nouns), HEADING (question headings).
 * - Relations are subject–predicate–object patterns inside one sentence: NP [adverbs,
 *   parentheses, relative pronoun] VERB-GROUP [prepositions, adjectives, determiners] NP,
 *   with coordinated subjects/objects ("face, head, and neck") expanded. The label is the
 *   predicate with its first verb lemmatised ("was doomed to empty" → "be doomed to empty",
 *   "usually involves" → "involve", "is the most common type of" → "be most common type of").
 * - A question of 3–14 tokens outside quotation marks (as PDF headings such as "What is basal
 *   cell skin cancer?") becomes a question-like HEADING entity linked by 'asks about' to the
 *   noun phrases it contains.
 * - Consecutive noun phrases of a sentence not linked by a predicate get a 'related to'
 *   relation (option `cooccurrence`, default on).
 * Only noun phrases that take part in a relation, proper names and headings are emitted.
 */
export class OfflineExtractor implements Extractor {
  readonly specificationVersion = 'v1' as const;
  readonly id = OFFLINE_EXTRACTOR_ID;
  readonly #nlp: ReturnType<typeof winkNLP>;
  readonly #maxPhraseTokens: number;
  readonly #maxHeadingTokens: number;
  readonly #maxDescription: number;
  readonly #cooccurrence: boolean;
  /** The options it was made with: a worker thread makes the same extractor from them. */
  readonly options: Readonly<OfflineExtractorOptions>;

  constructor(options: OfflineExtractorOptions = {}) {
    this.options = { ...options };
    this.#nlp = winkNLP(loadEnglishModel(), ['sbd', 'pos', 'ner']);
    this.#maxPhraseTokens = options.maxPhraseTokens ?? 6;
    this.#maxHeadingTokens = options.maxHeadingTokens ?? 14;
    this.#maxDescription = options.maxDescriptionLength ?? 300;
    this.#cooccurrence = options.cooccurrence ?? true;
  }

  async extract(options: ExtractOptions): Promise<Extraction> {
    throwIfAborted(options.abortSignal, 'extract');
    return this.extractText(options.chunk.text);
  }

  /** Synchronous extraction from a chunk. */
  extractChunk(chunk: Chunk): Extraction {
    return this.extractText(chunk.text);
  }

  /**
   * Synchronous extraction from any text, in phases per sentence: a question heading, predicates
   * between noun phrases, "X of Y" compounds and proper names, co-occurrence links.
   */
  extractText(text: string): Extraction {
    const tokens = this.#readTokens(text);
    const state = new ExtractionState(text, tokens, this.#maxDescription);
    tokens.sentences.forEach((_, index) => {
      const sentence = this.#readSentence(state, index);
      this.#linkHeading(state, sentence);
      this.#linkPredicates(state, sentence);
      this.#linkCompounds(state, sentence);
      if (this.#cooccurrence) this.#linkCooccurrences(state, sentence);
    });
    return state.extraction();
  }

  /** wink-nlp's reading of a text: tokens with tags, blocked tokens (dates, numbers, …) and sentence spans. */
  #readTokens(text: string): Tokens {
    const nlp = this.#nlp;
    const its = nlp.its;
    const doc = nlp.readDoc(text);
    const all = doc.tokens();
    const value = all.out(its.value) as string[];
    const normal = all.out(its.normal) as string[];
    // wink-nlp types its.lemma with an extra parameter out() does not pass; it works at run time.
    const lemma = all.out(its.lemma as ItsFunction<string>) as string[];
    // The lemmatiser returns undefined for a few words ("wont"): fall back to the normal form.
    for (let i = 0; i < lemma.length; i++) if (typeof lemma[i] !== 'string') lemma[i] = normal[i];
    const blocked = new Uint8Array(value.length);
    const entityTypes = doc.entities().out(its.type) as string[];
    (doc.entities().out(its.span) as number[][]).forEach(([from, to], k) => {
      if (NON_NOMINAL_ENTITY_TYPES.has(entityTypes[k])) for (let i = from; i <= to; i++) blocked[i] = 1;
    });
    const spaces = all.out(its.precedingSpaces) as string[];
    const pos = all.out(its.pos) as string[];
    return { value, pos, lemma, normal, spaces, blocked, sentences: doc.sentences().out(its.span) as number[][] };
  }

  /** Start reading sentence `index`: its noun phrases, indexed by first and last token. */
  #readSentence(state: ExtractionState, index: number): SentenceState {
    state.sentence = index;
    const [start, end] = state.tokens.sentences[index];
    const phrases = this.#phrases(state.tokens, start, end);
    const phraseEndingAt = new Map<number, number>();
    const phraseStartingAt = new Map<number, number>();
    phrases.forEach((phrase, k) => {
      phraseEndingAt.set(phrase.end, k);
      phraseStartingAt.set(phrase.start, k);
    });
    return { index, start, end, text: state.sentenceTexts[index], phrases, phraseEndingAt, phraseStartingAt, linked: new Set() };
  }

  /** A heading phrased as a question: a HEADING entity that 'asks about' the noun phrases it contains. */
  #linkHeading(state: ExtractionState, sentence: SentenceState): void {
    const { tokens } = state;
    const heading = this.#heading(tokens, sentence.start, sentence.end, sentence.text);
    if (!heading) return;
    const next = state.sentenceTexts[sentence.index + 1];
    state.addEntity(heading.name, 'HEADING', next ? `${heading.name} ${next}` : heading.name, true);
    sentence.phrases.forEach((phrase, k) => {
      if (phrase.start >= heading.start && !GENERIC_NOUNS.has(phrase.headLemma)) {
        state.addEntity(phrase.name, phraseType(tokens, sentence.start, phrase, 'other'), sentence.text);
        state.addRelation(heading.name, 'asks about', phrase.name, sentence.text);
        sentence.linked.add(k);
      }
    });
  }

  /** Subject–predicate–object relations: every verb group between a subject and an object noun phrase. */
  #linkPredicates(state: ExtractionState, sentence: SentenceState): void {
    const { tokens } = state;
    const { start: s, end: e } = sentence;
    for (let i = s; i <= e; i++) {
      if (!this.#startsVerbGroup(tokens, i, e)) continue;
      let j = i;
      while (j + 1 <= e && this.#inVerbGroup(tokens, j + 1, e)) j++;
      const group = { start: i, end: j };
      i = j;
      if (!this.#hasVerb(tokens, group.start, group.end)) continue;
      const subject = this.#subject(tokens, sentence.phraseEndingAt, group.start, s);
      if (subject === undefined) continue;
      const object = this.#object(tokens, sentence.phraseStartingAt, group.end, e);
      if (!object) continue;
      const predicate = this.#label(tokens, group.start, group.end, subject.participleClause);
      if (predicate.lemma === '') continue;
      this.#relatePhrases(state, sentence, subject.index, object, predicate.label, predicate.lemma);
    }
  }

  /** The relations of one predicate: each coordinated subject to each coordinated object ("A and B cause C, D"). */
  #relatePhrases(
    state: ExtractionState,
    sentence: SentenceState,
    subjectIndex: number,
    object: { index: number; gap: string[] },
    predicate: string,
    predicateLemma: string,
  ): void {
    const { tokens } = state;
    const { start: s, end: e, phrases } = sentence;
    const objectPhrase = phrases[object.index];
    const labelWords = [predicate, ...object.gap];
    if (objectPhrase.prefix.length > 0) labelWords.push(...objectPhrase.prefix);
    let target = objectPhrase;
    if (objectPhrase.relationalHead && objectPhrase.component) {
      labelWords.push(objectPhrase.relationalHead, 'of');
      target = objectPhrase.component;
    }
    const label = labelWords.join(' ').replace(/\s+/g, ' ').trim();
    const subjects = this.#coordinated(tokens, phrases, subjectIndex, 'backward', s, e);
    const objects = this.#coordinated(tokens, phrases, object.index, 'forward', s, e);
    for (const si of subjects) {
      const subject = phrases[si];
      if (GENERIC_NOUNS.has(subject.headLemma) && !subject.proper && !subject.component) continue;
      for (const oi of objects) {
        const objectAt = oi === object.index ? target : phrases[oi];
        if (GENERIC_NOUNS.has(objectAt.headLemma) && !objectAt.proper && !objectAt.component) continue;
        state.addEntity(subject.name, phraseType(tokens, s, subject, 'subject', predicateLemma), sentence.text);
        state.addEntity(objectAt.name, phraseType(tokens, s, objectAt, 'object'), sentence.text);
        state.addRelation(subject.name, label, objectAt.name, sentence.text, [subject.headLemma, objectAt.headLemma]);
        sentence.linked.add(si);
        sentence.linked.add(oi);
      }
    }
  }

  /** Compounds "X of Y" link to Y; proper names are always entities. */
  #linkCompounds(state: ExtractionState, sentence: SentenceState): void {
    const { tokens } = state;
    sentence.phrases.forEach((phrase, k) => {
      const mentioned = state.entities.has(phrase.name.toLowerCase());
      if (phrase.proper && !GENERIC_NOUNS.has(phrase.headLemma))
        state.addEntity(phrase.name, phraseType(tokens, sentence.start, phrase, 'other'), sentence.text);
      const component = phrase.component;
      if ((mentioned || phrase.proper) && component && !phrase.relationalHead && !GENERIC_NOUNS.has(component.headLemma)) {
        state.addEntity(component.name, phraseType(tokens, sentence.start, component, 'other'), sentence.text);
        state.addRelation(phrase.name, 'of', component.name, sentence.text);
        sentence.linked.add(k);
      }
    });
  }

  /** Consecutive noun phrases of the sentence not both linked already get a 'related to' relation. */
  #linkCooccurrences(state: ExtractionState, sentence: SentenceState): void {
    const { tokens } = state;
    const candidates = sentence.phrases.map((phrase, k) => ({ phrase, k })).filter(({ phrase }) => !GENERIC_NOUNS.has(phrase.headLemma) || phrase.proper);
    for (let a = 0; a + 1 < candidates.length; a++) {
      const left = candidates[a];
      const right = candidates[a + 1];
      if (sentence.linked.has(left.k) && sentence.linked.has(right.k)) continue;
      state.addEntity(left.phrase.name, phraseType(tokens, sentence.start, left.phrase, 'other'), sentence.text);
      state.addEntity(right.phrase.name, phraseType(tokens, sentence.start, right.phrase, 'other'), sentence.text);
      state.addRelation(left.phrase.name, 'related to', right.phrase.name, sentence.text);
    }
  }

  /** Noun phrases of a sentence, in order. */
  #phrases(tokens: Tokens, s: number, e: number): Phrase[] {
    const { pos, value, normal, lemma, blocked } = tokens;
    const nominal = (i: number) =>
      !blocked[i] && (pos[i] === 'NOUN' || pos[i] === 'PROPN') && hasLetter(value[i]) && (value[i].length > 1 || /[A-Z]/.test(value[i]));
    const modifier = (i: number) => !blocked[i] && (pos[i] === 'ADJ' || nominal(i));
    const raw: Phrase[] = [];
    for (let i = s; i <= e; i++) {
      if (!modifier(i)) continue;
      let j = i;
      // A lower-case word followed by a capitalised one starts a new phrase (run-in headings:
      // "Skin lesions Basal cell skin cancer is …").
      const caseBreak = (k: number) => /^[a-z]/.test(value[k]) && /^[A-Z]/.test(value[k + 1]);
      while (j + 1 <= e && !caseBreak(j) && (modifier(j + 1) || (pos[j + 1] === 'NUM' && nominal(j) && j + 2 <= e && nominal(j + 2)))) j++;
      let end = j;
      while (end >= i && !nominal(end)) end--;
      let start = i;
      while (start < end && (pos[start] === 'ADJ' || pos[start] === 'NUM') && GENERIC_MODIFIERS.has(normal[start])) start++;
      if (end < start) {
        i = j;
        continue;
      }
      if (end - start + 1 > this.#maxPhraseTokens) start = end - this.#maxPhraseTokens + 1;
      const phrase: Phrase = {
        start,
        end,
        name: surface(tokens, start, end),
        headLemma: lemma[end],
        proper: pos[end] === 'PROPN' && /^[A-Z]/.test(value[end]),
        prefix: [],
      };
      // "long form (ABBR)".
      if (end + 3 <= e && value[end + 1] === '(' && value[end + 3] === ')' && capitals(value[end + 2]) >= 2 && value[end + 2].length <= 10) {
        phrase.name = `${phrase.name} (${value[end + 2]})`;
        phrase.end = end + 3;
      }
      raw.push(phrase);
      i = phrase.end;
    }

    // Fold "X of [DET] Y".
    const out: Phrase[] = [];
    for (let k = 0; k < raw.length; k++) {
      const x = raw[k];
      const y = raw[k + 1];
      let gap = x.end + 1;
      if (y && normal[gap] === 'of') {
        gap++;
        while (gap < y.start && (pos[gap] === 'DET' || (pos[gap] === 'ADJ' && GENERIC_MODIFIERS.has(normal[gap])))) gap++;
      }
      if (!y || normal[x.end + 1] !== 'of' || gap !== y.start) {
        out.push(x);
        continue;
      }
      const xSingle = x.start === x.end || (x.end - x.start === 1 && pos[x.start] === 'ADJ');
      if (LIGHT_NOUNS.has(x.headLemma) && xSingle) {
        out.push({ ...y, start: x.start, prefix: [...y.prefix, ...this.#words(tokens, x.start, x.end), 'of'] });
      } else if (RELATIONAL_NOUNS.has(x.headLemma) && xSingle) {
        out.push({ ...x, end: y.end, name: `${x.name} of ${y.name}`, relationalHead: this.#words(tokens, x.start, x.end).join(' '), component: y });
      } else if (x.end - x.start + 1 + (y.end - y.start + 1) <= this.#maxPhraseTokens + 1 && !x.proper === !y.proper) {
        out.push({ ...x, end: y.end, name: `${x.name} of ${y.name}`, headLemma: x.headLemma, component: y });
      } else {
        out.push(x);
        continue;
      }
      k++;
    }
    return out;
  }

  /** Lower-case words of a token range (for labels). */
  #words(tokens: Tokens, start: number, end: number): string[] {
    const words: string[] = [];
    for (let i = start; i <= end; i++) words.push(tokens.normal[i]);
    return words;
  }

  #heading(tokens: Tokens, s: number, e: number, sentence: string): { name: string; start: number } | undefined {
    if (tokens.value[e] !== '?') return undefined;
    if (/["“”«»]/.test(sentence) || /(^|\s)'|'(\s|$)/.test(sentence)) return undefined;
    let start = -1;
    for (let i = e - 1; i >= s; i--) {
      if (QUESTION_STARTERS.has(tokens.normal[i]) && /^[A-Z]/.test(tokens.value[i])) {
        start = i;
        break;
      }
    }
    if (start < 0) return undefined;
    const length = e - start + 1;
    if (length < 3 || length > this.#maxHeadingTokens) return undefined;
    return { name: surface(tokens, start, e), start };
  }

  #startsVerbGroup(tokens: Tokens, i: number, e: number): boolean {
    const p = tokens.pos[i];
    if (p === 'AUX' || p === 'VERB') return true;
    if (p === 'PART' && tokens.normal[i] === 'to') return i + 1 <= e && (tokens.pos[i + 1] === 'VERB' || tokens.pos[i + 1] === 'AUX');
    return false;
  }

  #inVerbGroup(tokens: Tokens, i: number, e: number): boolean {
    const p = tokens.pos[i];
    if (p === 'AUX' || p === 'VERB') return true;
    if (p === 'PART') return tokens.normal[i] === 'not' || tokens.normal[i] === 'to';
    // Adverbs inside the group ("can often be"), not at its end.
    if (p === 'ADV') return i + 1 <= e && (tokens.pos[i + 1] === 'VERB' || tokens.pos[i + 1] === 'AUX' || tokens.pos[i + 1] === 'ADV');
    return false;
  }

  #hasVerb(tokens: Tokens, start: number, end: number): boolean {
    for (let i = start; i <= end; i++) if (tokens.pos[i] === 'VERB' || tokens.pos[i] === 'AUX') return true;
    return false;
  }

  /** The noun phrase right before a verb group, skipping adverbs, parentheses, a relative pronoun and (for participles) one comma. */
  #subject(tokens: Tokens, endingAt: Map<number, number>, groupStart: number, s: number): { index: number; participleClause: boolean } | undefined {
    const { pos, normal, value } = tokens;
    const participle = pos[groupStart] === 'VERB' && /(ed|en|wn|ing)$/.test(normal[groupStart]);
    let i = groupStart - 1;
    let commaSkipped = false;
    let relativeSkipped = false;
    while (i >= s) {
      const index = endingAt.get(i);
      if (index !== undefined) return { index, participleClause: commaSkipped };
      if (pos[i] === 'ADV') i--;
      else if (value[i] === ')') {
        let depth = 0;
        while (i >= s) {
          if (value[i] === ')') depth++;
          else if (value[i] === '(' && --depth === 0) break;
          i--;
        }
        i--;
      } else if (!relativeSkipped && RELATIVE_PRONOUNS.has(normal[i])) {
        relativeSkipped = true;
        i--;
      } else if (participle && !commaSkipped && value[i] === ',') {
        commaSkipped = true;
        i--;
      } else return undefined;
    }
    return undefined;
  }

  /** The noun phrase after a verb group, with the prepositions/adjectives between them (for the label). */
  #object(tokens: Tokens, startingAt: Map<number, number>, groupEnd: number, e: number): { index: number; gap: string[] } | undefined {
    const { pos, normal } = tokens;
    const gap: string[] = [];
    let steps = 0;
    for (let i = groupEnd + 1; i <= e && steps <= 5; i++, steps++) {
      const found = startingAt.get(i);
      if (found !== undefined) return { index: found, gap };
      const p = pos[i];
      if (p === 'DET' || (p === 'PRON' && /^(his|her|its|their|our|my|your)$/.test(normal[i]))) continue;
      if (p === 'ADP' || p === 'ADJ' || (p === 'SCONJ' && normal[i] === 'as') || (p === 'PART' && normal[i] !== "'s")) {
        gap.push(normal[i]);
        continue;
      }
      if (p === 'ADV') {
        if (KEEP_ADVERBS.has(normal[i]) || PARTICLE_ADVERBS.has(normal[i])) gap.push(normal[i]);
        continue;
      }
      return undefined;
    }
    return undefined;
  }

  /**
   * Label of a verb group: its first verb lemmatised, the rest as written (lower case), adverbs
   * dropped. In a participle clause ("X, also known as Y") the participle is kept as written.
   */
  #label(tokens: Tokens, start: number, end: number, participleClause: boolean): { label: string; lemma: string } {
    const { pos, normal, lemma } = tokens;
    const words: string[] = [];
    let lemmatised = false;
    let mainLemma = '';
    for (let i = start; i <= end; i++) {
      const p = pos[i];
      if (p === 'ADV' && !KEEP_ADVERBS.has(normal[i])) continue;
      if (p === 'PART' && normal[i] === 'to' && words.length === 0) continue;
      if ((p === 'AUX' || p === 'VERB') && !lemmatised) {
        words.push(participleClause ? normal[i] : lemma[i]);
        lemmatised = true;
      } else words.push(normal[i] === "n't" ? 'not' : normal[i]);
      if (p === 'VERB') mainLemma = lemma[i];
    }
    if (mainLemma === '') mainLemma = words[words.length - 1] ?? '';
    return { label: words.join(' '), lemma: mainLemma };
  }

  /** A phrase plus the phrases coordinated with it ("A, B, and C"; "A and B"). */
  #coordinated(tokens: Tokens, phrases: Phrase[], index: number, direction: 'forward' | 'backward', s: number, e: number): number[] {
    const { value, normal } = tokens;
    const result = [index];
    const isConjunction = (i: number) => normal[i] === 'and' || normal[i] === 'or';
    if (direction === 'forward') {
      let k = index;
      const pending: number[] = [];
      while (k + 1 < phrases.length) {
        const next = phrases[k + 1];
        const between: number[] = [];
        for (let i = phrases[k].end + 1; i < next.start && i <= e; i++) if (tokens.pos[i] !== 'DET') between.push(i);
        if (between.length === 1 && value[between[0]] === ',') {
          pending.push(k + 1);
          k++;
          continue;
        }
        const conj = (between.length === 1 && isConjunction(between[0])) || (between.length === 2 && value[between[0]] === ',' && isConjunction(between[1]));
        if (conj) {
          result.push(...pending, k + 1);
          pending.length = 0;
          k++;
          continue;
        }
        break;
      }
      return result;
    }
    // Backward: only "A and B <verb>" / "A, B and C <verb>".
    let k = index;
    let sawConjunction = false;
    const candidates: number[] = [];
    while (k - 1 >= 0) {
      const previous = phrases[k - 1];
      if (previous.end < s) break;
      const between: number[] = [];
      for (let i = previous.end + 1; i < phrases[k].start; i++) if (tokens.pos[i] !== 'DET') between.push(i);
      const conj = (between.length === 1 && isConjunction(between[0])) || (between.length === 2 && value[between[0]] === ',' && isConjunction(between[1]));
      const comma = between.length === 1 && value[between[0]] === ',';
      if (conj && !sawConjunction) {
        sawConjunction = true;
        candidates.push(k - 1);
      } else if (comma && sawConjunction) candidates.push(k - 1);
      else break;
      k--;
    }
    return [...result, ...candidates];
  }
}

/** Create the offline extractor (loads the wink-nlp English lite model, ~0.2 s). */
export function createOfflineExtractor(options: OfflineExtractorOptions = {}): OfflineExtractor {
  return new OfflineExtractor(options);
}
