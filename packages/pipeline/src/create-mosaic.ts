import { createOfflineAnalyzer } from '@mosaic/analyzer';
import { createEvidenceSelector } from '@mosaic/evidence-selection';
import { createExtractiveGenerator } from '@mosaic/generation';
import { createSeedSelector } from '@mosaic/seed-selection';
import { createBeamTraverser } from '@mosaic/traversal';
import { createFusionReranker, type FocusTrace } from '@mosaic/window-reranker';
import { corpusWordCount, corpusWordWeight, focusWindows } from '@mosaic/window-reranker/internal';
import { fixedPolicy } from '@mosaic/policy-schema';
import { locateSpan, sectionsWithin } from '@mosaic/stage-utils';
import { matchSentenceTokens, readNodeNames } from '@mosaic/stage-utils/internal';
import { AbortedError, DimensionMismatchError, InvalidArgumentError, throwIfAborted } from '@mosaic/spec';
import type {
  AbortOptions,
  Analysis,
  Analyzer,
  Answer,
  CorpusIndex,
  EffortCounts,
  EvidenceSelection,
  EvidenceSelector,
  EvidenceUnit,
  Generator,
  Policy,
  QueryContext,
  Question,
  QuestionState,
  RankedWindow,
  Reranking,
  RetrievalTrace,
  Seed,
  SeedSelection,
  SeedSelector,
  SelectedPath,
  StageTimings,
  Traversal,
  Traverser,
  WindowReranker,
} from '@mosaic/spec';
import { checkAnalysis, checkAnswer, checkEvidenceSelection, checkReranking, checkSeedSelection, checkTraversal } from './check-stage-results.js';
import { forcedAnalysis, type PolicyChoice } from './forced-policy.js';
import { createIndexGraphView } from './index-graph-view.js';
import { runBatch, type BatchItem } from './run-batch.js';
import { abstainedAnswer, createEvidenceDocuments, locateQuotes } from './answer-sources.js';
import { judgeSupport, type Support } from './support.js';
import type { MosaicHooks, StageName } from './stage-hooks.js';

/** Windows handed to the generator when not set (the report's top 15). */
export const DEFAULT_WINDOWS = 15;

export interface MosaicOptions {
  /** The corpus index every stage reads (e.g. from `loadIndex` of @mosaic/indexing). */
  index: CorpusIndex;
  /** Question → policy. Default: the offline analyzer of @mosaic/analyzer. */
  analyzer?: Analyzer;
  /** Default: `createSeedSelector()` of @mosaic/seed-selection. */
  seedSelector?: SeedSelector;
  /** Default: `createBeamTraverser()` of @mosaic/traversal. */
  traverser?: Traverser;
  /** Default: `createEvidenceSelector()` of @mosaic/evidence-selection. */
  evidenceSelector?: EvidenceSelector;
  /** Default: `createFusionReranker()` of @mosaic/window-reranker (graph-evidence windows fused with whole-corpus BM25 and dense candidates; the report's bi-encoder-only ranking is `createBiEncoderReranker()`). */
  reranker?: WindowReranker;
  /** Used by `ask`. Default: `createExtractiveGenerator()` of @mosaic/generation (no LLM). */
  generator?: Generator;
  /** Windows handed on (the reranker's topN); default 15. */
  windows?: number;
  /** Force one policy for every question instead of running the analyzer ('narrow' | 'medium' | 'wide' | policy). */
  policy?: PolicyChoice;
  /** Stage observers. */
  hooks?: MosaicHooks;
  /**
   * Check stage results at the boundary: a malformed result, or a seed, path node or edge id the graph
   * does not hold, throws StageResultError naming the stage and the field. Default: the results of the
   * stages passed in (the built-in defaults pass their conformance suites and are not re-checked on
   * every question); `true` checks every stage, `false` none.
   */
  checkResults?: boolean;
  /**
   * Use graph evidence (default true). `false` is an ablation: the analyzer still runs (the policy is
   * reported), but seed selection, traversal and evidence selection are skipped and the reranker
   * receives `evidence: []`; `trace.graph` is `'off'`.
   */
  graph?: boolean;
  /**
   * Reorder the reranker's windows so that the one that answers comes first (`focusWindows` of
   * @mosaic/window-reranker: the window's best sentence against the question, and the agreement of its
   * document with the other windows and the evidence). Default true; `false` keeps the reranker's order.
   * The same windows are returned either way.
   */
  focus?: boolean;
  /** Share of the question one top window must hold for `ask` to answer (default MIN_SUPPORT, 0.4); 0 never abstains for a weak match. */
  minSupport?: number;
}

export interface RetrieveOptions extends AbortOptions {
  question: string | Question;
  /** Force a policy for this question (overrides the instance's `policy`). */
  policy?: PolicyChoice;
  /** Windows for this question (overrides the instance's `windows`). */
  windows?: number;
  /** Use graph evidence for this question (overrides the instance's `graph`). */
  graph?: boolean;
  /** Stage observers of this call only, called after the instance's (e.g. to stream a question's progress). */
  hooks?: MosaicHooks;
}

/** `RetrievalTrace` plus whether graph evidence was used (`'off'`: the `graph: false` ablation). */
export interface MosaicTrace extends RetrievalTrace {
  graph: 'on' | 'off';
  /** How the windows were reordered after reranking (absent with `focus: false`). */
  focus?: FocusTrace;
  /** Whether the windows support an answer (see `Retrieval.support`). */
  support?: Support;
}

/** Everything one retrieval produced. */
export interface Retrieval {
  question: Question;
  /** Ranked source windows (what a generator reads), best first. */
  windows: RankedWindow[];
  /** Evidence units the windows were reached from. */
  evidence: EvidenceUnit[];
  /** Selected paths, with roles. */
  paths: SelectedPath[];
  seeds: Seed[];
  policy: Policy;
  analysis: Analysis;
  trace: MosaicTrace;
  timings: StageTimings;
  effort: EffortCounts;
  /** Whether the corpus supports an answer: `ask` abstains when `support.abstain` (see `judgeSupport`). */
  support: Support;
}

export interface AskResult extends Retrieval {
  answer: Answer;
}

export interface BatchOptions<Output> extends AbortOptions {
  questions: readonly (string | Question)[];
  /** Questions in flight at once (default 2). */
  concurrency?: number;
  /** Force a policy for every question of the batch. */
  policy?: PolicyChoice;
  windows?: number;
  /** Use graph evidence for every question of the batch (overrides the instance's `graph`). */
  graph?: boolean;
  /** Called as each question finishes (in completion order). */
  onResult?(item: BatchItem<Question, Output>): void;
}

/** A configured pipeline. Stateless between calls except for the lazily built name table of the graph view. */
export interface Mosaic {
  /** The implementations in use. */
  readonly stages: {
    analyzer: Analyzer;
    seedSelector: SeedSelector;
    traverser: Traverser;
    evidenceSelector: EvidenceSelector;
    reranker: WindowReranker;
    generator: Generator;
  };
  /** Analyze, encode, select seeds, traverse, select evidence, rerank windows. */
  retrieve(options: RetrieveOptions): Promise<Retrieval>;
  /** `retrieve`, then generate an answer from the windows. */
  ask(options: RetrieveOptions): Promise<AskResult>;
  /** `retrieve` over many questions with a concurrency limit; results in input order. */
  retrieveBatch(options: BatchOptions<Retrieval>): Promise<BatchItem<Question, Retrieval>[]>;
  /** `ask` over many questions with a concurrency limit; results in input order. */
  askBatch(options: BatchOptions<AskResult>): Promise<BatchItem<Question, AskResult>[]>;
  /**
   * Get the index ready for questions before the first one arrives: each lexical index makes the
   * memory its scorings work in (`LexicalIndex.prepare`), then one question (the opening words of the
   * index's first window, by default) is retrieved with the whole question as its seed query and again
   * with one seed query per target (see `WarmUpOptions.policy`), so that every table a stage makes on
   * first use is made (and the analyzer's view of the graph its table of names), and the code of both
   * kinds of question is compiled. Without it the first question over a large index takes seconds and
   * the next few pay for fresh memory (docs/results/issue-31.md, sessions 23 and 26). Answers are the
   * same either way. The question is retrieved with fixed policies and without the instance's hooks.
   * The analyzer is not asked to `analyze`: when it has a `warmUp` (the offline analyzer does, and the
   * cache, log and fallback wrappers forward it) and no policy is forced, it analyzes three questions
   * ("What is A?" and "How is A related to B?", A and B the ends of the index's first relation, and the
   * warm-up question), and each is retrieved with its policy as well (the first question otherwise pays
   * for the analyzer's code, 10–20 ms: session 33). An LLM analyzer has none: no request is sent,
   * a policy log gets no line, a cache no entry.
   */
  warmUp(options?: WarmUpOptions): Promise<WarmUpResult>;
  /**
   * The analyzer's analysis of a question (its policy), asked over the pipeline's own view of the
   * graph, the one `retrieve` gives it: what a server's policy endpoint answers, without a second
   * table of entity names beside the pipeline's. Neither the instance's forced policy nor its hooks
   * take part; the analysis is checked as `retrieve` checks it when the instance checks the analyzer.
   */
  analyze(options: AnalyzeQuestionOptions): Promise<Analysis>;
}

export interface AnalyzeQuestionOptions extends AbortOptions {
  question: string | Question;
}

export interface WarmUpOptions extends AbortOptions {
  /** The question retrieved. Default: the first words of the index's first window (none without windows). */
  question?: string;
  /**
   * The policy it is retrieved with. Default: 'wide' (the deepest and widest search of the fixed ones),
   * then 'wide' again with one seed query per target (three targets made of the question's words, the
   * connector view, hybrid seed selection), as the analyzer answers a question that names several
   * things. A policy given is the only one.
   */
  policy?: PolicyChoice;
}

export interface WarmUpResult {
  /** Wall time of the whole warm-up. */
  durationMs: number;
  /** Bytes the lexical indexes made ready (`LexicalIndex.prepare`; 0 when none can). */
  preparedBytes: number;
  /** The question retrieved, or undefined when there was none to ask (an index without windows). */
  question?: string;
  /**
   * How many times it was retrieved: 2 by default (the 'wide' policy, then one seed query per target),
   * plus one per analysis (`analyses`); 1 with a policy given; 0 without a question.
   */
  retrievals: number;
  /** Questions the analyzer analyzed in its own `warmUp` (0 when it has none, or a policy was given here or to the instance). */
  analyses: number;
}

/**
 * The second policy of a default warm-up: 'wide', with one seed query per target (three targets made
 * of the question's words, a facet, the connector view, hybrid selection, anchoring): what the analyzer
 * gives a question that names several things. Seed selection then asks the lexical indexes for a
 * pruned top k and scores passages for a few relations, where the whole question reads every score,
 * and the traversal grows and joins regions of several targets: code and memory that a 'wide'
 * retrieval of the question alone leaves to the first such question (at 100 MB it took 14–43 ms
 * longer, in its seed selection and traversal: docs/results/issue-31.md, session 26).
 */
function warmUpTargetPolicy(question: string): Partial<Policy> {
  const words = question.split(/\s+/).filter((word) => word.length > 0);
  const third = Math.max(1, Math.ceil(words.length / 3));
  const targets = [0, 1, 2].map((i) => words.slice(i * third, (i + 1) * third).join(' ')).filter((target) => target.length > 0);
  return {
    ...fixedPolicy('wide'),
    seedQueryMode: 'per-target',
    targetEntities: targets,
    perTargetQueries: targets,
    targetFacets: words.slice(-1),
    selectionMode: 'hybrid',
    useConnector: true,
    anchorStrength: 0.5,
    adaptiveFinalEvidence: true,
  };
}

/**
 * The questions a warm-up gives the analyzer's `warmUp`: "What is A?" and "How is A related to B?",
 * A and B the names of the two ends of the index's first relation (names the graph knows, joined by
 * a relation: the analyzer resolves and connects them as it does a real question's), else the
 * question's first words; and the question itself (a long run of words).
 */
async function analyzerWarmUpQuestions(index: CorpusIndex, question: string): Promise<Question[]> {
  const words = question.split(/\s+/).filter((word) => word.length > 0);
  const [a = words.slice(0, 2).join(' '), b = words.slice(2, 4).join(' ') || a] = await firstRelationEnds(index);
  return [`What is ${a}?`, `How is ${a} related to ${b}?`, question].map((text, i) => ({ id: `warm-up-${i + 1}`, text }));
}

/** The names of the source and target of the index's first relation (none without relations or names). */
async function firstRelationEnds(index: CorpusIndex): Promise<string[]> {
  const id = index.relationIds[0];
  const [edge] = id === undefined ? [] : await index.graph.getEdges([id]);
  if (!edge) return [];
  const ends = [edge.source, edge.target];
  const nodes = await readNodeNames(index.graph, ends);
  const names = new Map(nodes.map((node) => [node.id, node.name.trim()]));
  const [a, b] = ends.map((end) => names.get(end));
  return a && b ? [a, b] : [];
}

/** Words of the first window that make the default warm-up question. */
const WARM_UP_WORDS = 24;

/** The opening words of `index`'s first window, or undefined when it has no window with words. */
function warmUpQuestion(index: CorpusIndex): string | undefined {
  const id = index.windowIds[0];
  const text = id === undefined ? undefined : index.chunks.getWindow(id)?.text;
  const words = text?.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)?.slice(0, WARM_UP_WORDS);
  return words && words.length > 0 ? words.join(' ') : undefined;
}

function checkWindows(windows: number): void {
  if (!Number.isInteger(windows) || windows < 1) {
    throw new InvalidArgumentError({ argument: 'windows', message: `must be a positive integer, got ${windows}` });
  }
}

function checkGraph(graph: unknown): void {
  if (graph !== undefined && typeof graph !== 'boolean') {
    throw new InvalidArgumentError({ argument: 'graph', message: `must be a boolean, got ${String(graph)}` });
  }
}

interface Timed<T> {
  result: T;
  durationMs: number;
  /** Requests the stage sent to the index's store (0 when the index does not count them). */
  roundTrips: number;
}

/** `run`, then the question state's `onDone` callbacks, also when `run` fails. */
async function thenDone<T>(state: QuestionState, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } finally {
    for (const done of state.onDone ?? []) done();
  }
}

/** The graph stages' outputs when the graph is off: nothing selected, nothing traversed, timing 0. */
function skippedGraphStages(): { seeds: Timed<SeedSelection>; traversal: Timed<Traversal>; evidence: Timed<EvidenceSelection> } {
  return {
    seeds: { result: { seeds: [], trace: { queries: [], candidates: [], seeds: [], deduplicated: 0 } }, durationMs: 0, roundTrips: 0 },
    traversal: {
      result: { paths: [], trace: { depths: [], stopReason: 'no-seeds', depthReached: 0, pathsEvaluated: 0, weights: {}, roundTrips: 0 } },
      durationMs: 0,
      roundTrips: 0,
    },
    evidence: {
      result: { paths: [], units: [], trace: { candidates: 0, considered: 0, selected: [], units: [], capped: 0, restored: 0 } },
      durationMs: 0,
      roundTrips: 0,
    },
  };
}

function toQuestion(question: string | Question): Question {
  const value = typeof question === 'string' ? { text: question } : question;
  if (typeof value?.text !== 'string' || value.text.trim().length === 0) {
    throw new InvalidArgumentError({ argument: 'question', message: 'must be a non-empty string or { text }' });
  }
  return value;
}

/** The instance's hooks, then a call's own. */
function bothHooks(first: MosaicHooks, second: MosaicHooks): MosaicHooks {
  return {
    onStageStart(event) {
      first.onStageStart?.(event);
      second.onStageStart?.(event);
    },
    onStageEnd(event) {
      first.onStageEnd?.(event);
      second.onStageEnd?.(event);
    },
  };
}

/** Runs one stage: hooks, timing, the boundary check, and abort handling. */
type StageTimer = <T>(
  stage: StageName,
  question: Question,
  abortSignal: AbortSignal | undefined,
  run: () => Promise<T>,
  check?: (result: T) => void | Promise<void>,
) => Promise<Timed<T>>;

/** The stages whose results are checked: those passed in, unless `checkResults` says all or none. */
function checkedStages(options: MosaicOptions): ReadonlySet<StageName> {
  const passedIn: [StageName, unknown][] = [
    ['analyze', options.analyzer],
    ['seeds', options.seedSelector],
    ['traverse', options.traverser],
    ['evidence', options.evidenceSelector],
    ['rerank', options.reranker],
    ['generate', options.generator],
  ];
  return new Set(passedIn.filter(([, stage]) => options.checkResults ?? stage !== undefined).map(([name]) => name));
}

function stageTimer(hooks: MosaicHooks, checked: ReadonlySet<StageName>, index: CorpusIndex, countsRoundTrips: boolean): StageTimer {
  const requests = () => (countsRoundTrips ? (index.roundTrips as number) : 0);
  return async (stage, question, abortSignal, run, check) => {
    throwIfAborted(abortSignal, stage);
    hooks.onStageStart?.({ stage, question });
    const started = performance.now();
    const requestsBefore = requests();
    let result: Awaited<ReturnType<typeof run>>;
    try {
      result = await run();
    } catch (error) {
      // Whatever a stage rejects with once the signal fired (e.g. a DOMException), callers see AbortedError.
      if (abortSignal?.aborted && !AbortedError.isInstance(error)) throw new AbortedError({ stage, cause: error });
      throw error;
    }
    const durationMs = performance.now() - started;
    const roundTrips = requests() - requestsBefore;
    if (check && checked.has(stage)) await check(result);
    hooks.onStageEnd?.({ stage, question, durationMs, result });
    throwIfAborted(abortSignal, stage);
    return { result, durationMs, roundTrips };
  };
}

/** The question vector, once per question, checked against the index's encoder dimension. */
async function encodeQuestion(index: CorpusIndex, question: Question, abortSignal: AbortSignal | undefined): Promise<Float32Array> {
  const [vector] = await index.encoder.encode([question.text], { abortSignal });
  const expected = index.manifest.encoder.dimension;
  if (!vector || vector.length !== expected) {
    throw new DimensionMismatchError({ expected, actual: vector?.length ?? 0, what: `Query vector of encoder ${index.encoder.id}` });
  }
  return vector;
}

type Stages = Mosaic['stages'];

/** Seeds → traversal → evidence, each timed and checked at the boundary. */
async function graphStages(
  timed: StageTimer,
  stages: Stages,
  base: { context: QueryContext; index: CorpusIndex; abortSignal: AbortSignal | undefined },
): Promise<{ seeds: Timed<SeedSelection>; traversal: Timed<Traversal>; evidence: Timed<EvidenceSelection> }> {
  const { context, index, abortSignal } = base;
  const question = context.question;
  const seeds = await timed(
    'seeds',
    question,
    abortSignal,
    () => stages.seedSelector.selectSeeds(base),
    (result) => checkSeedSelection(result, index, stages.seedSelector.id),
  );
  const traversal = await timed(
    'traverse',
    question,
    abortSignal,
    () => stages.traverser.traverse({ ...base, seeds: seeds.result.seeds }),
    (result) => checkTraversal(result, index, stages.traverser.id),
  );
  const evidence = await timed(
    'evidence',
    question,
    abortSignal,
    () => stages.evidenceSelector.selectEvidence({ ...base, paths: traversal.result.paths, seeds: seeds.result.seeds }),
    (result) => checkEvidenceSelection(result, stages.evidenceSelector.id),
  );
  return { seeds, traversal, evidence };
}

/** The retrieval result with its trace, timings and effort counts, from the timed stage results. */
function assembleRetrieval(parts: {
  question: Question;
  started: number;
  useGraph: boolean;
  /** The index counts its requests (`CorpusIndex.roundTrips`). */
  countsRoundTrips: boolean;
  analyzed: Timed<Analysis>;
  encoded: Timed<Float32Array>;
  seeds: Timed<SeedSelection>;
  traversal: Timed<Traversal>;
  evidence: Timed<EvidenceSelection>;
  rerank: Timed<Reranking>;
}): Omit<Retrieval, 'support'> {
  const { question, analyzed, encoded, seeds, traversal, evidence, rerank } = parts;
  const analysis = analyzed.result;
  const timings: StageTimings = {
    analyze: analyzed.durationMs,
    encode: encoded.durationMs,
    seeds: seeds.durationMs,
    traverse: traversal.durationMs,
    evidence: evidence.durationMs,
    rerank: rerank.durationMs,
    retrieval: encoded.durationMs + seeds.durationMs + traversal.durationMs + evidence.durationMs + rerank.durationMs,
    total: performance.now() - parts.started,
  };
  const effort: EffortCounts = {
    pathsEvaluated: traversal.result.trace.pathsEvaluated,
    depthReached: traversal.result.trace.depthReached,
    selectedPaths: evidence.result.paths.length,
    retainedEvidence: evidence.result.units.length,
  };
  // Encoding sends no requests and runs beside the analyzer: counting its window would count the analyzer's twice.
  const stageRoundTrips = [analyzed, seeds, traversal, evidence, rerank].map((stage) => stage.roundTrips);
  const trace: MosaicTrace = {
    graph: parts.useGraph ? 'on' : 'off',
    question: question.text,
    analysis,
    seeds: seeds.result.trace,
    traversal: traversal.result.trace,
    evidence: evidence.result.trace,
    rerank: rerank.result.trace,
    effort,
    timings,
    ...(parts.countsRoundTrips
      ? {
          roundTrips: {
            analyze: analyzed.roundTrips,
            seeds: seeds.roundTrips,
            traverse: traversal.roundTrips,
            evidence: evidence.roundTrips,
            rerank: rerank.roundTrips,
            total: stageRoundTrips.reduce((sum, n) => sum + n, 0),
          },
        }
      : {}),
  };
  return {
    question,
    windows: rerank.result.windows,
    evidence: evidence.result.units,
    paths: evidence.result.paths,
    seeds: seeds.result.seeds,
    policy: analysis.policy,
    analysis,
    trace,
    timings,
    effort,
  };
}

/** The stages passed in, and this package's offline defaults for the others. */
function stagesOf(options: MosaicOptions): Stages {
  return {
    analyzer: options.analyzer ?? createOfflineAnalyzer(),
    seedSelector: options.seedSelector ?? createSeedSelector(),
    traverser: options.traverser ?? createBeamTraverser(),
    evidenceSelector: options.evidenceSelector ?? createEvidenceSelector(),
    reranker: options.reranker ?? createFusionReranker(),
    generator: options.generator ?? createExtractiveGenerator(),
  };
}

/**
 * Compose the stages into one pipeline. Every stage is an implementation passed in (or this package's
 * offline default); nothing is global. The question is encoded once (`index.encoder`) into
 * `QueryContext.queryVector`, concurrently with the analyzer. Stage errors propagate unchanged (typed
 * errors from @mosaic/spec); an analyzer's or generator's own fallback decides what a failure becomes.
 * Once the abort signal fires, every call rejects with AbortedError (a stage's own abort error is its cause).
 */
export function createMosaic(options: MosaicOptions): Mosaic {
  const { index, hooks = {} } = options;
  if (!index || typeof index !== 'object') throw new InvalidArgumentError({ argument: 'index', message: 'a CorpusIndex is required' });
  const defaultWindows = options.windows ?? DEFAULT_WINDOWS;
  checkWindows(defaultWindows);
  checkGraph(options.graph);
  const defaultGraph = options.graph ?? true;
  const useFocus = options.focus ?? true;
  if (options.policy !== undefined) forcedAnalysis(options.policy); // fail fast on an unusable forced policy
  const stages = stagesOf(options);
  const graphView = createIndexGraphView({ index });
  // The documents each evidence unit's chunks lie in, a hub unit's kept across questions (the focus reads them).
  const evidenceDocumentsOf = createEvidenceDocuments();
  // Whether the index counts the requests it sends (`CorpusIndex.roundTrips`, e.g. a database-backed one).
  const countsRoundTrips = typeof index.roundTrips === 'number';
  const checked = checkedStages(options);
  const timed = stageTimer(hooks, checked, index, countsRoundTrips);
  /** The stage timer of one call: the instance's hooks, then the call's own. */
  const timerFor = (own: MosaicHooks | undefined): StageTimer => (own ? stageTimer(bothHooks(hooks, own), checked, index, countsRoundTrips) : timed);

  function retrieve(request: RetrieveOptions): Promise<Retrieval> {
    return retrieveTimed(request, timerFor(request.hooks));
  }

  async function retrieveTimed(request: RetrieveOptions, timed: StageTimer): Promise<Retrieval> {
    const started = performance.now();
    const { abortSignal } = request;
    const question = toQuestion(request.question);
    const topN = request.windows ?? defaultWindows;
    checkWindows(topN);
    checkGraph(request.graph);
    const useGraph = request.graph ?? defaultGraph;
    throwIfAborted(abortSignal, 'retrieve');
    const forced = request.policy ?? options.policy;
    const [analyzed, encoded] = await Promise.all([
      timed(
        'analyze',
        question,
        abortSignal,
        async () => (forced !== undefined ? forcedAnalysis(forced) : stages.analyzer.analyze({ question, graph: graphView, abortSignal })),
        (analysis) => (forced !== undefined ? undefined : checkAnalysis(analysis, stages.analyzer.id)),
      ),
      timed('encode', question, abortSignal, () => encodeQuestion(index, question, abortSignal)),
    ]);
    // One view of the index per retrieval when it offers one (a database-backed index keeps what this question read).
    const view = index.forRetrieval?.() ?? index;
    // The question's own state (QueryContext.state): what one stage computes for it and a later one reads
    // (the passage relevance of seed selection, traversal and evidence selection), never kept past this call.
    // Its `onDone` returns the arrays the stages took from the index (a passage relevance's chunk
    // scores) once reranking is over: nothing reads the state after it.
    const state: QuestionState = { passageRelevance: new Map(), onDone: [] };
    const base = { context: { question, queryVector: encoded.result, policy: analyzed.result.policy, state }, index: view, abortSignal };
    const { seeds, traversal, evidence, rerank } = await thenDone(state, async () => {
      const graph = useGraph ? await graphStages(timed, stages, base) : skippedGraphStages();
      const rerank = await timed(
        'rerank',
        question,
        abortSignal,
        () => stages.reranker.rerank({ ...base, evidence: graph.evidence.result.units, topN }),
        (result) => checkReranking(result, topN, stages.reranker.id),
      );
      return { ...graph, rerank };
    });
    const retrieval = assembleRetrieval({
      question,
      started,
      useGraph,
      countsRoundTrips,
      analyzed,
      encoded,
      seeds,
      traversal,
      evidence,
      rerank,
    });
    const grounding = performance.now();
    let windows = retrieval.windows;
    let focus: FocusTrace | undefined;
    // Where each window sits: document, title and section, lines or pages when the index kept an outline.
    const outlineOf = (documentId: string) => view.chunks.documentOutline?.(documentId);
    windows = windows.map((window) => ({
      ...window,
      source: window.source ?? locateSpan(window.documentId, window.start, window.end, outlineOf(window.documentId)),
    }));
    // How many windows of the corpus hold a word: asked once per word for the focus step and the support judgement.
    const wordCount = corpusWordCount(view);
    if (useFocus) {
      const weight = corpusWordWeight(view, wordCount);
      ({ windows, trace: focus } = focusWindows({
        question: question.text,
        windows,
        documentSupport: evidenceDocumentsOf(view, retrieval.evidence),
        sectionsWithin: (window) => sectionsWithin(outlineOf(window.documentId), window.start, window.end),
        ...(weight ? { wordWeight: weight } : {}),
      }));
    }
    const support = judgeSupport({ question: question.text, windows, index: view, minSupport: options.minSupport, ...(wordCount ? { wordCount } : {}) });
    // The grounding is part of the retrieval a caller waits for: counted in `retrieval` and `total`.
    const ground = performance.now() - grounding;
    const timings: StageTimings = { ...retrieval.timings, ground, retrieval: retrieval.timings.retrieval + ground, total: performance.now() - started };
    return { ...retrieval, windows, support, timings, trace: { ...retrieval.trace, timings, ...(focus ? { focus } : {}), support } };
  }

  async function ask(request: RetrieveOptions): Promise<AskResult> {
    const started = performance.now();
    const retrieval = await retrieve(request);
    const { question } = retrieval;
    const { support } = retrieval;
    const timed = timerFor(request.hooks);
    // Nothing in the corpus supports an answer: say so plainly instead of asking the generator.
    const generated = support.abstain
      ? await timed('generate', question, request.abortSignal, async () => abstainedAnswer({ question, support, windows: retrieval.windows }))
      : await timed(
          'generate',
          question,
          request.abortSignal,
          () => stages.generator.generate({ question, windows: retrieval.windows, abortSignal: request.abortSignal }),
          (answer) => checkAnswer(answer, retrieval.windows.length, stages.generator.id),
        );
    let answer = generated.result;
    if (!support.abstain) {
      answer = locateQuotes(answer, retrieval.windows, (documentId) => index.chunks.documentOutline?.(documentId));
      if (support.warnings.length > 0) answer = { ...answer, warnings: [...(answer.warnings ?? []), ...support.warnings] };
    }
    const timings: StageTimings = { ...retrieval.timings, generate: generated.durationMs, total: performance.now() - started };
    return { ...retrieval, timings, trace: { ...retrieval.trace, timings }, answer };
  }

  function batch<Output>(run: (request: RetrieveOptions) => Promise<Output>, request: BatchOptions<Output>) {
    const questions = request.questions.map(toQuestion);
    return runBatch<Question, Output>({
      inputs: questions,
      concurrency: request.concurrency ?? 2,
      abortSignal: request.abortSignal,
      onResult: request.onResult,
      task: (question) => run({ question, policy: request.policy, windows: request.windows, graph: request.graph, abortSignal: request.abortSignal }),
    });
  }

  async function warmUp(request: WarmUpOptions = {}): Promise<WarmUpResult> {
    const started = performance.now();
    const given = request.question === undefined ? undefined : toQuestion(request.question).text;
    const policy = request.policy ?? 'wide';
    forcedAnalysis(policy); // an unusable policy fails before any work
    throwIfAborted(request.abortSignal, 'warm-up');
    let preparedBytes = 0;
    for (const lexical of [index.lexical?.entities, index.lexical?.relations, index.lexical?.windows]) {
      if (lexical && typeof lexical.prepare === 'function') preparedBytes += lexical.prepare();
    }
    // The sentence numbers of the graph's spans in the chunk store's sentence tokens, which evidence
    // selection ranks a hub's sentences by (`SpanColumns.sentenceNumbers`: made for every span the
    // first time they are asked about, about 1 s at 100 MB of text): now, not in the first question.
    const sentences = matchSentenceTokens(index.chunks);
    if (sentences && typeof index.graph.spanColumns === 'function' && index.entityIds.length > 0) {
      index.graph.spanColumns('node', index.entityIds[0])?.sentenceNumbers?.(sentences);
    }
    const question = given ?? warmUpQuestion(index);
    // The analyzer's view of the graph (its table of entity names), made without asking the analyzer.
    await graphView.prepare();
    throwIfAborted(request.abortSignal, 'warm-up');
    if (question === undefined) return { durationMs: performance.now() - started, preparedBytes, retrievals: 0, analyses: 0 };
    // Without a policy given, the question is also retrieved once per target (see `warmUpTargetPolicy`).
    const policies: PolicyChoice[] = request.policy === undefined ? [policy, warmUpTargetPolicy(question)] : [policy];
    // The analyzer's own warm-up, when it has one and will be asked (no policy forced), and the policies it gives.
    let analyses = 0;
    if (request.policy === undefined && options.policy === undefined && typeof stages.analyzer.warmUp === 'function') {
      const questions = await analyzerWarmUpQuestions(index, question);
      const analyzed = await stages.analyzer.warmUp({ questions, graph: graphView, abortSignal: request.abortSignal });
      for (const analysis of analyzed) {
        if (checked.has('analyze')) checkAnalysis(analysis, stages.analyzer.id);
        policies.push(analysis.policy);
      }
      analyses = analyzed.length;
      throwIfAborted(request.abortSignal, 'warm-up');
    }
    for (const choice of policies) {
      // Hooks of nobody: the instance's observers see the questions asked, not this one.
      await retrieveTimed(
        { question: { id: 'warm-up', text: question }, policy: choice, abortSignal: request.abortSignal },
        stageTimer({}, checked, index, countsRoundTrips),
      );
    }
    return { durationMs: performance.now() - started, preparedBytes, retrievals: policies.length, analyses, question };
  }

  async function analyze(request: AnalyzeQuestionOptions): Promise<Analysis> {
    const question = toQuestion(request.question);
    throwIfAborted(request.abortSignal, 'analyze');
    const analysis = await stages.analyzer.analyze({ question, graph: graphView, abortSignal: request.abortSignal });
    if (checked.has('analyze')) checkAnalysis(analysis, stages.analyzer.id);
    return analysis;
  }

  return {
    stages,
    retrieve,
    ask,
    retrieveBatch: (request) => batch(retrieve, request),
    askBatch: (request) => batch(ask, request),
    warmUp,
    analyze,
  };
}
