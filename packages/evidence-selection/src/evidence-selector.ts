import { InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type { EvidenceSelection, EvidenceSelector, EvidenceTrace, SelectEvidenceOptions, SelectedPath, TextSpan } from '@mosaic/spec';
import { passageRelevance } from '@mosaic/stage-utils';
import { checkTuning } from '@mosaic/stage-utils/internal';
import { buildUnits, fetchUnitFacts } from './build-units.js';
import { applyFloor } from './evidence-floor.js';
import { SentenceTables, SpanFacts, rankUnits, spanWindowIds, tokensOfSentence, unitSpans } from './evidence-units.js';
import { GraphFacts } from './graph-facts.js';
import { pathCoverage } from './path-coverage.js';
import { rankPaths } from './path-ranking.js';
import { selectPaths, sharedFilter } from './select-paths.js';

/**
 * The options of `createEvidenceSelector` whose defaults were tuned for the offline stack (embedded
 * encoder, offline extractor) on the GraphRAG-Bench development split (docs/experiments.md). Another
 * encoder or extractor may want other values.
 */
export interface EvidenceSelectorTuning {
  /**
   * Sentences an entity unit grounds to at most: its best mentions by the sentence score of
   * `spanContextWeight`, among those `spanRelevanceFloor` lets through (default 12). An entity the
   * question names is where the graph meets the text, so it reaches further than one relation's
   * sentence.
   *
   * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
   */
  spansPerEntity?: number;
  /**
   * An entity unit's sentence is grounded only when its passage is at least this relevant to the
   * question (the passage relevance of `spanContextWeight`, in [0, 1]: BM25 of the question over the
   * best window holding the sentence's chunk, divided by its best window); the entity's best
   * sentence is always kept. A common entity ("smoking", "the king") is mentioned all over the
   * corpus, and its mentions in passages about something else are not evidence for this question,
   * yet each costs the reranker a window. Relation units keep their sentences: they state the
   * relation itself, wherever it stands. Default 0.3; 0 = off. Needs `index.lexical.windows`.
   *
   * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
   */
  spanRelevanceFloor?: number;
  /**
   * How a unit's sentences are chosen when it has more than its limit: each scores the content
   * tokens it shares with the question plus this weight times the relevance of its passage to the
   * question (the question's BM25 over the best window holding the sentence's chunk, divided by its
   * best window, in [0, 1]; needs `index.lexical.windows`). A sentence seldom repeats the question's
   * subject ("Risk factors include tobacco use" under a mouth-cancer heading); its passage does.
   * Default 3; 0 = tokens only.
   *
   * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
   */
  spanContextWeight?: number;
  /**
   * With adaptive final evidence and the policy's connector view on, let the reserved connector slot
   * take the best connector path even when the shared filter did not consider it (default true).
   *
   * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
   */
  connectorBeyondFilter?: boolean;
  /**
   * What "already grounded" means for `dedupeSentences` (default 'window'): 'window' sets a unit
   * aside when every index window its sentences ground in (`windowsOfSpan`, as the rerankers ground
   * them unless they cut chunks themselves) is reached by units ranked before it, so B counts units
   * that bring new source text to the reranker;
   * 'sentence' only when the very same sentences are.
   *
   * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
   */
  dedupeScope?: 'window' | 'sentence';
  /**
   * When the selected paths yield fewer than B units (once redundant ones are set aside), fill B from
   * the paths ranked beyond the selection, in rank order, as the floor L does (default true; the
   * units carry `restored`). B is then the evidence the policy keeps, not an upper bound the selected
   * paths seldom reach. False: only the floor L restores.
   *
   * @remarks Tuned for the offline stack (embedded encoder, offline extractor) on the GraphRAG-Bench development split; see docs/experiments.md.
   */
  fillToBudget?: boolean;
}

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
  /** The options tuned for the offline stack (see `EvidenceSelectorTuning`); unknown keys are rejected. */
  tuning?: EvidenceSelectorTuning;
}

/** EvidenceTrace plus the filter and coverage details. */
export interface EvidenceSelectionTrace extends EvidenceTrace {
  /** Considered paths dropped by the score margin. */
  filtered: number;
  adaptive: boolean;
  /** Policy targets / facets covered by the selected paths. */
  coveredTargets: string[];
  coveredFacets: string[];
  /** Units set aside because units ranked before them already ground all their sentences (or, with `dedupeScope` 'window', reach all their windows). */
  redundant: string[];
  /** The `dedupeScope` applied ('off' without `dedupeSentences`). */
  dedupeScope: 'window' | 'sentence' | 'off';
  /** The evidence cap B and floor L of the policy. */
  evidenceCount: number;
  minEvidence: number;
  /** The floor applied: B with `fillToBudget`, else L. */
  floorApplied: number;
  /** The passage weight in a sentence's score (0 when off or when the index has no lexical window index). */
  spanContextWeight: number;
  /** The passage relevance below which an entity's sentences are not grounded (0 when off or when the index has no lexical window index). */
  spanRelevanceFloor: number;
}

function count(value: number | undefined, name: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (!(value >= min) || Number.isNaN(value)) throw new InvalidArgumentError({ argument: name, message: `must be a number ≥ ${min}` });
  return Number.isFinite(value) ? Math.floor(value) : value;
}

/** The report's shared path filter: ten candidates. */
const DEFAULT_FILTER_SIZE = 10;

/**
 * Evidence selection (report §5.6), in five steps, one module each: (1) deduplicate and rank the
 * paths (`path-ranking.ts`); (2) the shared filter looks at ten at most (`select-paths.ts`); (3)
 * select the global top paths or — with adaptive final evidence — four core paths, up to four role
 * reservations (connector, uncovered target, uncovered facet, new first relation) and a score fill
 * (`select-paths.ts`); (4) flatten into deduplicated entity/relation units, capped at B
 * (`evidence-units.ts`); (5) restore the best excluded units up to the floor L (`evidence-floor.ts`).
 */
const EVIDENCE_SELECTOR_TUNING_KEYS: (keyof EvidenceSelectorTuning)[] = [
  'spansPerEntity',
  'spanRelevanceFloor',
  'spanContextWeight',
  'connectorBeyondFilter',
  'dedupeScope',
  'fillToBudget',
];

export function createEvidenceSelector(options: EvidenceSelectorOptions = {}): EvidenceSelector<EvidenceSelectionTrace> {
  const tuning = checkTuning<EvidenceSelectorTuning>(options, EVIDENCE_SELECTOR_TUNING_KEYS);
  const filterSizeOption = options.filterSize === undefined ? undefined : count(options.filterSize, 'filterSize', 10, 1);
  const maxPathsOption = options.maxPaths === undefined ? undefined : count(options.maxPaths, 'maxPaths', 8, 1);
  const spansPerUnit = count(options.spansPerUnit, 'spansPerUnit', 2, 1);
  const spansPerEntity = count(tuning.spansPerEntity, 'tuning.spansPerEntity', 12, 1);
  const spanContextWeight = tuning.spanContextWeight ?? 3;
  if (!(spanContextWeight >= 0 && Number.isFinite(spanContextWeight))) {
    throw new InvalidArgumentError({ argument: 'tuning.spanContextWeight', message: 'must be a finite number ≥ 0' });
  }
  const spanRelevanceFloor = tuning.spanRelevanceFloor ?? 0.3;
  if (!(spanRelevanceFloor >= 0 && spanRelevanceFloor <= 1)) {
    throw new InvalidArgumentError({ argument: 'tuning.spanRelevanceFloor', message: 'must lie in [0, 1]' });
  }
  const dedupeSentences = options.dedupeSentences ?? true;
  const fillToBudget = tuning.fillToBudget ?? true;
  const dedupeScope = tuning.dedupeScope ?? 'window';
  if (dedupeScope !== 'window' && dedupeScope !== 'sentence') {
    throw new InvalidArgumentError({ argument: 'tuning.dedupeScope', message: "must be 'window' or 'sentence'" });
  }
  const spanWindows = new SpanFacts(spanWindowIds);
  const connectorBeyondFilter = tuning.connectorBeyondFilter ?? true;
  const sentenceTokens = new SpanFacts(tokensOfSentence);
  const sentenceTables = new SentenceTables();
  const coreSlots = count(options.coreSlots, 'coreSlots', 4);
  const reservedSlots = count(options.reservedSlots, 'reservedSlots', 4);
  const scoreMargin = options.scoreMargin ?? Number.POSITIVE_INFINITY;
  if (Number.isNaN(scoreMargin) || scoreMargin < 0) throw new InvalidArgumentError({ argument: 'scoreMargin', message: 'must be ≥ 0' });
  const matchThreshold = options.matchThreshold ?? 0.5;
  if (!(matchThreshold >= 0 && matchThreshold <= 1)) throw new InvalidArgumentError({ argument: 'matchThreshold', message: 'must lie in [0,1]' });

  async function selectEvidence(selectOptions: SelectEvidenceOptions): Promise<EvidenceSelection<EvidenceSelectionTrace>> {
    const { context, index, paths, seeds, abortSignal } = selectOptions;
    throwIfAborted(abortSignal, 'evidence selection');
    const policy = context.policy;
    if (!(policy.evidenceCount >= 1)) throw new InvalidArgumentError({ argument: 'policy.evidenceCount', message: 'must be ≥ 1' });
    if (!(policy.minEvidence >= 0)) throw new InvalidArgumentError({ argument: 'policy.minEvidence', message: 'must be ≥ 0' });
    const evidenceCount = Math.floor(policy.evidenceCount);
    const minEvidence = Math.floor(policy.minEvidence);
    const maxPaths = maxPathsOption ?? evidenceCount;

    const ranking = rankPaths(paths, filterSizeOption ?? Math.max(DEFAULT_FILTER_SIZE, maxPaths));
    // Graph facts for the considered paths (two graph calls); more only if later steps need them.
    const facts = new GraphFacts(index.graph, abortSignal);
    await facts.fetch(
      ranking.considered.flatMap((entry) => entry.path.nodes),
      ranking.considered.flatMap((entry) => entry.path.edges),
    );
    const coverage = pathCoverage({ policy, seeds, facts, matchThreshold });
    const filter = sharedFilter(ranking, coverage, scoreMargin);
    const selection = await selectPaths({ policy, ranking, filter, coverage, facts, maxPaths, coreSlots, reservedSlots, connectorBeyondFilter });
    const selectedPaths: SelectedPath[] = selection.selected.map(({ candidate, role }, i) => ({ ...candidate.path, role, rank: i + 1 }));

    const relevance = spanContextWeight > 0 || spanRelevanceFloor > 0 ? passageRelevance(index, context.question.text, context.state) : undefined;
    const passage = relevance ? { relevance, weight: spanContextWeight, entityFloor: spanRelevanceFloor } : undefined;
    const spansOf = unitSpans({
      facts,
      chunks: index.chunks,
      question: context.question.text,
      sentenceTokens,
      sentenceTables,
      spansPerUnit,
      spansPerEntity,
      passage,
    });
    const keysOf = dedupeScope === 'window' ? (span: TextSpan) => spanWindows.of(index.chunks, span) : undefined;
    const units = rankUnits(selectedPaths, dedupeSentences ? spansOf : undefined, keysOf);
    const retained = units.ranked.slice(0, evidenceCount);
    const selectedKeys = new Set(selection.selected.map((entry) => entry.candidate.key));
    const floorApplied = fillToBudget ? Math.max(minEvidence, evidenceCount) : minEvidence;
    const floor = applyFloor({ units, ranking, selectedKeys, evidenceCount, minEvidence: floorApplied });
    const finalIds = [...retained, ...floor.restoredIds];
    await fetchUnitFacts(facts, finalIds, floor.floorNodes, ranking);
    const evidence = buildUnits({ unitIds: finalIds, restored: new Set(floor.restoredIds), facts, unitPaths: units.unitPaths, spansOf });

    const trace: EvidenceSelectionTrace = {
      candidates: ranking.entries.length,
      considered: filter.considered.length,
      selected: selectedPaths,
      units: evidence,
      capped: units.ranked.length - retained.length,
      restored: floor.restoredIds.length,
      filtered: filter.filtered,
      redundant: units.redundant,
      adaptive: policy.adaptiveFinalEvidence === true,
      coveredTargets: [...selection.coveredTargets].sort((a, b) => a - b).map((i) => coverage.targets[i]),
      coveredFacets: [...selection.coveredFacets].sort((a, b) => a - b).map((i) => coverage.facets[i]),
      evidenceCount,
      minEvidence,
      floorApplied,
      spanContextWeight: passage ? spanContextWeight : 0,
      spanRelevanceFloor: passage ? spanRelevanceFloor : 0,
      dedupeScope: dedupeSentences ? dedupeScope : 'off',
    };
    return { paths: selectedPaths, units: evidence, trace };
  }

  return { specificationVersion: 'v1', id: options.id ?? 'mosaic-evidence', selectEvidence };
}
