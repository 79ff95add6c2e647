import type { NodeSummary, RelationEdge } from '@mosaic/spec';
import { matchTokens, normalizeLabel } from '@mosaic/stage-utils';

/** The question-independent text features of a node: token sets of its names and text. */
export interface NodeTextFeatures {
  /** Content tokens of the name and of each alias, in that order. */
  nameTokenSets: readonly ReadonlySet<string>[];
  /** Content tokens of "name description" (made when first read: only a question's facets read them). */
  readonly descriptive: ReadonlySet<string>;
  /** Normalised name. */
  nameKey: string;
  /** The name ends in '?'. */
  questionMark: boolean;
}

/** The question-independent text features of a relation. */
export interface EdgeTextFeatures {
  /** Content tokens of "label keywords description" (made when first read: only a question's facets read them). */
  readonly textTokens: ReadonlySet<string>;
  /** Content tokens of "label keywords". */
  tokens: ReadonlySet<string>;
  labelKey: string;
  chunkIds: ReadonlySet<string>;
}

interface NodeEntry {
  name: string;
  description: string;
  aliases: readonly string[];
  features: NodeTextFeatures;
}

interface EdgeEntry {
  label: string;
  description: string;
  keywords: readonly string[];
  chunkIds: readonly string[];
  features: EdgeTextFeatures;
}

/**
 * A node's text features, the tokens of its description made the first time they are read: a
 * description is most of a node's text (a hub's runs to thousands of characters), and only a
 * question with facets reads them.
 */
class NodeText implements NodeTextFeatures {
  #descriptive: ReadonlySet<string> | undefined;

  constructor(
    readonly nameTokenSets: readonly ReadonlySet<string>[],
    readonly nameKey: string,
    readonly questionMark: boolean,
    private readonly name: string,
    private readonly description: string,
  ) {}

  get descriptive(): ReadonlySet<string> {
    this.#descriptive ??= new Set(matchTokens(`${this.name} ${this.description}`));
    return this.#descriptive;
  }
}

/** A relation's text features, the tokens of its whole text made the first time they are read (see `NodeText`). */
class EdgeText implements EdgeTextFeatures {
  #textTokens: ReadonlySet<string> | undefined;

  constructor(
    readonly tokens: ReadonlySet<string>,
    readonly labelKey: string,
    readonly chunkIds: ReadonlySet<string>,
    private readonly labelAndKeywords: string,
    private readonly description: string,
  ) {}

  get textTokens(): ReadonlySet<string> {
    this.#textTokens ??= new Set(matchTokens(`${this.labelAndKeywords} ${this.description}`));
    return this.#textTokens;
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

export interface TextFeaturesCacheOptions {
  /** Entries kept per kind before the cache is emptied and starts again (default 200,000). */
  maxEntries?: number;
}

/**
 * Caches the tokenised text of nodes and relations across questions (tokenising names and
 * descriptions dominates feature building otherwise; a description is tokenized only when its
 * tokens are first read). An entry is keyed by id and reused only
 * while the node's name, aliases and description (the relation's label, keywords, description
 * and chunk ids) are unchanged, so the features are always those of the object passed in.
 * The returned sets are shared: callers must not modify them.
 */
export class TextFeaturesCache {
  private readonly nodes = new Map<string, NodeEntry>();
  private readonly edges = new Map<string, EdgeEntry>();
  private readonly maxEntries: number;

  constructor(options: TextFeaturesCacheOptions = {}) {
    this.maxEntries = Math.max(1, Math.floor(options.maxEntries ?? 200_000));
  }

  /** Entries currently cached (nodes + relations). */
  get size(): number {
    return this.nodes.size + this.edges.size;
  }

  node(entity: Pick<NodeSummary, 'id' | 'name' | 'aliases' | 'description'>): NodeTextFeatures {
    const description = entity.description ?? '';
    const aliases = entity.aliases ?? [];
    const cached = this.nodes.get(entity.id);
    if (cached && cached.name === entity.name && cached.description === description && sameList(cached.aliases, aliases)) {
      return cached.features;
    }
    const features = new NodeText(
      [entity.name, ...aliases].map((text) => new Set(matchTokens(text))),
      normalizeLabel(entity.name),
      /\?\s*$/.test(entity.name),
      entity.name,
      description,
    );
    if (this.nodes.size >= this.maxEntries) this.nodes.clear();
    this.nodes.set(entity.id, { name: entity.name, description, aliases: [...aliases], features });
    return features;
  }

  edge(relation: RelationEdge): EdgeTextFeatures {
    const description = relation.description ?? '';
    const keywordList = relation.keywords ?? [];
    const chunkList = relation.chunkIds ?? [];
    const cached = this.edges.get(relation.id);
    if (
      cached &&
      cached.label === relation.label &&
      cached.description === description &&
      sameList(cached.keywords, keywordList) &&
      sameList(cached.chunkIds, chunkList)
    ) {
      return cached.features;
    }
    const labelAndKeywords = `${relation.label} ${keywordList.join(' ')}`;
    const features = new EdgeText(new Set(matchTokens(labelAndKeywords)), normalizeLabel(relation.label), new Set(chunkList), labelAndKeywords, description);
    if (this.edges.size >= this.maxEntries) this.edges.clear();
    this.edges.set(relation.id, { label: relation.label, description, keywords: [...keywordList], chunkIds: [...chunkList], features });
    return features;
  }
}
