import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallbackManagerForRetrieverRun } from '@langchain/core/callbacks/manager';
import { Document } from '@langchain/core/documents';
import type { RunnableConfig } from '@langchain/core/runnables';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';
import type { Mosaic, PolicyChoice } from '@mosaic/pipeline';
import type { RankedWindow, SourceLocation } from '@mosaic/spec';

/** The metadata of every Document the retriever returns. */
export interface MosaicDocumentMetadata extends Record<string, unknown> {
  /** 1-based rank among the windows returned. */
  rank: number;
  score: number;
  windowId: string;
  documentId: string;
  /** Character offsets of the window in its document. */
  start: number;
  end: number;
  /** Evidence units that led to this window. */
  evidenceIds: string[];
  /** Per-component scores (e.g. bm25, dense, graph). */
  scores?: Record<string, number>;
  /** Title, section, line/page span, when the index keeps document outlines. */
  source?: SourceLocation;
}

export interface MosaicRetrieverInput extends BaseRetrieverInput {
  /** The pipeline (`createMosaic` of @mosaic/pipeline). */
  mosaic: Mosaic;
  /** Windows per query (default: the pipeline's, 15). */
  windows?: number;
  /** Force a policy ('narrow' | 'medium' | 'wide' | policy) instead of the analyzer's. */
  policy?: PolicyChoice;
  /** Use graph evidence (default: the pipeline's). */
  graph?: boolean;
}

/** A window as a LangChain Document: its text as `pageContent`, where it comes from as metadata. */
export function windowToDocument(window: RankedWindow, rank: number): Document<MosaicDocumentMetadata> {
  return new Document<MosaicDocumentMetadata>({
    id: window.id,
    pageContent: window.text,
    metadata: {
      rank,
      score: window.score,
      windowId: window.id,
      documentId: window.documentId,
      start: window.start,
      end: window.end,
      evidenceIds: window.evidenceIds,
      ...(window.scores ? { scores: window.scores } : {}),
      ...(window.source ? { source: window.source } : {}),
    },
  });
}

/**
 * A LangChain.js retriever over a Mosaic pipeline: `invoke(query)` runs Mosaic's retrieval and returns
 * the ranked source windows as Documents. The `signal` of the call's config aborts the pipeline.
 */
export class MosaicRetriever extends BaseRetriever<MosaicDocumentMetadata> {
  static override lc_name(): string {
    return 'MosaicRetriever';
  }
  override lc_namespace = ['mosaic', 'retrievers'];
  readonly mosaic: Mosaic;
  readonly windows?: number;
  readonly policy?: PolicyChoice;
  readonly graph?: boolean;
  /** The abort signal of the call in progress (BaseRetriever does not hand the config to _getRelevantDocuments). */
  private readonly signals = new AsyncLocalStorage<AbortSignal | undefined>();

  constructor(fields: MosaicRetrieverInput) {
    super(fields);
    this.mosaic = fields.mosaic;
    this.windows = fields.windows;
    this.policy = fields.policy;
    this.graph = fields.graph;
  }

  override invoke(input: string, options?: RunnableConfig): Promise<Document<MosaicDocumentMetadata>[]> {
    return this.signals.run(options?.signal, () => super.invoke(input, options));
  }

  override async _getRelevantDocuments(query: string, _runManager?: CallbackManagerForRetrieverRun): Promise<Document<MosaicDocumentMetadata>[]> {
    const result = await this.mosaic.retrieve({
      question: query,
      windows: this.windows,
      policy: this.policy,
      graph: this.graph,
      abortSignal: this.signals.getStore(),
    });
    return result.windows.map((window, i) => windowToDocument(window, i + 1));
  }
}
