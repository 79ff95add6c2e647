import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { MAX_QUESTION_CHARS, MAX_WINDOWS, type MosaicEngine, type WindowResponse } from '@mosaic/server';
import { z } from 'zod';

export interface MosaicMcpServerOptions {
  /** What answers: `createLocalEngine` or `createWorkerPool` of @mosaic/server. */
  engine: MosaicEngine;
  /** Server name shown to clients (default 'mosaic'). */
  name?: string;
  version?: string;
  /** The corpus served, named in the tool descriptions. */
  corpus?: string;
}

/** The URI of an indexed document as an MCP resource. */
export function documentUri(id: string): string {
  return `mosaic://documents/${encodeURIComponent(id)}`;
}

const question = z.string().trim().min(1).max(MAX_QUESTION_CHARS);
const windows = z.int().min(1).max(MAX_WINDOWS);
const policy = z.enum(['adaptive', 'narrow', 'medium', 'wide']);

/** Input of the `search` tool. */
export const SearchInputShape = {
  query: question.describe('What to find: a question or a description of the passages wanted.'),
  windows: windows.optional().describe('How many source windows to return (default 15).'),
  policy: policy.optional().describe('adaptive (default: decided per question) or a fixed retrieval policy.'),
};

/** Input of the `ask` tool. */
export const AskInputShape = {
  question: question.describe('The question to answer from the indexed documents.'),
  windows: windows.optional().describe('How many source windows the answer may draw on (default 15).'),
};

const sourceShape = z.object({
  documentId: z.string(),
  uri: z.string(),
  start: z.int(),
  end: z.int(),
  title: z.string().optional(),
  section: z.array(z.string()).optional(),
  lines: z.object({ start: z.int(), end: z.int() }).optional(),
});

const windowShape = z.object({ rank: z.int(), id: z.string(), score: z.number(), text: z.string(), source: sourceShape });

export const SearchOutputShape = { windows: z.array(windowShape), policy: z.record(z.string(), z.unknown()) };
export const AskOutputShape = {
  answer: z.string(),
  abstained: z.boolean().optional(),
  generator: z.string(),
  citations: z.array(z.object({ window: z.int(), windowId: z.string(), source: sourceShape.optional() })),
  windows: z.array(windowShape),
};

function sourceOf(window: WindowResponse): z.output<typeof sourceShape> {
  const location = window.source;
  return {
    documentId: window.documentId,
    uri: documentUri(window.documentId),
    start: location?.start ?? window.start,
    end: location?.end ?? window.end,
    ...(location?.title ? { title: location.title } : {}),
    ...(location?.section ? { section: location.section } : {}),
    ...(location?.lines ? { lines: location.lines } : {}),
  };
}

function windowOf(window: WindowResponse): z.output<typeof windowShape> {
  return { rank: window.rank, id: window.id, score: window.score, text: window.text, source: sourceOf(window) };
}

/** "[2] Title › Section, lines 4–9 (doc-1:1600–3200)" */
function sourceLine(source: z.output<typeof sourceShape>): string {
  const where = [source.title, source.section?.join(' › ')].filter(Boolean).join(' › ');
  const lines = source.lines ? `, lines ${source.lines.start}–${source.lines.end}` : '';
  return `${where ? `${where}${lines} ` : ''}(${source.documentId}:${source.start}–${source.end})`;
}

/**
 * An MCP server (official TypeScript SDK) over a Mosaic engine: tools `search` (ranked windows with their
 * sources) and `ask` (an answer with citations), and the indexed documents as resources
 * (`mosaic://documents/{id}`). Connect it to any transport (`serveMcpStdio`, `createMcpHttpHandler`).
 */
export function createMosaicMcpServer(options: MosaicMcpServerOptions): McpServer {
  const { engine } = options;
  const server = new McpServer({ name: options.name ?? 'mosaic', version: options.version ?? '0.1.0' }, { capabilities: { logging: {} } });
  const corpus = options.corpus ? ` of the ${options.corpus} corpus` : '';
  server.registerTool(
    'search',
    {
      title: 'Search the indexed documents',
      description: `Graph-guided retrieval over the indexed documents${corpus}: returns the source windows (passages of about 1,600 characters) that hold the evidence for a query, best first, each with its document and offsets.`,
      inputSchema: SearchInputShape,
      outputSchema: SearchOutputShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (input, extra) => {
      const result = await engine.retrieve({ question: input.query, windows: input.windows, policy: input.policy }, { abortSignal: extra.signal });
      const found = result.windows.map(windowOf);
      const text = found.map((window) => `[${window.rank}] ${sourceLine(window.source)}\n${window.text}`).join('\n\n');
      return { content: [{ type: 'text', text: text || 'No passages found.' }], structuredContent: { windows: found, policy: result.policy } };
    },
  );
  server.registerTool(
    'ask',
    {
      title: 'Answer from the indexed documents',
      description: `Answers a question from the indexed documents${corpus}, citing the source windows it drew on ([n] refers to the n-th window).`,
      inputSchema: AskInputShape,
      outputSchema: AskOutputShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (input, extra) => {
      const result = await engine.ask({ question: input.question, windows: input.windows }, { abortSignal: extra.signal });
      const found = result.windows.map(windowOf);
      const citations = result.answer.citations.map((citation) => {
        const window = found[citation.window - 1];
        return { window: citation.window, windowId: citation.windowId, ...(window ? { source: window.source } : {}) };
      });
      const abstained = (result.answer as { abstained?: unknown }).abstained;
      const sources = citations.map((citation) => `[${citation.window}] ${citation.source ? sourceLine(citation.source) : citation.windowId}`).join('\n');
      return {
        content: [{ type: 'text', text: `${result.answer.text}${sources ? `\n\nSources:\n${sources}` : ''}` }],
        structuredContent: {
          answer: result.answer.text,
          ...(typeof abstained === 'boolean' ? { abstained } : {}),
          generator: result.answer.generator,
          citations,
          windows: found,
        },
      };
    },
  );
  server.registerResource(
    'document',
    new ResourceTemplate('mosaic://documents/{id}', {
      list: async () => ({
        resources: (await engine.documents()).map((document) => ({
          uri: documentUri(document.id),
          name: document.title ?? document.id,
          description: `${document.corpus}: ${document.characters} characters`,
          mimeType: 'text/plain',
        })),
      }),
    }),
    { title: 'Indexed document', description: 'The clean text of an indexed document', mimeType: 'text/plain' },
    async (uri, variables) => {
      const id = decodeURIComponent(String(variables.id));
      const document = await engine.document(id);
      if (!document) throw new Error(`no document '${id}' in the index`);
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: document.text }] };
    },
  );
  return server;
}
