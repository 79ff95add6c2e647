import type { Mosaic, PolicyChoice } from '@mosaic/pipeline';
import type { Answer, RankedWindow, SourceLocation } from '@mosaic/spec';
import { type Tool, type ToolExecutionOptions, tool } from 'ai';
import { z } from 'zod';

export interface MosaicToolOptions {
  /** The pipeline (`createMosaic` of @mosaic/pipeline). */
  mosaic: Mosaic;
  /** Windows per call when the model does not ask for a number (default: the pipeline's, 15). */
  windows?: number;
  /** Force a policy instead of the analyzer's. */
  policy?: PolicyChoice;
  /** What the model reads about the tool (default: a description of the tool over "the indexed documents"). */
  description?: string;
}

/** A window as a tool returns it: text, where it comes from, score. */
export interface MosaicToolWindow {
  rank: number;
  id: string;
  documentId: string;
  start: number;
  end: number;
  score: number;
  text: string;
  source?: SourceLocation;
}

function toolWindow(window: RankedWindow, rank: number): MosaicToolWindow {
  return {
    rank,
    id: window.id,
    documentId: window.documentId,
    start: window.start,
    end: window.end,
    score: window.score,
    text: window.text,
    ...(window.source ? { source: window.source } : {}),
  };
}

const windowsInput = z.number().int().min(1).max(50).optional().describe('How many passages to return (default 15).');

/** Input of the search tool (zod; the model sees its JSON schema). */
export const searchInputSchema = z.object({
  query: z.string().min(1).max(4000).describe('What to find: a question or a description of the passages wanted.'),
  windows: windowsInput,
});

/** Input of the ask tool. */
export const askInputSchema = z.object({
  question: z.string().min(1).max(4000).describe('The question to answer from the indexed documents.'),
  windows: windowsInput,
});

export type SearchInput = z.output<typeof searchInputSchema>;
export type AskInput = z.output<typeof askInputSchema>;
export interface SearchOutput {
  windows: MosaicToolWindow[];
}
export interface AskOutput {
  /** The generator's Answer, passed through as is (text, citations, and any further fields). */
  answer: Answer;
  windows: MosaicToolWindow[];
}

/** A tool of `ai` with its `execute` (so it can be called directly too: it resolves to the output, never streams). */
export type MosaicTool<INPUT, OUTPUT> = { execute: (input: INPUT, options: ToolExecutionOptions<never>) => Promise<OUTPUT> } & Tool<INPUT, OUTPUT>;

/**
 * An AI SDK tool (`tool()` of `ai`) that retrieves passages with Mosaic: the ranked source windows for a
 * query, each with its document and offsets. The call's `abortSignal` aborts the pipeline.
 */
export function mosaicSearchTool(options: MosaicToolOptions): MosaicTool<SearchInput, SearchOutput> {
  // `execute` is an async function: it resolves to the output (the declared union also allows streams and plain values).
  return tool<SearchInput, SearchOutput, never>({
    description:
      options.description ??
      'Search the indexed documents: returns the passages (about 1,600 characters each) that hold the evidence for a query, best first, with their document id and offsets.',
    inputSchema: searchInputSchema,
    execute: async ({ query, windows }, { abortSignal }): Promise<SearchOutput> => {
      const result = await options.mosaic.retrieve({ question: query, windows: windows ?? options.windows, policy: options.policy, abortSignal });
      return { windows: result.windows.map((window, i) => toolWindow(window, i + 1)) };
    },
  }) as unknown as MosaicTool<SearchInput, SearchOutput>;
}

/**
 * An AI SDK tool that answers from the indexed documents with Mosaic's generator: the Answer object
 * (text, citations into `windows`, and any further fields the generator sets) and the windows cited.
 */
export function mosaicAskTool(options: MosaicToolOptions): MosaicTool<AskInput, AskOutput> {
  return tool<AskInput, AskOutput, never>({
    description:
      options.description ?? 'Answer a question from the indexed documents; the answer cites the passages it used ([n] is the n-th window returned).',
    inputSchema: askInputSchema,
    execute: async ({ question, windows }, { abortSignal }): Promise<AskOutput> => {
      const result = await options.mosaic.ask({ question, windows: windows ?? options.windows, policy: options.policy, abortSignal });
      return { answer: result.answer, windows: result.windows.map((window, i) => toolWindow(window, i + 1)) };
    },
  }) as unknown as MosaicTool<AskInput, AskOutput>;
}

/** Both tools, keyed as a model sees them: `{ search, ask }`. */
export function mosaicTools(options: MosaicToolOptions): { search: MosaicTool<SearchInput, SearchOutput>; ask: MosaicTool<AskInput, AskOutput> } {
  return { search: mosaicSearchTool(options), ask: mosaicAskTool(options) };
}
