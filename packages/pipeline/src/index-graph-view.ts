import { throwIfAborted } from '@mosaic/spec';
import type { AbortOptions, AnalyzerGraphView, CorpusIndex } from '@mosaic/spec';

/** Lower-case, trimmed, inner whitespace collapsed, surrounding punctuation dropped. */
export function normalizeMention(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

export interface IndexGraphViewOptions extends AbortOptions {
  index: CorpusIndex;
  /** Nodes fetched per getNodes call while building the name table (default 2,000). */
  batchSize?: number;
  /** Nodes a `connected` search may visit before it answers false (default 20,000). */
  maxVisited?: number;
}

/**
 * The graph facts an analyzer may consult, read from a corpus index: `lookup` resolves mentions by exact
 * (normalised) name or alias, `connected` is a breadth-first search over `graph.neighbors` (one batch per
 * hop). The name table is built on first use from `index.entityIds` and cached in this view; when two
 * nodes share a name, the first in `entityIds` order wins.
 */
export function createIndexGraphView(options: IndexGraphViewOptions): AnalyzerGraphView {
  const { index } = options;
  const batchSize = options.batchSize ?? 2000;
  const maxVisited = options.maxVisited ?? 20000;
  let names: Promise<Map<string, string>> | undefined;
  const nameTable = async (): Promise<Map<string, string>> => {
    const table = new Map<string, string>();
    for (let i = 0; i < index.entityIds.length; i += batchSize) {
      throwIfAborted(options.abortSignal, 'analyze');
      for (const node of await index.graph.getNodes(index.entityIds.slice(i, i + batchSize))) {
        for (const name of [node.name, ...node.aliases]) {
          const key = normalizeMention(name);
          if (key.length > 0 && !table.has(key)) table.set(key, node.id);
        }
      }
    }
    return table;
  };
  return {
    async lookup(mentions) {
      names ??= nameTable();
      let table: Map<string, string>;
      try {
        table = await names;
      } catch (error) {
        names = undefined;
        throw error;
      }
      const found = new Map<string, string>();
      for (const mention of mentions) {
        const id = table.get(normalizeMention(mention));
        if (id !== undefined) found.set(mention, id);
      }
      return found;
    },
    async connected(a, b, hops) {
      if (a === b) return true;
      const visited = new Set([a]);
      let frontier = [a];
      for (let hop = 0; hop < hops && frontier.length > 0; hop += 1) {
        const neighbors = await index.graph.neighbors(frontier);
        const next: string[] = [];
        for (const id of frontier) {
          for (const neighbor of neighbors.get(id) ?? []) {
            if (neighbor.node === b) return true;
            if (!visited.has(neighbor.node)) {
              visited.add(neighbor.node);
              next.push(neighbor.node);
            }
          }
        }
        if (visited.size > maxVisited) return false;
        frontier = next;
      }
      return false;
    },
  };
}
