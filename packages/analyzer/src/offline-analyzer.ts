import type { Analysis, AnalyzeOptions, Analyzer, AnalyzerGraphView, AnalyzerWarmUpOptions, Policy } from '@mosaic/spec';
import { InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import { DEFAULT_POLICY, DIAGNOSTIC_LIMITS, validatePolicy } from '@mosaic/policy-schema';
import { analyzeSurface, type SurfaceAnalysis, type SurfaceCue } from './analyze-surface.js';
import { checkWarmUpQuestions } from './warm-up.js';

export interface OfflineAnalyzerOptions {
  /** Analyzer id recorded in every Analysis (default 'offline'). */
  id?: string;
  /** Hops within which two resolved targets count as connected (default 2). */
  connectorHops?: number;
  /** Words kept in the compact keyword query (default 16). */
  compactQueryWords?: number;
}

/** Facts the offline analyzer read from the graph view (when one was passed). */
export interface GraphFacts {
  /** Target (or alias) → node id, for the targets that resolved. */
  resolved: Map<string, string>;
  /** Pairs of resolved targets checked for connectivity and whether they were connected. */
  pairs: { a: string; b: string; connected: boolean }[];
}

/** One rule that fired: which consideration, on what cue, and which controls it set. */
export interface FiredRule {
  consideration: 'mediatedness' | 'output-cardinality' | 'seed-coverage' | 'anchoring-need' | 'identity-relation' | 'completeness' | 'directness';
  cues: string[];
  set: Partial<Record<keyof Policy, unknown>>;
}

/** The raw (pre-validation) policy the offline rules produce, with the rules that fired. */
export interface OfflineDecision {
  raw: Policy;
  rules: FiredRule[];
}

const cueText = (cues: SurfaceCue[]) => cues.map((c) => `${c.cue} '${c.match}'`);
const has = (cues: SurfaceCue[], name: string) => cues.some((c) => c.cue === name);

/** What the rules read: the surface signals, combined. */
interface Cues {
  targets: string[];
  multiTarget: boolean;
  task: boolean;
  comparison: boolean;
  coordinatedTargets: boolean;
  mediated: boolean;
  strongMediation: boolean;
  listLike: boolean;
  counted: boolean;
  /** Facets other than the generic ones (factors, features, comparison, relationship, effect). */
  contentFacets: string[];
  multiFacet: boolean;
  direct: boolean;
}

function cuesOf(surface: SurfaceAnalysis): Cues {
  const s = surface.signals;
  const targets = surface.targets;
  const multiTarget = targets.length >= 2;
  const task = s.task.length > 0;
  const strongComparisonCue = s.comparison.some((c) =>
    ['compare', 'difference', 'distinguish', 'versus', 'shared/unique', 'similarity/contrast'].includes(c.cue),
  );
  const comparison = strongComparisonCue || (s.comparison.length > 0 && multiTarget);
  const mediation = s.mediation;
  const mediated = mediation.length > 0;
  const contentFacets = surface.facets.filter((f) => f !== 'factors' && f !== 'features' && f !== 'comparison' && f !== 'relationship' && f !== 'effect');
  return {
    targets,
    multiTarget,
    task,
    comparison,
    coordinatedTargets: s.coordination.length > 0,
    mediated,
    strongMediation: mediation.length >= 2 || has(mediation, 'progression/sequence') || has(mediation, 'mechanism'),
    listLike: s.list.length > 0,
    counted: has(s.list, 'counted plural') || has(s.list, 'list/name') || has(s.list, 'what are'),
    contentFacets,
    multiFacet: contentFacets.length >= 2,
    direct: s.direct.length > 0 && !mediated && !comparison && !task,
  };
}

/** Records a rule and applies the controls it sets to the policy being built. */
type Fire = (consideration: FiredRule['consideration'], cues: string[], set: FiredRule['set']) => void;

/** Seed coverage, output cardinality and comparisons: how many seeds and how much evidence. */
function breadthRules(surface: SurfaceAnalysis, c: Cues, p: Policy, fire: Fire): void {
  const s = surface.signals;
  // Seed coverage: several targets must be initialised separately.
  if (c.comparison || (c.coordinatedTargets && c.multiTarget && !c.task)) {
    fire('seed-coverage', [...cueText(s.comparison), ...cueText(s.coordination)], { seedQueryMode: 'per-target', seedLimit: 10 });
  }
  // Output cardinality: several items must be covered.
  if (c.task) {
    const set: FiredRule['set'] = { seedLimit: 12, evidenceCount: 16, minEvidence: 8, adaptiveFinalEvidence: true, beamWidth: 10 };
    if (surface.wordCount > 30 && p.seedQueryMode !== 'per-target') set.seedQueryMode = 'compact';
    fire('output-cardinality', cueText(s.task), set);
  } else if (c.listLike && !c.direct) {
    const broad = c.multiFacet || (c.multiTarget && c.counted) || c.comparison;
    fire('output-cardinality', cueText(s.list), {
      seedLimit: Math.max(p.seedLimit, broad ? 10 : 9),
      evidenceCount: broad ? 14 : 12,
      minEvidence: broad ? 6 : 5,
      ...(broad ? { adaptiveFinalEvidence: true } : {}),
    });
  }
  // Comparisons reserve role-aware slots and look for cross-seed connectors.
  if (c.comparison) {
    fire('seed-coverage', cueText(s.comparison), {
      useConnector: true,
      adaptiveFinalEvidence: true,
      evidenceCount: Math.max(p.evidenceCount, 12),
      minEvidence: Math.max(p.minEvidence, 5),
    });
  }
}

/** Mediatedness, directness and completeness: how deep to search and when to stop. */
function depthRules(surface: SurfaceAnalysis, c: Cues, p: Policy, fire: Fire): void {
  const s = surface.signals;
  // Mediatedness: the answer sits behind an intermediate concept.
  if (c.mediated) {
    const set: FiredRule['set'] = { maxDepth: 4, stopRegime: c.strongMediation ? 'deep' : 'medium', beamWidth: Math.max(p.beamWidth, 10) };
    if (c.multiTarget) set.useConnector = true;
    fire('mediatedness', cueText(s.mediation), set);
  }
  // Directness: one fact or a definition; a shallow search suffices.
  if (!c.mediated && !c.comparison && !c.task && (c.direct || (c.listLike && c.targets.length <= 1 && !c.multiFacet))) {
    fire('directness', c.direct ? cueText(s.direct) : ['single target, single facet'], {
      maxDepth: 2,
      stopRegime: 'shallow',
      ...(c.direct && !c.listLike ? { seedLimit: 5 } : {}),
    });
  }
  // Completeness: several facets must all be covered before stopping.
  if (!c.mediated && (c.multiFacet || c.task) && p.maxDepth > 2) {
    fire('completeness', [`facets: ${c.contentFacets.join(', ')}`], { stopRegime: 'medium', minEvidence: Math.max(p.minEvidence, 6) });
  }
}

/** Anchoring need and identity–relation dependence: how closely to stay on what the question names. */
function precisionRules(surface: SurfaceAnalysis, c: Cues, fire: Fire): void {
  const s = surface.signals;
  // Anchoring need: stay on an exact subtype / stage / code (weaker when the chain is mediated).
  if (s.subtype.length > 0) {
    const strength = c.mediated ? 0.4 : s.subtype.length >= 2 ? 0.7 : 0.5;
    fire('anchoring-need', cueText(s.subtype), { anchorStrength: strength });
  }
  // Identity–relation dependence: exact names / identifiers matter.
  const identity = s.identity.filter((cue) => cue.cue !== 'proper noun' || !c.mediated);
  if (identity.length > 0) fire('identity-relation', cueText(identity), { selectionMode: 'hybrid' });
}

/** Graph facts: targets that exist but are far apart need a connector and more depth. */
function graphRules(graph: GraphFacts, c: Cues, p: Policy, fire: Fire): void {
  const far = graph.pairs.filter((pair) => !pair.connected);
  if (far.length > 0) {
    fire(
      'mediatedness',
      far.map((pair) => `not within reach: '${pair.a}' ~ '${pair.b}'`),
      { useConnector: true, maxDepth: Math.max(p.maxDepth, c.mediated ? 5 : 4), stopRegime: p.stopRegime === 'shallow' ? 'medium' : p.stopRegime },
    );
  }
  if (graph.resolved.size >= 2 && p.seedQueryMode === 'full' && c.multiTarget && !c.task) {
    fire('seed-coverage', [`${graph.resolved.size} targets found in the graph`], { seedQueryMode: 'per-target', seedLimit: Math.max(p.seedLimit, 9) });
  }
}

/** The diagnostic fields: targets, facets, the compact and per-target queries, the risk and the rationale. */
function writeDiagnostics(
  p: Policy,
  options: { surface: SurfaceAnalysis; graph?: GraphFacts; cues: Cues; rules: FiredRule[]; compactQueryWords: number },
): void {
  const { surface, cues, rules } = options;
  p.targetEntities = cues.targets.slice(0, DIAGNOSTIC_LIMITS.targetEntities.maxItems);
  p.targetFacets = surface.facets.slice(0, DIAGNOSTIC_LIMITS.targetFacets.maxItems);
  p.compactQuery = compactQuery(surface, options.compactQueryWords);
  const facetWords = cues.contentFacets.slice(0, 3).join(' ');
  p.perTargetQueries = cues.targets
    .slice(0, DIAGNOSTIC_LIMITS.perTargetQueries.maxItems)
    .map((t) => [t, ...(surface.aliases[t] ?? []), facetWords].filter(Boolean).join(' '));
  p.retrievalRisk = retrievalRisk({
    surface,
    graph: options.graph,
    mediated: cues.mediated,
    comparison: cues.comparison,
    listLike: cues.listLike || cues.task,
  });
  p.rationale =
    rules.length === 0
      ? 'no clear signal; Table 3 defaults kept'
      : rules.map((r) => `${r.consideration} [${r.cues.slice(0, 3).join('; ')}] → ${describeSet(r.set)}`).join(' | ');
}

/**
 * The offline rules: start from the Table 3 defaults and override a control only on a clear surface
 * (or graph) signal. Pure and deterministic. The rule groups run in a fixed order, and a later rule
 * may read what an earlier one set.
 */
export function decideOfflinePolicy(options: { surface: SurfaceAnalysis; graph?: GraphFacts; compactQueryWords?: number }): OfflineDecision {
  const { surface, graph } = options;
  const p: Policy = { ...DEFAULT_POLICY, targetEntities: [], targetFacets: [], perTargetQueries: [] };
  const rules: FiredRule[] = [];
  const fire: Fire = (consideration, cues, set) => {
    Object.assign(p, set);
    rules.push({ consideration, cues, set });
  };
  const cues = cuesOf(surface);
  breadthRules(surface, cues, p, fire);
  depthRules(surface, cues, p, fire);
  precisionRules(surface, cues, fire);
  if (graph) graphRules(graph, cues, p, fire);
  writeDiagnostics(p, { surface, graph, cues, rules, compactQueryWords: options.compactQueryWords ?? 16 });
  return { raw: p, rules };
}

function describeSet(set: FiredRule['set']): string {
  return Object.entries(set)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ');
}

function compactQuery(surface: SurfaceAnalysis, maxWords: number): string {
  const words: string[] = [];
  const seen = new Set<string>();
  const push = (w: string) => {
    const lower = w.toLowerCase();
    if (!seen.has(lower) && words.length < maxWords) {
      seen.add(lower);
      words.push(lower);
    }
  };
  for (const t of surface.targets) for (const w of t.split(/\s+/)) push(w);
  for (const f of surface.facets) push(f);
  for (const k of surface.keywords) push(k);
  return words.join(' ');
}

function retrievalRisk(options: { surface: SurfaceAnalysis; graph?: GraphFacts; mediated: boolean; comparison: boolean; listLike: boolean }): string {
  const risks: string[] = [];
  const { surface, graph } = options;
  if (options.mediated) risks.push('the answer may sit behind an unstated intermediate concept');
  if (options.comparison) risks.push('one target may crowd out the others in the seeds');
  if (options.listLike) risks.push('several items must be covered; a narrow evidence budget would truncate the list');
  if (surface.signals.subtype.length > 0) risks.push('hub nodes may pull exploration off the exact subtype');
  if (surface.targets.length === 0) risks.push('no explicit target entity; seeds rely on the whole question');
  if (graph && surface.targets.length > 0 && graph.resolved.size === 0) risks.push('no target resolved to a graph node');
  return risks.length === 0 ? 'low: a direct lookup of one fact' : risks.join('; ');
}

async function readGraph(options: { graph: AnalyzerGraphView; surface: SurfaceAnalysis; hops: number; abortSignal?: AbortSignal }): Promise<GraphFacts> {
  const { graph, surface } = options;
  const mentions: string[] = [];
  for (const t of surface.targets) mentions.push(t, ...(surface.aliases[t] ?? []));
  const found = mentions.length > 0 ? await graph.lookup(mentions) : new Map<string, string>();
  throwIfAborted(options.abortSignal, 'analyzer');
  const resolved = new Map<string, string>();
  for (const t of surface.targets) {
    const id = found.get(t) ?? (surface.aliases[t] ?? []).map((a) => found.get(a)).find((x) => x !== undefined);
    if (id !== undefined) resolved.set(t, id);
  }
  const checks: Array<{ a: string; b: string; idA: string; idB: string }> = [];
  const connected = graph.connected?.bind(graph);
  if (connected && resolved.size >= 2) {
    const entries = [...resolved.entries()].slice(0, 3);
    for (let i = 0; i < entries.length; i++) {
      for (let j = i + 1; j < entries.length; j++) {
        const [a, idA] = entries[i]!;
        const [b, idB] = entries[j]!;
        if (idA !== idB) checks.push({ a, b, idA, idB });
      }
    }
  }
  // Every pair is checked at once (a database-backed graph answers them in one request); results keep pair order.
  const answers = connected ? await Promise.all(checks.map((check) => connected(check.idA, check.idB, options.hops))) : [];
  const pairs: GraphFacts['pairs'] = checks.map((check, i) => ({ a: check.a, b: check.b, connected: answers[i]! }));
  return { resolved, pairs };
}

/**
 * A deterministic, dependency-free analyzer that reads the six considerations from the question's
 * surface (and, when given, from the graph view) and returns a validated policy.
 */
export function createOfflineAnalyzer(options: OfflineAnalyzerOptions = {}): Analyzer {
  const id = options.id ?? 'offline';
  const hops = options.connectorHops ?? 2;
  if (!Number.isInteger(hops) || hops < 1) {
    throw new InvalidArgumentError({ argument: 'connectorHops', message: 'must be a positive integer' });
  }
  const analyze = async ({ question, graph, abortSignal }: AnalyzeOptions): Promise<Analysis> => {
    throwIfAborted(abortSignal, 'analyzer');
    if (!question || typeof question.text !== 'string') {
      throw new InvalidArgumentError({ argument: 'question.text', message: 'must be a string' });
    }
    const started = performance.now();
    const surface = analyzeSurface(question.text);
    const facts = graph ? await readGraph({ graph, surface, hops, abortSignal }) : undefined;
    const { raw } = decideOfflinePolicy({ surface, graph: facts, compactQueryWords: options.compactQueryWords });
    const { policy, changes } = validatePolicy(raw);
    return { policy, changes, analyzer: id, latencyMs: performance.now() - started };
  };
  return {
    specificationVersion: 'v1',
    id,
    analyze,
    // Local and without side effects: warming up is analyzing, one question after another.
    async warmUp(warmUpOptions: AnalyzerWarmUpOptions): Promise<Analysis[]> {
      checkWarmUpQuestions(warmUpOptions);
      const analyses: Analysis[] = [];
      for (const question of warmUpOptions.questions) {
        analyses.push(await analyze({ question, graph: warmUpOptions.graph, abortSignal: warmUpOptions.abortSignal }));
      }
      return analyses;
    },
  };
}
