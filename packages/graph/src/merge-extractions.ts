import { InvalidArgumentError } from '@mosaic/spec';
import type { ChunkOffsets, Extraction, TextSpan } from '@mosaic/spec';
import { displayName, entityIdFromKey, entityKey, parseEntityName, relationIdFromKey, relationLabelKey } from './entity-key.js';
import type { EntityAttributes, RelationAttributes } from './graphology-graph-store.js';

/** The extraction of one chunk. */
export interface ChunkExtraction {
  chunkId: string;
  extraction: Extraction;
}

/**
 * The options of `mergeExtractions` whose defaults were tuned for the offline stack (embedded
 * encoder, offline extractor) on the GraphRAG-Bench development split (docs/experiments.md). Another
 * extractor may want other values.
 */
export interface MergeExtractionsTuning {
  /**
   * Link an entity whose name ends with another entity's whole name to the longest such entity
   * with an 'is a kind of' relation ("basal cell skin cancer" → "skin cancer", and the run-in heading
   * "Treatment Morrow syndrome" → "Morrow syndrome"), stated by the longer name's sentences (its
   * first four). Only suffixes of two words or more count: one-word suffixes are surnames in
   * novels ("Mrs. Smith" → "Smith") and hubs in manuals ("cancer"). Default true.
   *
   * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
   */
  linkNameSuffixes?: boolean;
}

export interface MergeExtractionsOptions {
  /**
   * Per-chunk extractions, in corpus order (the order decides ties and output order): an array,
   * or any iterable that can be iterated twice (the merger makes two passes; a compressed log
   * decoding one block at a time keeps only a block's objects in memory).
   */
  extractions: Iterable<ChunkExtraction>;
  /** Bound on a merged description, in characters (default 600). */
  maxDescriptionLength?: number;
  /** Bound on the aliases kept per entity (default 20). */
  maxAliases?: number;
  /** Bound on the keywords kept per relation (default 12). */
  maxKeywords?: number;
  /** The options tuned for the offline stack (see `MergeExtractionsTuning`); unknown keys are rejected. */
  tuning?: MergeExtractionsTuning;
}

/** Label of the relation that links a name to the longest entity name it ends with. */
export const SUFFIX_LINK_LABEL = 'is a kind of';

/** A merged entity: a graph node and its id. */
export interface MergedEntity extends EntityAttributes {
  id: string;
  /** The merge key the id was derived from. */
  key: string;
  /** Number of entity mentions (relation endpoints not counted). */
  mentionCount: number;
}

/** A merged relation: a graph edge and its id; `weight` = number of mentions. */
export interface MergedRelation extends RelationAttributes {
  id: string;
  source: string;
  target: string;
  weight: number;
}

/** What the merger did, in counts. */
export interface MergeTrace {
  entityMentions: number;
  relationMentions: number;
  entities: number;
  relations: number;
  /** Distinct abbreviation → long form definitions found ("basal cell carcinoma (BCC)"). */
  abbreviations: number;
  /** Mentions whose name was resolved through an abbreviation. */
  resolvedByAbbreviation: number;
  /** Mentions dropped because their name has no letters or digits. */
  droppedEmptyNames: number;
  /** Relation mentions dropped because both endpoints are the same entity. */
  droppedSelfLoops: number;
  /** Entities created only from relation endpoints (type 'UNKNOWN' unless a mention types them). */
  implicitEntities: number;
  /** 'is a kind of' relations added between a name and the longest entity name it ends with. */
  suffixLinks: number;
}

export interface MergeExtractionsResult {
  entities: MergedEntity[];
  relations: MergedRelation[];
  trace: MergeTrace;
}

/**
 * What the merger keeps per entity while it reads the extractions. It is held for every entity of
 * the corpus at once, so it is kept small: votes as flat arrays, chunks as ordinals, spans as
 * number triples; the merged entity's objects are made only at the end.
 */
interface EntityAccumulator {
  key: string;
  /** Surface forms, voted with doubled weights (a mention 2, a relation endpoint 1). */
  surfaces: Tally | undefined;
  abbreviations: string[] | undefined;
  types: Tally | undefined;
  descriptions: string[] | undefined;
  descriptionLength: number;
  /** Chunk ordinals, first seen first, each once. */
  chunks: number[];
  /** Sentence spans as (chunk ordinal, start, end) triples, first seen first, each once. */
  spans: number[] | undefined;
  questionLike: boolean;
  mentionCount: number;
}

interface RelationAccumulator {
  /** Entity ordinals of the endpoints. */
  source: number;
  target: number;
  labelKey: string;
  labels: Tally | undefined;
  keywords: Tally | undefined;
  descriptions: string[] | undefined;
  descriptionLength: number;
  chunks: number[];
  weight: number;
  spans: number[] | undefined;
}

/**
 * Weighted votes for strings, as one flat array `[value, count, value, count, …]` in first-seen
 * order (a value's order is its position). Most tallies hold a value or two; a Map per tally was a
 * good part of the merge's memory on a large corpus.
 */
type Tally = Array<string | number>;

/** Entity ordinals stay below this, so an endpoint pair is one exact number (ordinal × this + ordinal). */
const MAX_ENTITIES = 2 ** 26;

/** Values a tally searches one by one before the merge keeps a lookup map for it. */
const TALLY_SCAN_LIMIT = 24;

/** Spans a list searches one by one (when chunks repeat) before the merge keeps a key set for it. */
const SPAN_SCAN_LIMIT = 32;

/** The value with the highest count; ties go to the earliest seen. */
function tallyWinner(tally: Tally | undefined): string | undefined {
  if (!tally) return undefined;
  let best: string | undefined;
  let bestCount = -1;
  for (let i = 0; i < tally.length; i += 2) {
    const count = tally[i + 1] as number;
    if (count > bestCount) {
      best = tally[i] as string;
      bestCount = count;
    }
  }
  return best;
}

/** Whether a sorted array holds a value (binary search). */
function sortedHas(sorted: Float64Array, value: number): boolean {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = sorted[middle];
    if (at === value) return true;
    if (at < value) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** The values of a tally in first-seen order. */
function tallyValues(tally: Tally): string[] {
  const values: string[] = [];
  for (let i = 0; i < tally.length; i += 2) values.push(tally[i] as string);
  return values;
}

/** Join distinct descriptions in order, bounded to `max` characters (cut at a word, marked with '…'). */
export function joinDescriptions(descriptions: readonly string[], max: number): string {
  let out = '';
  for (const description of descriptions) {
    const next = out === '' ? description : `${out}\n${description}`;
    if (next.length <= max) {
      out = next;
      continue;
    }
    if (out === '') {
      const cut = description.slice(0, Math.max(0, max - 1));
      const space = cut.lastIndexOf(' ');
      out = `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
    }
    break;
  }
  return out;
}

/**
 * Keep a description unless it repeats one already kept or the kept ones already fill the
 * bound (only the bounded join is ever used, so later ones are not stored).
 */
function addDescription(
  target: { descriptions: string[] | undefined; descriptionLength: number },
  description: string,
  max: number,
  intern: (text: string) => string,
): void {
  if (target.descriptionLength >= max || typeof description !== 'string') return;
  const text = intern((/\s\s|[\t\n\r]/.test(description) ? description.replace(/\s+/g, ' ') : description).trim());
  if (text === '') return;
  if (!target.descriptions) target.descriptions = [text];
  else if (target.descriptions.includes(text)) return;
  else target.descriptions.push(text);
  target.descriptionLength += text.length + 1;
}

/**
 * Merge per-chunk extractions into entities and relations.
 *
 * Entities merge on a normalised key (case, plural/singular, punctuation, whitespace and
 * leading determiners ignored). "long form (ABBR)" makes ABBR an alias: every mention of
 * ABBR anywhere in the corpus resolves to the long form (when one abbreviation is defined
 * for several long forms, the most frequent definition wins). Per entity: the most frequent
 * surface form is the name, the others are aliases; the type is the majority type (ties →
 * first seen); descriptions are joined in order and bounded; chunk ids are unioned;
 * questionLike is set when any mention is question-like. Relations merge per
 * (source, label, target) with the label normalised; weight = number of mentions.
 * Ids are stable hashes of the keys, so identical inputs give identical ids and output.
 */
const MERGE_TUNING_KEYS: readonly string[] = ['linkNameSuffixes'];

/** The `tuning` of the options, checked: a plain object of known keys; no tuning key at the top level. */
function checkMergeTuning(options: MergeExtractionsOptions): MergeExtractionsTuning {
  for (const key of MERGE_TUNING_KEYS) {
    if (Object.hasOwn(options, key)) throw new InvalidArgumentError({ argument: key, message: `is a tuning option: pass it as tuning.${key}` });
  }
  const tuning: unknown = options.tuning;
  if (tuning === undefined) return {};
  if (tuning === null || typeof tuning !== 'object' || Array.isArray(tuning))
    throw new InvalidArgumentError({ argument: 'tuning', message: 'must be an object' });
  for (const key of Object.keys(tuning)) {
    if (!MERGE_TUNING_KEYS.includes(key)) {
      throw new InvalidArgumentError({ argument: `tuning.${key}`, message: `is not a tuning option (${MERGE_TUNING_KEYS.join(', ')})` });
    }
  }
  return tuning as MergeExtractionsTuning;
}

export function mergeExtractions(options: MergeExtractionsOptions): MergeExtractionsResult {
  const tuning = checkMergeTuning(options);
  const maxDescription = options.maxDescriptionLength ?? 600;
  const maxAliases = options.maxAliases ?? 20;
  const maxKeywords = options.maxKeywords ?? 12;
  const trace: MergeTrace = {
    entityMentions: 0,
    relationMentions: 0,
    entities: 0,
    relations: 0,
    abbreviations: 0,
    resolvedByAbbreviation: 0,
    droppedEmptyNames: 0,
    droppedSelfLoops: 0,
    implicitEntities: 0,
    suffixLinks: 0,
  };

  // Pass 1: abbreviation definitions, voted; each chunk's ordinal (chunks are named by ordinal below).
  const definitions = new Map<string, Map<string, number>>();
  const define = (raw: string) => {
    const parsed = parseEntityName(raw);
    if (!parsed.abbreviation) return;
    const abbreviationKey = entityKey(parsed.abbreviation);
    const longKey = entityKey(parsed.name);
    if (abbreviationKey === '' || longKey === '' || abbreviationKey === longKey) return;
    let votes = definitions.get(abbreviationKey);
    if (!votes) definitions.set(abbreviationKey, (votes = new Map()));
    votes.set(longKey, (votes.get(longKey) ?? 0) + 1);
  };
  const chunkOrdinals = new Map<string, number>();
  const chunkIds: string[] = [];
  // Whether a chunk's extractions come back after another chunk's: then a chunk's spans are not all
  // at the end of an entity's list, and duplicates are searched in the whole list.
  let chunksRepeat = false;
  let lastChunk = -1;
  for (const { chunkId, extraction } of options.extractions) {
    let ordinal = chunkOrdinals.get(chunkId);
    if (ordinal === undefined) {
      ordinal = chunkIds.length;
      chunkOrdinals.set(chunkId, ordinal);
      chunkIds.push(chunkId);
    } else if (ordinal !== lastChunk) {
      chunksRepeat = true;
    }
    lastChunk = ordinal;
    for (const entity of extraction.entities) define(entity.name);
    for (const relation of extraction.relations) {
      define(relation.source);
      define(relation.target);
    }
  }
  const aliasOf = new Map<string, string>();
  for (const [abbreviationKey, votes] of definitions) {
    // Highest count wins; ties → lexicographically smallest long form (order-independent).
    let best = '';
    let bestCount = -1;
    for (const [longKey, count] of votes) {
      if (count > bestCount || (count === bestCount && longKey < best)) {
        best = longKey;
        bestCount = count;
      }
    }
    aliasOf.set(abbreviationKey, best);
  }
  definitions.clear();
  trace.abbreviations = aliasOf.size;

  type Resolved = { key: string; surface: string; abbreviation?: string; viaAbbreviation: boolean };
  const resolved = new Map<string, Resolved | undefined>();
  const resolveUncached = (raw: string): Resolved | undefined => {
    const parsed = parseEntityName(raw);
    const surface = displayName(parsed.name);
    let key = entityKey(parsed.name);
    if (key === '') return undefined;
    const long = aliasOf.get(key);
    let viaAbbreviation = false;
    if (long !== undefined && !parsed.abbreviation) {
      key = long;
      viaAbbreviation = true;
    }
    return { key, surface, abbreviation: parsed.abbreviation, viaAbbreviation };
  };
  const resolve = (raw: string): Resolved | undefined => {
    if (typeof raw !== 'string') return undefined;
    let result = resolved.get(raw);
    if (result === undefined && !resolved.has(raw)) {
      result = resolveUncached(raw);
      resolved.set(raw, result);
    }
    if (result?.viaAbbreviation) trace.resolvedByAbbreviation++;
    return result;
  };

  // Accumulators in first-seen order (an entity's ordinal is its position; the output keeps the order).
  const entityOrdinals = new Map<string, number>();
  const entityList: (EntityAccumulator | undefined)[] = [];
  const relationList: (RelationAccumulator | undefined)[] = [];
  // Relations by endpoint pair (one accumulator, or several when a pair has several labels).
  const relationsByPair = new Map<number, RelationAccumulator | RelationAccumulator[]>();
  const pairKey = (source: number, target: number) => source * MAX_ENTITIES + target;
  // Lookup maps of the tallies and span lists that grew long (the lists stay the record).
  const tallyIndexes = new WeakMap<Tally, Map<string, number>>();
  const spanIndexes = new WeakMap<number[], Set<string>>();

  const tallyAdd = (tally: Tally | undefined, value: string, weight: number): Tally => {
    // Made with its first vote at its exact size: an array grown from [] by push reserves 16 slots,
    // and most tallies, chunk lists and span lists of a corpus never hold more than one item.
    if (!tally) return [value, weight];
    let at: number | undefined;
    const index = tallyIndexes.get(tally);
    if (index) at = index.get(value);
    else {
      for (let i = 0; i < tally.length; i += 2) {
        if (tally[i] === value) {
          at = i;
          break;
        }
      }
    }
    if (at !== undefined) {
      (tally[at + 1] as number) += weight;
      return tally;
    }
    tally.push(value, weight);
    if (index) index.set(value, tally.length - 2);
    else if (tally.length > 2 * TALLY_SCAN_LIMIT) {
      const made = new Map<string, number>();
      for (let i = 0; i < tally.length; i += 2) made.set(tally[i] as string, i);
      tallyIndexes.set(tally, made);
    }
    return tally;
  };

  /** Append a chunk's spans to a list, each once (the chunk's own spans are at the list's end). */
  const addSpans = (list: number[] | undefined, chunk: number, spans: readonly ChunkOffsets[] | undefined): number[] | undefined => {
    if (!Array.isArray(spans)) return list;
    for (const span of spans) {
      if (!span || !Number.isInteger(span.start) || !Number.isInteger(span.end) || span.start < 0 || span.end <= span.start) continue;
      if (!list) {
        list = [chunk, span.start, span.end];
        continue;
      }
      if (hasSpan(list, chunk, span.start, span.end)) continue;
      list.push(chunk, span.start, span.end);
      spanIndexes.get(list)?.add(`${chunk},${span.start},${span.end}`);
    }
    return list;
  };
  const hasSpan = (list: number[], chunk: number, start: number, end: number): boolean => {
    if (!chunksRepeat) {
      for (let i = list.length - 3; i >= 0 && list[i] === chunk; i -= 3) {
        if (list[i + 1] === start && list[i + 2] === end) return true;
      }
      return false;
    }
    let keys = spanIndexes.get(list);
    if (!keys) {
      if (list.length < 3 * SPAN_SCAN_LIMIT) {
        for (let i = 0; i < list.length; i += 3) if (list[i] === chunk && list[i + 1] === start && list[i + 2] === end) return true;
        return false;
      }
      keys = new Set();
      for (let i = 0; i < list.length; i += 3) keys.add(`${list[i]},${list[i + 1]},${list[i + 2]}`);
      spanIndexes.set(list, keys);
    }
    return keys.has(`${chunk},${start},${end}`);
  };
  const addChunk = (chunks: number[], chunk: number) => {
    if (chunks.length > 0 && chunks[chunks.length - 1] === chunk) return;
    if (chunksRepeat && chunks.includes(chunk)) return;
    chunks.push(chunk);
  };
  const spansOf = (list: number[] | undefined): TextSpan[] | undefined => {
    if (!list) return undefined;
    const spans = new Array<TextSpan>(list.length / 3);
    for (let i = 0; i < list.length; i += 3) spans[i / 3] = { chunkId: chunkIds[list[i]], start: list[i + 1], end: list[i + 2] };
    return spans;
  };

  /** The ordinal of the entity with this key, its accumulator made (in this chunk) when it is new. */
  const accumulator = (key: string, chunk: number): number => {
    let ordinal = entityOrdinals.get(key);
    if (ordinal === undefined) {
      ordinal = entityList.length;
      if (ordinal >= MAX_ENTITIES) throw new InvalidArgumentError({ argument: 'extractions', message: `name more than ${MAX_ENTITIES} entities` });
      entityOrdinals.set(key, ordinal);
      entityList.push({
        key,
        surfaces: undefined,
        abbreviations: undefined,
        types: undefined,
        descriptions: undefined,
        descriptionLength: 0,
        chunks: [chunk],
        spans: undefined,
        questionLike: false,
        mentionCount: 0,
      });
    }
    return ordinal;
  };

  const noteName = (entry: EntityAccumulator, resolved: Resolved, weight: number) => {
    // A bare abbreviation ("BCC") is an alias, never the display name of its long form.
    const abbreviation = resolved.abbreviation ?? (resolved.viaAbbreviation ? resolved.surface : undefined);
    if (resolved.surface !== '' && !resolved.viaAbbreviation) entry.surfaces = tallyAdd(entry.surfaces, resolved.surface, weight);
    if (abbreviation) {
      if (!entry.abbreviations) entry.abbreviations = [abbreviation];
      else if (!entry.abbreviations.includes(abbreviation)) entry.abbreviations.push(abbreviation);
    }
  };

  // One string per distinct description: the offline extractor describes every entity and relation
  // of a sentence by that sentence, and each parsed mention brings its own copy of it.
  const descriptionTexts = new Map<string, string>();
  const intern = (text: string): string => {
    const known = descriptionTexts.get(text);
    if (known !== undefined) return known;
    descriptionTexts.set(text, text);
    return text;
  };

  // Pass 2: mentions into accumulators.
  for (const { chunkId, extraction } of options.extractions) {
    const chunk = chunkOrdinals.get(chunkId)!;
    for (const mention of extraction.entities) {
      trace.entityMentions++;
      const resolved = resolve(mention.name);
      if (!resolved) {
        trace.droppedEmptyNames++;
        continue;
      }
      const entry = entityList[accumulator(resolved.key, chunk)]!;
      entry.mentionCount++;
      noteName(entry, resolved, 2);
      const type = mention.type.trim().toUpperCase();
      if (type !== '') entry.types = tallyAdd(entry.types, type, 1);
      addDescription(entry, mention.description, maxDescription, intern);
      addChunk(entry.chunks, chunk);
      entry.spans = addSpans(entry.spans, chunk, mention.spans);
      if (mention.questionLike) entry.questionLike = true;
    }
    for (const mention of extraction.relations) {
      trace.relationMentions++;
      const source = resolve(mention.source);
      const target = resolve(mention.target);
      if (!source || !target) {
        trace.droppedEmptyNames++;
        continue;
      }
      if (source.key === target.key) {
        trace.droppedSelfLoops++;
        continue;
      }
      const endpoints: number[] = [];
      for (const endpoint of [source, target]) {
        const ordinal = accumulator(endpoint.key, chunk);
        const entry = entityList[ordinal]!;
        // Endpoint names count less than entity mentions when choosing the display name (1 against 2).
        noteName(entry, endpoint, 1);
        addChunk(entry.chunks, chunk);
        entry.spans = addSpans(entry.spans, chunk, mention.spans);
        endpoints.push(ordinal);
      }
      const label = mention.label.replace(/\s+/g, ' ').trim() || 'related to';
      const labelKey = relationLabelKey(label) || 'related to';
      const pair = pairKey(endpoints[0], endpoints[1]);
      const found = relationsByPair.get(pair);
      let relation = Array.isArray(found) ? found.find((r) => r.labelKey === labelKey) : found?.labelKey === labelKey ? found : undefined;
      if (!relation) {
        relation = {
          source: endpoints[0],
          target: endpoints[1],
          labelKey,
          labels: undefined,
          keywords: undefined,
          descriptions: undefined,
          descriptionLength: 0,
          chunks: [chunk],
          weight: 0,
          spans: undefined,
        };
        relationList.push(relation);
        if (found === undefined) relationsByPair.set(pair, relation);
        else if (Array.isArray(found)) found.push(relation);
        else relationsByPair.set(pair, [found, relation]);
      }
      relation.weight++;
      relation.labels = tallyAdd(relation.labels, label, 1);
      for (const keyword of mention.keywords) {
        if (typeof keyword !== 'string') continue;
        const k = keyword.replace(/\s+/g, ' ').trim().toLowerCase();
        if (k !== '') relation.keywords = tallyAdd(relation.keywords, k, 1);
      }
      addDescription(relation, mention.description, maxDescription, intern);
      addChunk(relation.chunks, chunk);
      relation.spans = addSpans(relation.spans, chunk, mention.spans);
    }
  }

  // The passes' caches are done with; each accumulator is dropped as soon as its merged entity or
  // relation is made, so the accumulators and the merged output are not both held whole. The
  // suffix links below need only which endpoint pairs are related: sorted numbers, searched.
  resolved.clear();
  chunkOrdinals.clear();
  descriptionTexts.clear();
  const relatedPairs = Float64Array.from(relationsByPair.keys()).sort();
  relationsByPair.clear();
  const chunkIdsOf = (chunks: number[]) => chunks.map((chunk) => chunkIds[chunk]);
  const mergedEntities: MergedEntity[] = [];
  for (let ordinal = 0; ordinal < entityList.length; ordinal++) {
    const entry = entityList[ordinal]!;
    entityList[ordinal] = undefined;
    const name = tallyWinner(entry.surfaces) ?? entry.abbreviations?.[0] ?? entry.key;
    const seen = new Set([name.toLowerCase()]);
    const aliases: string[] = [];
    for (const alias of [...(entry.abbreviations ?? []), ...(entry.surfaces ? tallyValues(entry.surfaces) : [])]) {
      const lower = alias.toLowerCase();
      if (seen.has(lower)) continue;
      seen.add(lower);
      aliases.push(alias);
      if (aliases.length >= maxAliases) break;
    }
    if (!entry.types) trace.implicitEntities++;
    const spans = spansOf(entry.spans);
    mergedEntities.push({
      id: entityIdFromKey(entry.key),
      key: entry.key,
      name,
      aliases: aliases.length > 0 ? aliases.slice() : aliases, // at its exact size (see tallyAdd)
      type: tallyWinner(entry.types) ?? 'UNKNOWN',
      description: joinDescriptions(entry.descriptions ?? [], maxDescription),
      chunkIds: chunkIdsOf(entry.chunks),
      questionLike: entry.questionLike,
      mentionCount: entry.mentionCount,
      ...(spans ? { spans } : {}),
    });
  }

  // Relations name their endpoints with the entities' own id strings (not a new string per relation).
  const mergedRelations: MergedRelation[] = [];
  for (let i = 0; i < relationList.length; i++) {
    const relation = relationList[i]!;
    relationList[i] = undefined;
    const sourceId = mergedEntities[relation.source].id;
    const targetId = mergedEntities[relation.target].id;
    const keywords: string[] = [];
    if (relation.keywords) {
      const ranked: number[] = [];
      for (let at = 0; at < relation.keywords.length; at += 2) ranked.push(at);
      // Most mentioned first; ties in first-seen order.
      ranked.sort((a, b) => (relation.keywords![b + 1] as number) - (relation.keywords![a + 1] as number) || a - b);
      for (const at of ranked.slice(0, maxKeywords)) keywords.push(relation.keywords[at] as string);
    }
    const spans = spansOf(relation.spans);
    mergedRelations.push({
      id: relationIdFromKey(sourceId, relation.labelKey, targetId),
      source: sourceId,
      target: targetId,
      label: tallyWinner(relation.labels) ?? relation.labelKey,
      keywords,
      description: joinDescriptions(relation.descriptions ?? [], maxDescription),
      chunkIds: chunkIdsOf(relation.chunks),
      weight: relation.weight,
      ...(spans ? { spans } : {}),
    });
  }

  if (tuning.linkNameSuffixes !== false) {
    const related = (a: number, b: number) => sortedHas(relatedPairs, pairKey(a, b)) || sortedHas(relatedPairs, pairKey(b, a));
    const labelKey = relationLabelKey(SUFFIX_LINK_LABEL);
    for (let ordinal = 0; ordinal < mergedEntities.length; ordinal++) {
      const entity = mergedEntities[ordinal];
      const words = entity.key.split(' ');
      for (let i = 1; i < words.length; i++) {
        const suffixOrdinal = entityOrdinals.get(words.slice(i).join(' '));
        if (suffixOrdinal === undefined) continue;
        // The longest entity name of two words or more that the name ends with.
        if (words.length - i < 2) break;
        // Each name gets at most one link, to a shorter name: only relations already merged can join the pair.
        if (related(ordinal, suffixOrdinal)) break;
        const suffix = mergedEntities[suffixOrdinal];
        mergedRelations.push({
          id: relationIdFromKey(entity.id, labelKey, suffix.id),
          source: entity.id,
          target: suffix.id,
          label: SUFFIX_LINK_LABEL,
          keywords: [],
          description: `${entity.name} ${SUFFIX_LINK_LABEL} ${suffix.name}`,
          chunkIds: entity.chunkIds.slice(),
          weight: 1,
          ...(entity.spans ? { spans: entity.spans.slice(0, 4) } : {}),
        });
        trace.suffixLinks++;
        break;
      }
    }
  }
  entityOrdinals.clear();

  trace.entities = mergedEntities.length;
  trace.relations = mergedRelations.length;
  return { entities: mergedEntities, relations: mergedRelations, trace };
}
