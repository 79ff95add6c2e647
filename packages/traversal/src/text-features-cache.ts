import type { NodeSummary, RelationEdge } from '@mosaic/spec';
import { matchTokens, normalizeLabel } from '@mosaic/stage-utils';

/** The question-independent text features of a node: token sets of its names and text. */
export interface NodeTextFeatures {
  /** Content tokens of the name and of each alias, in that order. */
  nameTokenSets: readonly ReadonlySet<string>[];
  /** Content tokens of "name description". */
  descriptive: ReadonlySet<string>;
  /** Normalised name. */
  nameKey: string;
  /** The name ends in '?'. */
  questionMark: boolean;
}

/** The question-independent text features of a relation. */
export interface EdgeTextFeatures {
  /** Content tokens of "label keywords description". */
  textTokens: ReadonlySet<string>;
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
 * descriptions dominates feature building otherwise). An entry is keyed by id and reused only
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
    const features: NodeTextFeatures = {
      nameTokenSets: [entity.name, ...aliases].map((text) => new Set(matchTokens(text))),
      descriptive: new Set(matchTokens(`${entity.name} ${description}`)),
      nameKey: normalizeLabel(entity.name),
      questionMark: /\?\s*$/.test(entity.name),
    };
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
    const keywords = keywordList.join(' ');
    const features: EdgeTextFeatures = {
      textTokens: new Set(matchTokens(`${relation.label} ${keywords} ${description}`)),
      tokens: new Set(matchTokens(`${relation.label} ${keywords}`)),
      labelKey: normalizeLabel(relation.label),
      chunkIds: new Set(chunkList),
    };
    if (this.edges.size >= this.maxEntries) this.edges.clear();
    this.edges.set(relation.id, { label: relation.label, description, keywords: [...keywordList], chunkIds: [...chunkList], features });
    return features;
  }
}
