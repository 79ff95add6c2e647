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

interface EntityAccumulator {
  key: string;
  order: number;
  surfaces: Map<string, { count: number; order: number }>;
  abbreviations: string[];
  types: Map<string, { count: number; order: number }>;
  descriptions: string[];
  descriptionLength: number;
  chunkIds: Set<string>;
  questionLike: boolean;
  mentionCount: number;
  spans: SpanSet;
}

interface RelationAccumulator {
  sourceKey: string;
  targetKey: string;
  labelKey: string;
  labels: Map<string, { count: number; order: number }>;
  keywords: Map<string, { count: number; order: number }>;
  descriptions: string[];
  descriptionLength: number;
  chunkIds: Set<string>;
  weight: number;
  spans: SpanSet;
}

/**
 * Sentence spans in first-seen order, each once. Most entities and relations have a few spans, so
 * a short list is searched as it is; a key set is made only once the list is long (one string
 * per span for every entity and relation of a large corpus was a good part of the merge's memory).
 */
class SpanSet {
  readonly list: TextSpan[] = [];
  #seen?: Set<string>;

  add(chunkId: string, spans: readonly ChunkOffsets[] | undefined): void {
    if (!Array.isArray(spans)) return;
    for (const span of spans) {
      if (!span || !Number.isInteger(span.start) || !Number.isInteger(span.end) || span.start < 0 || span.end <= span.start) continue;
      if (this.#has(chunkId, span.start, span.end)) continue;
      this.list.push({ chunkId, start: span.start, end: span.end });
      this.#seen?.add(spanKey(chunkId, span.start, span.end));
    }
  }

  #has(chunkId: string, start: number, end: number): boolean {
    if (this.#seen) return this.#seen.has(spanKey(chunkId, start, end));
    if (this.list.length < SPAN_SCAN_LIMIT) {
      return this.list.some((span) => span.start === start && span.end === end && span.chunkId === chunkId);
    }
    this.#seen = new Set(this.list.map((span) => spanKey(span.chunkId, span.start, span.end)));
    return this.#seen.has(spanKey(chunkId, start, end));
  }
}

/** Spans a SpanSet searches one by one before it keeps a key set. */
const SPAN_SCAN_LIMIT = 32;

const spanKey = (chunkId: string, start: number, end: number) => `${chunkId}\u0000${start}\u0000${end}`;

function vote(map: Map<string, { count: number; order: number }>, value: string, weight = 1): void {
  const entry = map.get(value);
  if (entry) entry.count += weight;
  else map.set(value, { count: weight, order: map.size });
}

/** The value with the highest count; ties go to the earliest seen. */
function winner(map: Map<string, { count: number; order: number }>): string | undefined {
  let best: string | undefined;
  let bestCount = -1;
  let bestOrder = Infinity;
  for (const [value, { count, order }] of map) {
    if (count > bestCount || (count === bestCount && order < bestOrder)) {
      best = value;
      bestCount = count;
      bestOrder = order;
    }
  }
  return best;
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
function addDescription(target: { descriptions: string[]; descriptionLength: number }, description: string, max: number): void {
  if (target.descriptionLength >= max || typeof description !== 'string') return;
  const text = (/\s\s|[\t\n\r]/.test(description) ? description.replace(/\s+/g, ' ') : description).trim();
  if (text === '' || target.descriptions.includes(text)) return;
  target.descriptions.push(text);
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

  // Pass 1: abbreviation definitions, voted.
  const definitions = new Map<string, Map<string, { count: number; order: number }>>();
  const define = (raw: string) => {
    const parsed = parseEntityName(raw);
    if (!parsed.abbreviation) return;
    const abbreviationKey = entityKey(parsed.abbreviation);
    const longKey = entityKey(parsed.name);
    if (abbreviationKey === '' || longKey === '' || abbreviationKey === longKey) return;
    let votes = definitions.get(abbreviationKey);
    if (!votes) definitions.set(abbreviationKey, (votes = new Map()));
    vote(votes, longKey);
  };
  for (const { extraction } of options.extractions) {
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
    for (const [longKey, { count }] of votes) {
      if (count > bestCount || (count === bestCount && longKey < best)) {
        best = longKey;
        bestCount = count;
      }
    }
    aliasOf.set(abbreviationKey, best);
  }
  trace.abbreviations = aliasOf.size;

  const entities = new Map<string, EntityAccumulator>();
  const relations = new Map<string, RelationAccumulator>();

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

  const accumulator = (key: string): EntityAccumulator => {
    let entry = entities.get(key);
    if (!entry) {
      entry = {
        key,
        order: entities.size,
        surfaces: new Map(),
        abbreviations: [],
        types: new Map(),
        descriptions: [],
        descriptionLength: 0,
        chunkIds: new Set(),
        questionLike: false,
        mentionCount: 0,
        spans: new SpanSet(),
      };
      entities.set(key, entry);
    }
    return entry;
  };

  const noteName = (entry: EntityAccumulator, resolved: Resolved, weight: number) => {
    // A bare abbreviation ("BCC") is an alias, never the display name of its long form.
    const abbreviation = resolved.abbreviation ?? (resolved.viaAbbreviation ? resolved.surface : undefined);
    if (resolved.surface !== '' && !resolved.viaAbbreviation) vote(entry.surfaces, resolved.surface, weight);
    if (abbreviation && !entry.abbreviations.includes(abbreviation)) entry.abbreviations.push(abbreviation);
  };

  for (const { chunkId, extraction } of options.extractions) {
    for (const mention of extraction.entities) {
      trace.entityMentions++;
      const resolved = resolve(mention.name);
      if (!resolved) {
        trace.droppedEmptyNames++;
        continue;
      }
      const entry = accumulator(resolved.key);
      entry.mentionCount++;
      noteName(entry, resolved, 1);
      const type = mention.type.trim().toUpperCase();
      if (type !== '') vote(entry.types, type);
      addDescription(entry, mention.description, maxDescription);
      entry.chunkIds.add(chunkId);
      entry.spans.add(chunkId, mention.spans);
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
      for (const endpoint of [source, target]) {
        const entry = accumulator(endpoint.key);
        // Endpoint names count less than entity mentions when choosing the display name.
        noteName(entry, endpoint, 0.5);
        entry.chunkIds.add(chunkId);
        entry.spans.add(chunkId, mention.spans);
      }
      const label = mention.label.replace(/\s+/g, ' ').trim() || 'related to';
      const labelKey = relationLabelKey(label) || 'related to';
      const relationKey = `${source.key}\t${labelKey}\t${target.key}`;
      let relation = relations.get(relationKey);
      if (!relation) {
        relation = {
          sourceKey: source.key,
          targetKey: target.key,
          labelKey,
          labels: new Map(),
          keywords: new Map(),
          descriptions: [],
          descriptionLength: 0,
          chunkIds: new Set(),
          weight: 0,
          spans: new SpanSet(),
        };
        relations.set(relationKey, relation);
      }
      relation.weight++;
      vote(relation.labels, label);
      for (const keyword of mention.keywords) {
        if (typeof keyword !== 'string') continue;
        const k = keyword.replace(/\s+/g, ' ').trim().toLowerCase();
        if (k !== '') vote(relation.keywords, k);
      }
      addDescription(relation, mention.description, maxDescription);
      relation.chunkIds.add(chunkId);
      relation.spans.add(chunkId, mention.spans);
    }
  }

  // The passes' caches are done with; each accumulator is dropped as soon as its merged entity or
  // relation is made, so the accumulators and the merged output are not both held whole.
  resolved.clear();
  definitions.clear();
  const mergedEntities: MergedEntity[] = [];
  for (const entry of entities.values()) {
    entities.delete(entry.key);
    const name = winner(entry.surfaces) ?? entry.abbreviations[0] ?? entry.key;
    const seen = new Set([name.toLowerCase()]);
    const aliases: string[] = [];
    const candidates = [...entry.surfaces.entries()].sort((a, b) => a[1].order - b[1].order).map(([surface]) => surface);
    for (const alias of [...entry.abbreviations, ...candidates]) {
      const lower = alias.toLowerCase();
      if (seen.has(lower)) continue;
      seen.add(lower);
      aliases.push(alias);
      if (aliases.length >= maxAliases) break;
    }
    if (entry.types.size === 0) trace.implicitEntities++;
    mergedEntities.push({
      id: entityIdFromKey(entry.key),
      key: entry.key,
      name,
      aliases,
      type: winner(entry.types) ?? 'UNKNOWN',
      description: joinDescriptions(entry.descriptions, maxDescription),
      chunkIds: [...entry.chunkIds],
      questionLike: entry.questionLike,
      mentionCount: entry.mentionCount,
      ...(entry.spans.list.length > 0 ? { spans: entry.spans.list } : {}),
    });
  }

  // Relations name their endpoints with the entities' own id strings (not a new string per relation).
  const byKey = new Map(mergedEntities.map((entity) => [entity.key, entity]));
  const mergedRelations: MergedRelation[] = [];
  for (const [relationKey, relation] of relations) {
    relations.delete(relationKey);
    const sourceId = byKey.get(relation.sourceKey)?.id ?? entityIdFromKey(relation.sourceKey);
    const targetId = byKey.get(relation.targetKey)?.id ?? entityIdFromKey(relation.targetKey);
    const keywords = [...relation.keywords.entries()]
      .sort((a, b) => b[1].count - a[1].count || a[1].order - b[1].order)
      .slice(0, maxKeywords)
      .map(([keyword]) => keyword);
    mergedRelations.push({
      id: relationIdFromKey(sourceId, relation.labelKey, targetId),
      source: sourceId,
      target: targetId,
      label: winner(relation.labels) ?? relation.labelKey,
      keywords,
      description: joinDescriptions(relation.descriptions, maxDescription),
      chunkIds: [...relation.chunkIds],
      weight: relation.weight,
      ...(relation.spans.list.length > 0 ? { spans: relation.spans.list } : {}),
    });
  }

  if (tuning.linkNameSuffixes !== false) {
    const linked = new Set(mergedRelations.map((relation) => `${relation.source}\t${relation.target}`));
    for (const entity of mergedEntities) {
      const words = entity.key.split(' ');
      for (let i = 1; i < words.length; i++) {
        const suffix = byKey.get(words.slice(i).join(' '));
        if (!suffix) continue;
        // The longest entity name of two words or more that the name ends with.
        if (words.length - i < 2) break;
        const pair = `${entity.id}\t${suffix.id}`;
        if (linked.has(pair) || linked.has(`${suffix.id}\t${entity.id}`)) break;
        linked.add(pair);
        const labelKey = relationLabelKey(SUFFIX_LINK_LABEL);
        mergedRelations.push({
          id: relationIdFromKey(entity.id, labelKey, suffix.id),
          source: entity.id,
          target: suffix.id,
          label: SUFFIX_LINK_LABEL,
          keywords: [],
          description: `${entity.name} ${SUFFIX_LINK_LABEL} ${suffix.name}`,
          chunkIds: [...entity.chunkIds],
          weight: 1,
          ...(entity.spans ? { spans: entity.spans.slice(0, 4) } : {}),
        });
        trace.suffixLinks++;
        break;
      }
    }
  }

  trace.entities = mergedEntities.length;
  trace.relations = mergedRelations.length;
  return { entities: mergedEntities, relations: mergedRelations, trace };
}
