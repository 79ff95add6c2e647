import { InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type {
  EntityNode,
  EvidenceSelection,
  EvidenceSelector,
  EvidenceTrace,
  EvidenceUnit,
  PathRole,
  RelationEdge,
  ScoredPath,
  SelectEvidenceOptions,
  SelectedPath,
  TextSpan,
} from '@mosaic/spec';
import { contentTokens, normalizeLabel, tokenContainment } from '@mosaic/text-match';

export interface EvidenceSelectorOptions {
  /**
   * Paths the shared filter looks at, best first. Default: ten (the report's figure), or the path
   * budget when the policy's B is larger (Fixed Wide selects up to 15 paths).
   */
  filterSize?: number;
  /**
   * Paths selected at most. Default: the policy's evidence count B (every selected path can then
   * contribute at least one unit, so the budget follows the policy instead of a fixed cap).
   */
  maxPaths?: number;
  /**
   * Sentences a relation unit grounds to at most (default 2): the relation's spans that share the
   * most content tokens with the question, earliest first on ties.
   */
  spansPerUnit?: number;
  /**
   * Sentences an entity unit grounds to at most: its mentions that share the most content tokens
   * with the question (default 8; tuned on the Medical development questions, 2/5/8 tried). An
   * entity the question names is where the graph meets the text, so it reaches further than one
   * relation's sentence.
   */
  spansPerEntity?: number;
  /**
   * With adaptive final evidence and the policy's connector view on, let the reserved connector slot
   * take the best connector path even when the shared filter did not consider it (default true).
   */
  connectorBeyondFilter?: boolean;
  /**
   * Set aside a unit whose sentences units ranked before it already ground (default true): B then
   * counts distinct statements, not the entities and relations one sentence yields.
   */
  dedupeSentences?: boolean;
  /** Core paths kept first with adaptive final evidence (default 4). */
  coreSlots?: number;
  /** Slots reserved for complementary roles with adaptive final evidence (default 4). */
  reservedSlots?: number;
  /**
   * The filter drops considered paths scoring more than this below the best path
   * (default Infinity: no score cut; the filter then only bounds the candidates to `filterSize`).
   */
  scoreMargin?: number;
  /** Token containment at or above which a path covers a target or facet (default 0.5). */
  matchThreshold?: number;
  /** Selector id (default 'mosaic-evidence'). */
  id?: string;
}

/** EvidenceTrace plus the filter and coverage details. */
export interface EvidenceSelectionTrace extends EvidenceTrace {
  /** Considered paths dropped by the score margin. */
  filtered: number;
  adaptive: boolean;
  /** Policy targets / facets covered by the selected paths. */
  coveredTargets: string[];
  coveredFacets: string[];
  /** Units set aside because units ranked before them already ground all their sentences. */
  redundant: string[];
  /** The evidence cap B and floor L applied. */
  evidenceCount: number;
  minEvidence: number;
}

interface PathInfo {
  path: ScoredPath;
  key: string;
  targets: Set<number>;
  facets: Set<number>;
  firstLabel: string;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The nodes and edges interleaved (n0|e0|n1|…), as `interleave` of the method defines it. */
function interleave(nodes: readonly string[], edges: readonly string[], reverse: boolean): string {
  const n = nodes.length;
  const e = edges.length;
  let out = '';
  for (let i = 0; i < n; i += 1) {
    if (i > 0) out += '|';
    out += reverse ? nodes[n - 1 - i] : nodes[i];
    if (i < e) out += `|${reverse ? edges[e - 1 - i] : edges[i]}`;
  }
  return out;
}

/**
 * Whether the forward interleaving sorts before the reversed one, when the end node ids settle
 * it: ids that differ before either ends decide the string comparison there. Undefined when one
 * is a prefix of the other (or they are equal) and the whole strings must be compared.
 */
function forwardFirst(first: string | undefined, last: string | undefined): boolean | undefined {
  if (first === undefined || last === undefined || first.startsWith(last) || last.startsWith(first)) return undefined;
  return first < last;
}

/** Direction-insensitive key: the smaller of the forward and reversed interleavings. */
function pathKey(nodes: readonly string[], edges: readonly string[]): string {
  const decided = forwardFirst(nodes[0], nodes[nodes.length - 1]);
  if (decided !== undefined) return interleave(nodes, edges, !decided);
  const forward = interleave(nodes, edges, false);
  const backward = interleave(nodes, edges, true);
  return forward <= backward ? forward : backward;
}

function comparePaths(a: ScoredPath, b: ScoredPath): number {
  return b.score - a.score || compareStrings(a.id, b.id);
}

const ENTITY_PREFIX = 'entity:';
/** The report's shared path filter: ten candidates. */
const DEFAULT_FILTER_SIZE = 10;
const RELATION_PREFIX = 'relation:';

/** A deduplicated path with its key and its position among the deduplicated paths. */
interface RankedEntry {
  key: string;
  path: ScoredPath;
  order: number;
}

/** Rank order: comparePaths, then first seen (a stable sort's order). */
function compareEntries(a: RankedEntry, b: RankedEntry): number {
  return comparePaths(a.path, b.path) || a.order - b.order;
}

/** The first `k` entries in rank order, without sorting them all. */
function topEntries(entries: readonly RankedEntry[], k: number): RankedEntry[] {
  if (k > 64 || k >= entries.length) return [...entries].sort(compareEntries).slice(0, k);
  const top: RankedEntry[] = [];
  if (k <= 0) return top;
  for (const entry of entries) {
    if (top.length >= k && compareEntries(entry, top[top.length - 1]) >= 0) continue;
    let low = 0;
    let high = top.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareEntries(top[middle], entry) <= 0) low = middle + 1;
      else high = middle;
    }
    top.splice(low, 0, entry);
    if (top.length > k) top.pop();
  }
  return top;
}

function count(value: number | undefined, name: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (!(value >= min) || Number.isNaN(value)) throw new InvalidArgumentError({ argument: name, message: `must be a number ≥ ${min}` });
  return Number.isFinite(value) ? Math.floor(value) : value;
}

/**
 * Evidence selection (report §5.6): deduplicate and rank paths, let a shared filter look at
 * ten at most, select the global top paths or — with adaptive final evidence — four core
 * paths, up to four role reservations (connector, uncovered target, uncovered facet, new first
 * relation) and a score fill; flatten into deduplicated entity/relation units, cap at B and
 * restore the best excluded units up to the floor L.
 */
export function createEvidenceSelector(options: EvidenceSelectorOptions = {}): EvidenceSelector {
  const filterSizeOption = options.filterSize === undefined ? undefined : count(options.filterSize, 'filterSize', 10, 1);
  const maxPathsOption = options.maxPaths === undefined ? undefined : count(options.maxPaths, 'maxPaths', 8, 1);
  const spansPerUnit = count(options.spansPerUnit, 'spansPerUnit', 2, 1);
  const spansPerEntity = count(options.spansPerEntity, 'spansPerEntity', 8, 1);
  const dedupeSentences = options.dedupeSentences ?? true;
  const connectorBeyondFilter = options.connectorBeyondFilter ?? true;
  // Content tokens of sentences, per chunk store (kept across questions, bounded).
  const sentenceTokensByStore = new WeakMap<object, Map<string, ReadonlySet<string>>>();
  const coreSlots = count(options.coreSlots, 'coreSlots', 4);
  const reservedSlots = count(options.reservedSlots, 'reservedSlots', 4);
  const scoreMargin = options.scoreMargin ?? Number.POSITIVE_INFINITY;
  if (Number.isNaN(scoreMargin) || scoreMargin < 0) throw new InvalidArgumentError({ argument: 'scoreMargin', message: 'must be ≥ 0' });
  const matchThreshold = options.matchThreshold ?? 0.5;
  if (!(matchThreshold >= 0 && matchThreshold <= 1)) throw new InvalidArgumentError({ argument: 'matchThreshold', message: 'must lie in [0,1]' });

  async function selectEvidence(selectOptions: SelectEvidenceOptions): Promise<EvidenceSelection> {
    const { context, index, paths, seeds, abortSignal } = selectOptions;
    throwIfAborted(abortSignal, 'evidence selection');
    const policy = context.policy;
    if (!(policy.evidenceCount >= 1)) throw new InvalidArgumentError({ argument: 'policy.evidenceCount', message: 'must be ≥ 1' });
    if (!(policy.minEvidence >= 0)) throw new InvalidArgumentError({ argument: 'policy.minEvidence', message: 'must be ≥ 0' });
    const evidenceCount = Math.floor(policy.evidenceCount);
    const minEvidence = Math.floor(policy.minEvidence);
    const maxPaths = maxPathsOption ?? evidenceCount;
    const filterWidth = filterSizeOption ?? Math.max(DEFAULT_FILTER_SIZE, maxPaths);
    const adaptive = policy.adaptiveFinalEvidence === true;

    // 1. Deduplicate (same node/edge sequence in either direction, best score kept) and rank.
    //    Only the filter's candidates are needed in rank order up front (a bounded selection);
    //    the full ranking is built only when the floor looks beyond them.
    const byKey = new Map<string, ScoredPath>();
    for (const path of paths) {
      if (path.edges.length === 0) continue;
      const key = pathKey(path.nodes, path.edges);
      const existing = byKey.get(key);
      if (!existing || comparePaths(path, existing) < 0) byKey.set(key, path);
    }
    const entries: RankedEntry[] = [];
    for (const [key, path] of byKey) entries.push({ key, path, order: entries.length });
    const consideredEntries = topEntries(entries, filterWidth);
    let fullRanking: RankedEntry[] | undefined;
    const ranked = (): RankedEntry[] => (fullRanking ??= [...entries].sort(compareEntries));

    // Graph facts for the considered paths (two graph calls); more only if the floor needs them.
    const nodes = new Map<string, EntityNode>();
    const edges = new Map<string, RelationEdge>();
    const fetched = { nodes: new Set<string>(), edges: new Set<string>() };
    const fetch = async (nodeIds: Iterable<string>, edgeIds: Iterable<string>) => {
      const wantNodes = [...new Set(nodeIds)].filter((id) => !fetched.nodes.has(id));
      const wantEdges = [...new Set(edgeIds)].filter((id) => !fetched.edges.has(id));
      for (const id of wantNodes) fetched.nodes.add(id);
      for (const id of wantEdges) fetched.edges.add(id);
      if (wantNodes.length > 0) for (const node of await index.graph.getNodes(wantNodes.sort(compareStrings))) nodes.set(node.id, node);
      if (wantEdges.length > 0) for (const edge of await index.graph.getEdges(wantEdges.sort(compareStrings))) edges.set(edge.id, edge);
      throwIfAborted(abortSignal, 'evidence selection');
    };
    await fetch(
      consideredEntries.flatMap((entry) => entry.path.nodes),
      consideredEntries.flatMap((entry) => entry.path.edges),
    );

    // Coverage of targets and facets by each considered path.
    const targets = (policy.targetEntities ?? []).map((text) => text.trim()).filter((text) => text.length > 0);
    const facets = (policy.targetFacets ?? []).map((text) => text.trim()).filter((text) => text.length > 0);
    const targetTokens = targets.map((text) => new Set(contentTokens(text)));
    const facetTokens = facets.map((text) => new Set(contentTokens(text)));
    const seedTarget = new Map<string, number>();
    for (const seed of seeds) if (seed.targetIndex !== undefined && !seedTarget.has(seed.nodeId)) seedTarget.set(seed.nodeId, seed.targetIndex);
    const nodeNameTokens = new Map<string, Set<string>[]>();
    const nodeTextTokens = new Map<string, Set<string>>();
    const edgeTextTokens = new Map<string, Set<string>>();
    const nameTokensOf = (id: string): Set<string>[] => {
      let tokens = nodeNameTokens.get(id);
      if (!tokens) {
        const node = nodes.get(id);
        tokens = node ? [node.name, ...(node.aliases ?? [])].map((name) => new Set(contentTokens(name))) : [];
        nodeNameTokens.set(id, tokens);
      }
      return tokens;
    };
    const nodeTextOf = (id: string): Set<string> | undefined => {
      const node = nodes.get(id);
      if (!node) return undefined;
      let tokens = nodeTextTokens.get(id);
      if (!tokens) nodeTextTokens.set(id, (tokens = new Set(contentTokens(`${node.name} ${node.description ?? ''}`))));
      return tokens;
    };
    const edgeTextOf = (id: string): Set<string> | undefined => {
      const edge = edges.get(id);
      if (!edge) return undefined;
      let tokens = edgeTextTokens.get(id);
      if (!tokens) edgeTextTokens.set(id, (tokens = new Set(contentTokens(`${edge.label} ${(edge.keywords ?? []).join(' ')} ${edge.description ?? ''}`))));
      return tokens;
    };
    const info = (key: string, path: ScoredPath): PathInfo => {
      const covered = new Set<number>();
      const coveredFacets = new Set<number>();
      for (const node of path.nodes) {
        const fromSeed = seedTarget.get(node);
        if (fromSeed !== undefined && fromSeed < targets.length) covered.add(fromSeed);
        if (targetTokens.length > 0) {
          const names = nameTokensOf(node);
          targetTokens.forEach((tokens, i) => {
            if (names.some((nameTokens) => tokenContainment(tokens, nameTokens) >= matchThreshold)) covered.add(i);
          });
        }
        if (facetTokens.length > 0) {
          const text = nodeTextOf(node);
          if (text) facetTokens.forEach((tokens, i) => tokenContainment(tokens, text) >= matchThreshold && coveredFacets.add(i));
        }
      }
      if (facetTokens.length > 0) {
        for (const edge of path.edges) {
          const text = edgeTextOf(edge);
          if (text) facetTokens.forEach((tokens, i) => tokenContainment(tokens, text) >= matchThreshold && coveredFacets.add(i));
        }
      }
      const first = edges.get(path.edges[0]);
      return { path, key, targets: covered, facets: coveredFacets, firstLabel: normalizeLabel(first?.label ?? path.edges[0]) };
    };

    // 2. The shared filter: at most `filterSize` candidates, optionally cut by a score margin.
    const consideredList = consideredEntries.map((entry) => info(entry.key, entry.path));
    const best = consideredList[0]?.path.score ?? 0;
    const survivors = consideredList.filter((candidate) => candidate.path.score >= best - scoreMargin);
    const filtered = consideredList.length - survivors.length;

    // 3. Path selection.
    const selected: { candidate: PathInfo; role: PathRole }[] = [];
    const taken = new Set<PathInfo>();
    const coveredTargets = new Set<number>();
    const coveredFacets = new Set<number>();
    const firstLabels = new Set<string>();
    const take = (candidate: PathInfo, role: PathRole) => {
      selected.push({ candidate, role });
      taken.add(candidate);
      for (const i of candidate.targets) coveredTargets.add(i);
      for (const i of candidate.facets) coveredFacets.add(i);
      firstLabels.add(candidate.firstLabel);
    };
    if (!adaptive) {
      for (const candidate of survivors.slice(0, maxPaths)) take(candidate, 'core');
    } else {
      for (const candidate of survivors.slice(0, Math.min(coreSlots, maxPaths))) take(candidate, 'core');
      const roles: { role: PathRole; wanted: () => boolean; fits: (candidate: PathInfo) => boolean }[] = [
        {
          role: 'connector',
          wanted: () => !selected.some((entry) => entry.candidate.path.origin === 'connector'),
          fits: (candidate) => candidate.path.origin === 'connector',
        },
        {
          role: 'uncovered-target',
          wanted: () => coveredTargets.size < targets.length,
          fits: (candidate) => [...candidate.targets].some((i) => !coveredTargets.has(i)),
        },
        {
          role: 'uncovered-facet',
          wanted: () => coveredFacets.size < facets.length,
          fits: (candidate) => [...candidate.facets].some((i) => !coveredFacets.has(i)),
        },
        { role: 'new-relation', wanted: () => true, fits: (candidate) => !firstLabels.has(candidate.firstLabel) },
      ];
      let reserved = 0;
      // When the policy asks for the connector view, its reserved slot may take the best connector
      // path even if the shared filter did not consider it: connector paths join two targets' regions
      // and score below the paths that stay near one seed, so the filter alone almost never let one
      // through (30 of 184 Medical development questions with the connector on).
      let connectorBeyond: PathInfo | undefined;
      if (connectorBeyondFilter && policy.useConnector === true && !survivors.some((candidate) => candidate.path.origin === 'connector')) {
        const consideredKeys = new Set(consideredEntries.map((entry) => entry.key));
        const entry = ranked().find((candidate) => candidate.path.origin === 'connector' && !consideredKeys.has(candidate.key));
        if (entry) {
          await fetch(entry.path.nodes, entry.path.edges);
          connectorBeyond = info(entry.key, entry.path);
        }
      }
      for (const { role, wanted, fits } of roles) {
        if (reserved >= reservedSlots || selected.length >= maxPaths) break;
        if (!wanted()) continue;
        const match =
          survivors.find((candidate) => !taken.has(candidate) && fits(candidate)) ??
          (role === 'connector' && connectorBeyond && !taken.has(connectorBeyond) ? connectorBeyond : undefined);
        if (!match) continue;
        take(match, role);
        reserved += 1;
      }
      for (const candidate of survivors) {
        if (selected.length >= maxPaths) break;
        if (!taken.has(candidate)) take(candidate, 'fill');
      }
    }
    const selectedPaths: SelectedPath[] = selected.map(({ candidate, role }, i) => ({ ...candidate.path, role, rank: i + 1 }));

    // 4. Evidence units: round-robin over the selected paths in rank order, each contributing its
    //    next unit not yet taken: its relations from the far end back to the seed, then its
    //    entities in the same order (a path's far end is what sets it apart from the paths that
    //    share its prefix, and what a reserved path was reserved for).
    const unitOrder = (path: ScoredPath): string[] => {
      const order: string[] = [];
      for (let i = path.edges.length - 1; i >= 0; i -= 1) order.push(RELATION_PREFIX + path.edges[i]);
      for (let i = path.nodes.length - 1; i >= 0; i -= 1) order.push(ENTITY_PREFIX + path.nodes[i]);
      return order;
    };
    const unitPaths = new Map<string, string[]>();
    const addPath = (unitId: string, pathId: string) => {
      const list = unitPaths.get(unitId) ?? [];
      if (!list.includes(pathId)) list.push(pathId);
      unitPaths.set(unitId, list);
    };
    for (const path of selectedPaths) for (const unitId of unitOrder(path)) addPath(unitId, path.id);
    const questionTokens = new Set(contentTokens(context.question.text));
    let sentenceTokens = sentenceTokensByStore.get(index.chunks);
    if (!sentenceTokens) sentenceTokensByStore.set(index.chunks, (sentenceTokens = new Map()));
    const spanTokens = (span: TextSpan): ReadonlySet<string> => {
      const key = spanKey(span);
      let tokens = sentenceTokens.get(key);
      if (!tokens) {
        const chunk = index.chunks.getChunk(span.chunkId);
        tokens = new Set(chunk ? contentTokens(chunk.text.slice(span.start, span.end)) : []);
        if (sentenceTokens.size >= 200_000) sentenceTokens.clear();
        sentenceTokens.set(key, tokens);
      }
      return tokens;
    };
    // The sentences a unit grounds to (chosen once per unit).
    const unitSpans = new Map<string, TextSpan[] | undefined>();
    const spansOfUnit = (unitId: string): TextSpan[] | undefined => {
      if (unitSpans.has(unitId)) return unitSpans.get(unitId);
      const entity = unitId.startsWith(ENTITY_PREFIX);
      const all = entity ? nodes.get(unitId.slice(ENTITY_PREFIX.length))?.spans : edges.get(unitId.slice(RELATION_PREFIX.length))?.spans;
      const chosen = all && all.length > 0 ? bestSpans(all, questionTokens, spanTokens, entity ? spansPerEntity : spansPerUnit) : undefined;
      unitSpans.set(unitId, chosen);
      return chosen;
    };
    // A unit whose sentences are all grounded by units ranked before it adds no evidence: it is
    // the same statement seen through another entity or relation, so it is set aside (listed in
    // the trace as redundant) and does not count against B.
    const rankedUnits: string[] = [];
    const redundant: string[] = [];
    const groundedSentences = new Set<string>();
    const seen = new Set<string>();
    const queues = selectedPaths.map((path) => unitOrder(path));
    for (let progress = true; progress; ) {
      progress = false;
      for (const queue of queues) {
        while (queue.length > 0 && seen.has(queue[0])) queue.shift();
        const next = queue.shift();
        if (next === undefined) continue;
        seen.add(next);
        progress = true;
        const spans = dedupeSentences ? spansOfUnit(next) : undefined;
        if (spans && spans.every((span) => groundedSentences.has(spanKey(span)))) {
          redundant.push(next);
          continue;
        }
        if (spans) for (const span of spans) groundedSentences.add(spanKey(span));
        rankedUnits.push(next);
      }
    }
    const retained = rankedUnits.slice(0, evidenceCount);
    const capped = rankedUnits.length - retained.length;

    // 5. Floor: when fewer than L remain, restore the best excluded units (capped ones first,
    //    then those of the paths beyond the selection, in path rank order).
    const restoredIds: string[] = [];
    const floorNodes: string[] = [];
    if (retained.length < minEvidence) {
      const need = minEvidence - retained.length;
      const excluded: string[] = rankedUnits.slice(evidenceCount);
      const excludedSeen = new Set([...rankedUnits, ...redundant]);
      const takenKeys = new Set(selected.map((entry) => entry.candidate.key));
      const beyond = ranked().filter((entry) => !takenKeys.has(entry.key));
      for (const entry of beyond) {
        if (excluded.length >= need) break;
        floorNodes.push(...entry.path.nodes);
        for (const unitId of unitOrder(entry.path)) {
          if (excludedSeen.has(unitId)) continue;
          excludedSeen.add(unitId);
          excluded.push(unitId);
        }
      }
      restoredIds.push(...excluded.slice(0, need));
      // pathIds of a restored unit that no selected path contains: every ranked path beyond the
      // selection that contains it, in rank order.
      const entityPaths = new Map<string, string[]>();
      const relationPaths = new Map<string, string[]>();
      for (const unitId of restoredIds) {
        if (seen.has(unitId)) continue;
        const list: string[] = [];
        unitPaths.set(unitId, list);
        if (unitId.startsWith(ENTITY_PREFIX)) entityPaths.set(unitId.slice(ENTITY_PREFIX.length), list);
        else relationPaths.set(unitId.slice(RELATION_PREFIX.length), list);
      }
      if (entityPaths.size + relationPaths.size > 0) {
        for (const { path } of beyond) {
          for (const id of path.edges) {
            const list = relationPaths.get(id);
            if (list && !list.includes(path.id)) list.push(path.id);
          }
          for (const id of path.nodes) {
            const list = entityPaths.get(id);
            if (list && !list.includes(path.id)) list.push(path.id);
          }
        }
      }
    }

    // Graph facts of units outside the considered paths (restored by the floor: with the nodes of
    // the paths they come from, which name their relations), and the endpoints (on some candidate
    // path) that name a relation lying off its own path.
    const finalIds = [...retained, ...restoredIds];
    const moreNodes: string[] = [];
    const moreEdges: string[] = [];
    for (const unitId of finalIds) {
      if (unitId.startsWith(ENTITY_PREFIX)) moreNodes.push(unitId.slice(ENTITY_PREFIX.length));
      else moreEdges.push(unitId.slice(RELATION_PREFIX.length));
    }
    await fetch([...moreNodes, ...floorNodes], moreEdges);
    const endpoints: string[] = [];
    for (const id of moreEdges) {
      const edge = edges.get(id);
      if (!edge) continue;
      if (!fetched.nodes.has(edge.source)) endpoints.push(edge.source);
      if (!fetched.nodes.has(edge.target)) endpoints.push(edge.target);
    }
    if (endpoints.length > 0) {
      const candidateNodes = new Set<string>();
      for (const entry of entries) for (const node of entry.path.nodes) candidateNodes.add(node);
      await fetch(
        endpoints.filter((id) => candidateNodes.has(id)),
        [],
      );
    }

    const restoredSet = new Set(restoredIds);
    const units: EvidenceUnit[] = [];
    finalIds.forEach((unitId, position) => {
      const unit = buildUnit(unitId, nodes, edges);
      if (!unit) return;
      const spans = spansOfUnit(unitId);
      units.push({
        ...unit,
        ...(spans ? { spans } : {}),
        pathIds: unitPaths.get(unitId) ?? [],
        score: 1 / (1 + position),
        ...(restoredSet.has(unitId) ? { restored: true } : {}),
      });
    });

    const trace: EvidenceSelectionTrace = {
      candidates: entries.length,
      considered: consideredList.length,
      selected: selectedPaths,
      units,
      capped,
      restored: restoredIds.length,
      filtered,
      redundant,
      adaptive,
      coveredTargets: [...coveredTargets].sort((a, b) => a - b).map((i) => targets[i]),
      coveredFacets: [...coveredFacets].sort((a, b) => a - b).map((i) => facets[i]),
      evidenceCount,
      minEvidence,
    };
    return { paths: selectedPaths, units, trace };
  }

  return { specificationVersion: 'v1', id: options.id ?? 'mosaic-evidence', selectEvidence };
}

/** Identity of a sentence span. */
function spanKey(span: TextSpan): string {
  return `${span.chunkId}\u0000${span.start}\u0000${span.end}`;
}

/**
 * The `limit` spans sharing the most content tokens with the question (ties: corpus order), in
 * corpus order.
 */
function bestSpans(
  spans: readonly TextSpan[],
  question: ReadonlySet<string>,
  tokensOf: (span: TextSpan) => ReadonlySet<string>,
  limit: number,
): TextSpan[] {
  if (spans.length <= limit) return spans.map((span) => ({ ...span }));
  const scored = spans.map((span, order) => {
    let shared = 0;
    for (const token of tokensOf(span)) if (question.has(token)) shared += 1;
    return { span, order, shared };
  });
  scored.sort((a, b) => b.shared - a.shared || a.order - b.order);
  return scored
    .slice(0, limit)
    .sort((a, b) => a.order - b.order)
    .map(({ span }) => ({ ...span }));
}

/** Entity unit text: "name: description" (or the name); relation unit text: "source label target: description". */
function buildUnit(
  unitId: string,
  nodes: ReadonlyMap<string, EntityNode>,
  edges: ReadonlyMap<string, RelationEdge>,
): Omit<EvidenceUnit, 'pathIds' | 'score'> | undefined {
  if (unitId.startsWith('entity:')) {
    const node = nodes.get(unitId.slice('entity:'.length));
    if (!node) return undefined;
    return {
      id: unitId,
      kind: 'entity',
      refId: node.id,
      text: node.description ? `${node.name}: ${node.description}` : node.name,
      chunkIds: [...(node.chunkIds ?? [])],
    };
  }
  const edge = edges.get(unitId.slice('relation:'.length));
  if (!edge) return undefined;
  const source = nodes.get(edge.source)?.name ?? edge.source;
  const target = nodes.get(edge.target)?.name ?? edge.target;
  return {
    id: unitId,
    kind: 'relation',
    refId: edge.id,
    text: `${source} ${edge.label} ${target}${edge.description ? `: ${edge.description}` : ''}`,
    chunkIds: [...(edge.chunkIds ?? [])],
  };
}
