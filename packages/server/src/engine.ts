import type { AskResult, Mosaic, MosaicHooks, Retrieval } from '@mosaic/pipeline';
import type { CorpusIndex, RankedWindow, SourceDocument, Traversal } from '@mosaic/spec';
import type { AskRequest, AskResponse, DocumentResponse, PolicyRequest, PolicyResponse, RetrieveRequest, RetrieveResponse, WindowResponse } from './schemas.js';

/** A progress event of one question, as the pipeline's stages finish (streamed by `POST /v1/ask` as server-sent events). */
export type ProgressEvent =
  | { event: 'policy'; data: Pick<PolicyResponse, 'policy' | 'analyzer' | 'changes'> }
  | { event: 'seeds'; data: { seeds: RetrieveResponse['seeds'] } }
  | { event: 'stop'; data: { stopReason: string; depthReached: number; pathsEvaluated: number } }
  | { event: 'windows'; data: { windows: WindowResponse[] } }
  | { event: 'answer'; data: { answer: AskResponse['answer'] } };

export interface EngineCallOptions {
  abortSignal?: AbortSignal;
  /** Called as the stages finish (policy, seeds, stop, windows, answer). */
  onEvent?(event: ProgressEvent): void;
}

/** A document's id, corpus and title, for listings. */
export interface DocumentSummary {
  id: string;
  corpus: string;
  title?: string;
  characters: number;
}

/**
 * What the HTTP and MCP servers run: JSON in, JSON out (plain, cloneable data), so that an engine can
 * live in this thread (`createLocalEngine`) or in a pool of workers (`createWorkerPool`).
 */
export interface MosaicEngine {
  retrieve(request: RetrieveRequest, options?: EngineCallOptions): Promise<RetrieveResponse>;
  ask(request: AskRequest, options?: EngineCallOptions): Promise<AskResponse>;
  policy(request: PolicyRequest, options?: EngineCallOptions): Promise<PolicyResponse>;
  /** A document by id, or undefined when the index holds none of that id (or keeps no documents). */
  document(id: string): Promise<DocumentResponse | undefined>;
  /** The indexed documents (empty when the index keeps none, e.g. a database-backed index). */
  documents(): Promise<DocumentSummary[]>;
  /** Release what the engine holds (workers); a local engine has nothing to release. */
  close(): Promise<void>;
  /**
   * Runs real questions through every stage once, so that a fresh process pays for its first requests
   * (lazily built tables, the encoder's first runs, V8 compiling the hot code) before it serves any.
   */
  warmUp?(options?: WarmUpOptions): Promise<WarmUpReport>;
}

export interface WarmUpOptions {
  /** How many questions (default 64), made from the index's entities: "What is X?", "How is X related to Y?". */
  questions?: number;
}

export interface WarmUpReport {
  /** Pipeline calls made (the pipeline's `warmUp`, retrievals, one ask, one policy). */
  calls: number;
  /** Wall time of the first call and the median of the last ten, in ms: how much colder the first was. */
  firstMs: number;
  lastMedianMs: number;
  totalMs: number;
}

/**
 * Warm-up questions made from the index: the names of `count` entities spread evenly over the entity
 * table (deterministic), as "What is X?" and, for every third, "How is X related to Y?" with one of its
 * neighbours. Empty when the index has no entities.
 */
export async function warmUpQuestions(index: Pick<CorpusIndex, 'entityIds' | 'graph'>, count: number): Promise<string[]> {
  const total = index.entityIds.length;
  if (total === 0 || count <= 0) return [];
  const ids = Array.from({ length: Math.min(count, total) }, (_, i) => index.entityIds[Math.floor((i * total) / Math.min(count, total))]!);
  const nodes = await index.graph.getNodes(ids);
  const names = new Map(nodes.map((node) => [node.id, node.name]));
  const neighbors = await index.graph.neighbors(ids.filter((_, i) => i % 3 === 2));
  const neighborIds = [...neighbors.values()].map((list) => list[0]?.node).filter((id): id is string => id !== undefined);
  for (const node of await index.graph.getNodes(neighborIds)) names.set(node.id, node.name);
  return ids.flatMap((id, i) => {
    const name = names.get(id);
    if (!name) return [];
    const other = i % 3 === 2 ? names.get(neighbors.get(id)?.[0]?.node ?? '') : undefined;
    return [other ? `How is ${name} related to ${other}?` : `What is ${name}?`];
  });
}

export interface LocalEngineOptions {
  /** The pipeline (`createMosaic` of @mosaic/pipeline). */
  mosaic: Mosaic;
  /** The index the pipeline reads (the warm-up questions are made from its graph). */
  index: CorpusIndex;
  /** The corpus documents; default `index.documents` when the index has them (a loaded file index does). */
  documents?: readonly SourceDocument[];
}

/** A window as the API returns it: 1-based rank, offsets, scores, and its source location when known. */
export function windowResponse(window: RankedWindow, rank: number): WindowResponse {
  return {
    rank,
    id: window.id,
    documentId: window.documentId,
    start: window.start,
    end: window.end,
    score: window.score,
    text: window.text,
    evidenceIds: window.evidenceIds,
    ...(window.scores ? { scores: window.scores } : {}),
    ...(window.source ? { source: window.source } : {}),
  };
}

function seedsOf(seeds: Retrieval['seeds']): RetrieveResponse['seeds'] {
  return seeds.map((seed) => ({ nodeId: seed.nodeId, name: seed.name, score: seed.score, query: seed.query }));
}

/** The response of a retrieval (plain data: no vectors, the trace only when asked for). */
export function retrieveResponse(result: Retrieval, request: RetrieveRequest): RetrieveResponse {
  return {
    question: result.question.text,
    ...(request.id !== undefined ? { id: request.id } : {}),
    policy: result.policy as unknown as Record<string, unknown>,
    windows: result.windows.map((window, i) => windowResponse(window, i + 1)),
    seeds: seedsOf(result.seeds),
    effort: { ...result.effort },
    timings: { ...result.timings },
    stopReason: result.trace.traversal.stopReason,
    ...(request.trace ? { trace: JSON.parse(JSON.stringify(result.trace)) } : {}),
  };
}

/** The per-call hooks that turn stage ends into progress events. */
function progressHooks(onEvent: (event: ProgressEvent) => void): MosaicHooks {
  return {
    onStageEnd({ stage, result }) {
      if (stage === 'analyze') {
        const analysis = result as Retrieval['analysis'];
        onEvent({
          event: 'policy',
          data: { policy: analysis.policy as unknown as Record<string, unknown>, analyzer: analysis.analyzer, changes: analysis.changes },
        });
      } else if (stage === 'seeds') {
        onEvent({ event: 'seeds', data: { seeds: seedsOf((result as { seeds: Retrieval['seeds'] }).seeds) } });
      } else if (stage === 'traverse') {
        const { trace } = result as Traversal;
        onEvent({ event: 'stop', data: { stopReason: trace.stopReason, depthReached: trace.depthReached, pathsEvaluated: trace.pathsEvaluated } });
      } else if (stage === 'rerank') {
        const windows = (result as { windows: RankedWindow[] }).windows;
        onEvent({ event: 'windows', data: { windows: windows.map((window, i) => windowResponse(window, i + 1)) } });
      } else if (stage === 'generate') {
        onEvent({ event: 'answer', data: { answer: result as AskResponse['answer'] } });
      }
    },
  };
}

function pipelineOptions(request: RetrieveRequest, options: EngineCallOptions) {
  return {
    question: request.id !== undefined ? { id: request.id, text: request.question } : { text: request.question },
    policy: request.policy === undefined || request.policy === 'adaptive' ? undefined : request.policy,
    windows: request.windows,
    graph: request.graph,
    abortSignal: options.abortSignal,
    hooks: options.onEvent ? progressHooks(options.onEvent) : undefined,
  };
}

function documentsOf(options: LocalEngineOptions): readonly SourceDocument[] {
  return options.documents ?? (options.index as { documents?: readonly SourceDocument[] }).documents ?? [];
}

/** An engine over a pipeline in this thread. */
export function createLocalEngine(options: LocalEngineOptions): MosaicEngine {
  const { mosaic, index } = options;
  const documents = documentsOf(options);
  const byId = new Map(documents.map((document) => [document.id, document]));
  const engine: MosaicEngine = {
    async retrieve(request, call = {}) {
      return retrieveResponse(await mosaic.retrieve(pipelineOptions(request, call)), request);
    },
    async ask(request, call = {}) {
      const result: AskResult = await mosaic.ask(pipelineOptions(request, call));
      return { ...retrieveResponse(result, request), answer: result.answer as AskResponse['answer'] };
    },
    async policy(request, call = {}) {
      const question = request.id !== undefined ? { id: request.id, text: request.question } : { text: request.question };
      // The pipeline's own view of the graph (one table of entity names in the process, not two).
      const analysis = await mosaic.analyze({ question, abortSignal: call.abortSignal });
      call.onEvent?.({
        event: 'policy',
        data: { policy: analysis.policy as unknown as Record<string, unknown>, analyzer: analysis.analyzer, changes: analysis.changes },
      });
      return {
        question: question.text,
        ...(request.id !== undefined ? { id: request.id } : {}),
        policy: analysis.policy as unknown as Record<string, unknown>,
        analyzer: analysis.analyzer,
        changes: analysis.changes,
        ...(analysis.fallback ? { fallback: analysis.fallback } : {}),
        latencyMs: analysis.latencyMs,
      };
    },
    async document(id) {
      const document = byId.get(id);
      if (!document) return undefined;
      return { id: document.id, corpus: document.corpus, text: document.text, ...(document.outline ? { outline: document.outline } : {}) };
    },
    async documents() {
      return documents.map((document) => ({
        id: document.id,
        corpus: document.corpus,
        ...(document.outline?.title ? { title: document.outline.title } : {}),
        characters: document.text.length,
      }));
    },
    async close() {},
    async warmUp(warmUpOptions = {}) {
      const questions = await warmUpQuestions(index, warmUpOptions.questions ?? 64);
      const times: number[] = [];
      const started = performance.now();
      const timed = async (run: () => Promise<unknown>) => {
        const t0 = performance.now();
        await run();
        times.push(performance.now() - t0);
      };
      // The pipeline's own warm-up first (the lexical indexes' scoring memory, one question from the corpus).
      await timed(() => mosaic.warmUp());
      for (const question of questions) await timed(() => engine.retrieve({ question }));
      if (questions[0]) {
        await timed(() => engine.ask({ question: questions[0]! }));
        await timed(() => engine.policy({ question: questions[0]! }));
      }
      const last = times.slice(-10).sort((a, b) => a - b);
      return {
        calls: times.length,
        firstMs: Math.round(times[0] ?? 0),
        lastMedianMs: Math.round(last[Math.floor(last.length / 2)] ?? 0),
        totalMs: Math.round(performance.now() - started),
      };
    },
  };
  return engine;
}

/**
 * An engine usable at once over one still opening (e.g. a large index loading): every call waits for
 * `opening`, and fails with its error when opening failed. Lets a server accept connections (an MCP
 * client's handshake) before the index is loaded.
 */
export function deferEngine(opening: Promise<MosaicEngine>): MosaicEngine {
  opening.catch(() => undefined);
  return {
    retrieve: async (request, options) => (await opening).retrieve(request, options),
    ask: async (request, options) => (await opening).ask(request, options),
    policy: async (request, options) => (await opening).policy(request, options),
    document: async (id) => (await opening).document(id),
    documents: async () => (await opening).documents(),
    close: async () => (await opening.catch(() => undefined))?.close(),
    warmUp: async (options) => {
      const engine = await opening;
      return engine.warmUp ? engine.warmUp(options) : { calls: 0, firstMs: 0, lastMedianMs: 0, totalMs: 0 };
    },
  };
}
